/* Shared helpers of the colldet C and C++ tests: checks that abort with a message, a unit cube,
 * and rigid matrices. */
#ifndef COLLDET_FFI_TESTS_CHECK_H
#define COLLDET_FFI_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "colldet.h"

/* Fails the test program (exit 1) when `cond` is false. */
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* Fails unless `call` returns `expected`; prints both status names and the world's message. */
#define CHECK_STATUS(world, call, expected)                                              \
    do {                                                                                 \
        ColStatus check_status_got_ = (call);                                            \
        if (check_status_got_ != (expected)) {                                           \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__,      \
                    __LINE__, #call, colStatusString(check_status_got_),                 \
                    colStatusString(expected), colLastError(world));                     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define CHECK_OK(world, call) CHECK_STATUS(world, call, COL_OK)

/* The cube [-0.5, 0.5]^3: 8 vertices, 6 quads counter-clockwise seen from outside. */
static const float CUBE_VERTICES[24] = {
    -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f,
    -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  0.5f, 0.5f, 0.5f,  -0.5f, 0.5f, 0.5f,
};
static const uint32_t CUBE_INDICES[24] = {
    0, 3, 2, 1, /* z = -0.5 */
    4, 5, 6, 7, /* z = +0.5 */
    0, 1, 5, 4, /* y = -0.5 */
    2, 3, 7, 6, /* y = +0.5 */
    0, 4, 7, 3, /* x = -0.5 */
    1, 2, 6, 5, /* x = +0.5 */
};
static const uint32_t CUBE_FACE_SIZES[6] = {4, 4, 4, 4, 4, 4};

static inline ColMeshDesc cube_desc(void) {
    ColMeshDesc d;
    d.vertices = CUBE_VERTICES;
    d.vertex_count = 8;
    d.indices = CUBE_INDICES;
    d.face_sizes = CUBE_FACE_SIZES;
    d.face_count = 6;
    return d;
}

/* Column-major rigid matrix: rotation by `angle` radians about z, then translation (x, y, z). */
static inline void pose_matrix(float m[16], float angle, float x, float y, float z) {
    int i;
    for (i = 0; i < 16; ++i) {
        m[i] = 0.0f;
    }
    m[0] = cosf(angle);
    m[1] = sinf(angle);
    m[4] = -sinf(angle);
    m[5] = cosf(angle);
    m[10] = 1.0f;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m[15] = 1.0f;
}

static inline void translation(float m[16], float x, float y, float z) {
    pose_matrix(m, 0.0f, x, y, z);
}

#endif
