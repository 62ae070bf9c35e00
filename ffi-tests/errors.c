/* colldet C API, C11: every error status reached on purpose, each with its message, and the
 * world still usable afterwards. */
#include <string.h>

#include "check.h"

/* Fails unless the world's last error message contains `part`. */
#define CHECK_MESSAGE(world, part)                                                        \
    do {                                                                                  \
        if (strstr(colLastError(world), (part)) == NULL) {                                \
            fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, \
                    colLastError(world), (part));                                         \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static int collisions;

static void count(const ColCollision *c, void *user) {
    (void)c;
    (void)user;
    ++collisions;
}

/* The world still works: b moved onto a collides once, moved away does not. */
static void check_usable(ColWorld *world, ColObjectId a, ColObjectId b) {
    float m[16];
    ColObjectInfo info;
    int before = collisions;
    CHECK_OK(world, colGetObjectInfo(world, a, &info));
    CHECK(info.vertex_count == 8);
    translation(m, 0.25f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colCheck(world));
    CHECK(collisions == before + 1);
    translation(m, 5.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colCheck(world));
    CHECK(collisions == before + 1);
}

static void config_errors(void) {
    ColConfig config;
    ColWorld *world = (ColWorld *)&config; /* must be overwritten with NULL on failure */

    CHECK_STATUS(NULL, colInit(NULL, &world), COL_ERR_NULL_ARGUMENT);
    CHECK(world == NULL);
    CHECK_MESSAGE(NULL, "config");
    config = colDefaultConfig();
    CHECK_STATUS(NULL, colInit(&config, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(NULL, "out");

    config.broadphase = 99;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "broadphase");
    config = colDefaultConfig();
    config.method = 42;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "method");
    config = colDefaultConfig();
    config.flags = 0x80;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "flag");
    config = colDefaultConfig();
    config.threads = COL_MAX_THREADS + 1;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "threads");
    config = colDefaultConfig();
    config.broadphase = COL_BROADPHASE_GRID;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "universe");
    config.universe_min[0] = config.universe_min[1] = config.universe_min[2] = 1.0;
    config.universe_max[0] = config.universe_max[1] = config.universe_max[2] = -1.0;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "min < max");
    config.universe_min[0] = config.universe_min[1] = config.universe_min[2] = -1.0;
    config.universe_max[0] = config.universe_max[1] = config.universe_max[2] = 1.0;
    config.resolution = 0;
    CHECK_STATUS(NULL, colInit(&config, &world), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(NULL, "resolution");
    CHECK(world == NULL);
    config.resolution = 4;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colExit(world));
}

static void null_world(void) {
    float m[16];
    ColObjectInfo info;
    ColObjectId id = 0;
    ColMeshDesc cube = cube_desc();
    translation(m, 0.0f, 0.0f, 0.0f);
    CHECK_STATUS(NULL, colStart(NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(NULL, "colStart: `world` is NULL");
    CHECK_STATUS(NULL, colCheck(NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colMakeCollidable(NULL, &cube, NULL, &id), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colRemoveCollidable(NULL, 1), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetTransform(NULL, 1, m), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetInterest(NULL, 1, 2, 0), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetCallback(NULL, 1, 2, count, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetGeneralCallback(NULL, count, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colGetObjectInfo(NULL, 1, &info), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(NULL, "colGetObjectInfo");
}

static void mesh_errors(ColWorld *world, ColObjectId a, ColObjectId b) {
    static const float flat[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const uint32_t quad[4] = {0, 1, 2, 3};
    static const uint32_t two[1] = {2};
    static const uint32_t sliver[3] = {0, 1, 1};
    uint32_t bad_indices[24];
    float bad_vertices[24];
    ColMeshDesc d;
    ColObjectId id = 77;

    CHECK_STATUS(world, colMakeCollidable(world, NULL, NULL, &id), COL_ERR_NULL_ARGUMENT);
    CHECK(id == 0);
    CHECK_MESSAGE(world, "desc");
    d = cube_desc();
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(world, "out_id");
    d.vertices = NULL;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(world, "desc->vertices");
    d = cube_desc();
    d.indices = NULL;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_NULL_ARGUMENT);
    CHECK_MESSAGE(world, "desc->indices");

    /* Empty mesh, no faces. */
    d = cube_desc();
    d.vertex_count = 0;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "no vertices");
    d = cube_desc();
    d.face_count = 0;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "no faces");
    /* Index out of range: face 5 uses vertex 8 of 8. */
    memcpy(bad_indices, CUBE_INDICES, sizeof bad_indices);
    bad_indices[21] = 8;
    d = cube_desc();
    d.indices = bad_indices;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "face 5 uses vertex index 8, but there are 8 vertices");
    /* A face of two vertices. */
    d.vertices = flat;
    d.vertex_count = 4;
    d.indices = quad;
    d.face_sizes = two;
    d.face_count = 1;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "face 0 has 2 vertices");
    /* A NaN coordinate. */
    memcpy(bad_vertices, CUBE_VERTICES, sizeof bad_vertices);
    bad_vertices[7] = NAN;
    d = cube_desc();
    d.vertices = bad_vertices;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "vertex 2 has a non-finite coordinate");
    /* No face of non-zero area: nothing to collide (a flat mesh with area is accepted). */
    d.vertices = flat;
    d.vertex_count = 4;
    d.indices = sliver;
    d.face_sizes = NULL;
    d.face_count = 1;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "no face has non-zero area");
    /* Counts too large for the address space are refused before any read. */
    d = cube_desc();
    d.vertex_count = (size_t)-1;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK_MESSAGE(world, "too large");
    check_usable(world, a, b);
}

static void transform_errors(ColWorld *world, ColObjectId a, ColObjectId b) {
    float m[16];
    double md[16];
    int i;
    translation(m, 1.0f, 2.0f, 3.0f);

    CHECK_STATUS(world, colSetTransform(world, b, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colSetTransformd(world, b, NULL), COL_ERR_NULL_ARGUMENT);
    m[5] = NAN;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(world, "NaN");
    m[5] = 1.0f;
    m[13] = INFINITY;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(world, "infinite");
    /* Uniform scale 1.01: R^T R = 1.0201 I. */
    translation(m, 0.0f, 0.0f, 0.0f);
    m[0] = m[5] = m[10] = 1.01f;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(world, "scale or shear");
    /* Shear. */
    translation(m, 0.0f, 0.0f, 0.0f);
    m[4] = 0.1f;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    /* Mirror: det = -1. */
    translation(m, 0.0f, 0.0f, 0.0f);
    m[0] = -1.0f;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(world, "mirror");
    /* Projective bottom row. */
    translation(m, 0.0f, 0.0f, 0.0f);
    m[3] = 0.5f;
    CHECK_STATUS(world, colSetTransform(world, b, m), COL_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(world, "bottom row");
    /* Double precision: the same rules. */
    for (i = 0; i < 16; ++i) {
        md[i] = (i % 5 == 0) ? 2.0 : 0.0;
    }
    md[15] = 1.0;
    CHECK_STATUS(world, colSetTransformd(world, b, md), COL_ERR_INVALID_ARGUMENT);
    /* Float rounding of a real rotation is within the tolerance. */
    pose_matrix(m, 0.7f, 0.0f, 9.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    check_usable(world, a, b);
}

static void handle_errors(ColWorld *world, ColObjectId a, ColObjectId b) {
    float m[16];
    ColObjectInfo info;
    ColObjectId c = 0, d = 0;
    ColMeshDesc cube = cube_desc();
    translation(m, 0.0f, 0.0f, 0.0f);

    CHECK_STATUS(world, colSetTransform(world, 0, m), COL_ERR_INVALID_HANDLE);
    CHECK_MESSAGE(world, "0 is never valid");
    CHECK_STATUS(world, colGetObjectInfo(world, a ^ ((ColObjectId)1 << 40), &info),
                 COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colRemoveCollidable(world, 1000), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colGetObjectInfo(world, a, NULL), COL_ERR_NULL_ARGUMENT);
    /* Stale ids after removal, also once the slot is reused. */
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &c));
    CHECK_OK(world, colRemoveCollidable(world, c));
    CHECK_STATUS(world, colSetTransform(world, c, m), COL_ERR_INVALID_HANDLE);
    CHECK_MESSAGE(world, "stale");
    CHECK_STATUS(world, colGetObjectInfo(world, c, &info), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colSetInterest(world, a, c, 0), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colSetCallback(world, c, b, count, NULL), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colRemoveCollidable(world, c), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &d));
    CHECK(d != c);
    CHECK_STATUS(world, colGetObjectInfo(world, c, &info), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colGetObjectInfo(world, d, &info));
    CHECK_OK(world, colSetInterest(world, a, d, 0));
    CHECK_OK(world, colSetInterest(world, b, d, 0));
    /* A pair of an object with itself. */
    CHECK_STATUS(world, colSetInterest(world, a, a, 0), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetCallback(world, b, b, count, NULL), COL_ERR_INVALID_ARGUMENT);
    check_usable(world, a, b);
    CHECK_OK(world, colRemoveCollidable(world, d));
    check_usable(world, a, b);
}

static void state_errors(void) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    ColObjectId a = 0, b = 0, c = 0;

    config.max_collidables = 2;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_STATUS(world, colCheck(world), COL_ERR_WRONG_STATE);
    CHECK_MESSAGE(world, "check before start");
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &b));
    /* The world is full. */
    CHECK_STATUS(world, colMakeCollidable(world, &cube, NULL, &c), COL_ERR_OUT_OF_MEMORY);
    CHECK_MESSAGE(world, "maximum of 2 objects");
    CHECK(c == 0);
    CHECK_OK(world, colSetGeneralCallback(world, count, NULL));
    CHECK_OK(world, colStart(world));
    CHECK_STATUS(world, colStart(world), COL_ERR_WRONG_STATE);
    CHECK_MESSAGE(world, "already");
    check_usable(world, a, b);
    /* Room for one more after a removal. */
    CHECK_OK(world, colRemoveCollidable(world, b));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &b));
    check_usable(world, a, b);
    CHECK_OK(world, colExit(world));

    world = NULL;
    config.max_collidables = 0;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &b));
    CHECK_OK(world, colSetGeneralCallback(world, count, NULL));
    CHECK_OK(world, colStart(world));
    mesh_errors(world, a, b);
    transform_errors(world, a, b);
    handle_errors(world, a, b);
    CHECK_OK(world, colExit(world));
}

static void swept_never(const ColSweptCollision *c, void *user) {
    (void)c;
    (void)user;
    fprintf(stderr, "a swept callback ran\n");
    exit(1);
}

/* Two worlds made alike (same slots, same generations): each refuses the other's ids with
 * COL_ERR_INVALID_HANDLE on every call that takes an id, and is left unchanged. */
static void foreign_ids(void) {
    ColConfig config = colDefaultConfig();
    ColWorld *wa = NULL, *wb = NULL;
    ColMeshDesc cube = cube_desc();
    ColObjectId a[2] = {0, 0}, b[2] = {0, 0}, made = 0;
    ColObjectInfo info;
    ColTrace trace;
    float m[16];
    double md[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.25, 0, 0, 1};
    int i, before;

    CHECK_OK(NULL, colInit(&config, &wa));
    CHECK_OK(NULL, colInit(&config, &wb));
    translation(m, 5.0f, 0.0f, 0.0f);
    for (i = 0; i < 2; ++i) {
        ColWorld *w = i == 0 ? wa : wb;
        ColObjectId *id = i == 0 ? a : b;
        CHECK_OK(w, colMakeCollidable(w, &cube, NULL, &id[0]));
        CHECK_OK(w, colMakeCollidable(w, &cube, NULL, &id[1]));
        CHECK_OK(w, colSetTransform(w, id[1], m));
        CHECK_OK(w, colSetGeneralCallback(w, count, NULL));
        CHECK_OK(w, colStart(w));
        CHECK_OK(w, colCheck(w));
    }
    CHECK(a[0] != b[0] && a[1] != b[1] && a[0] != a[1]);

    before = collisions;
    translation(m, 0.25f, 0.0f, 0.0f);
    for (i = 0; i < 2; ++i) {
        ColObjectId x = a[i];
        CHECK_STATUS(wb, colRemoveCollidable(wb, x), COL_ERR_INVALID_HANDLE);
        CHECK_MESSAGE(wb, "another world");
        CHECK_STATUS(wb, colSetTransform(wb, x, m), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colSetTransformd(wb, x, md), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colGetObjectInfo(wb, x, &info), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colMakeInstance(wb, x, NULL, &made), COL_ERR_INVALID_HANDLE);
        CHECK(made == 0);
        CHECK_STATUS(wb, colSetInterest(wb, x, b[1 - i], 0), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colSetInterest(wb, b[1 - i], x, 0), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colSetCallback(wb, x, b[1 - i], count, NULL), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colSetSweptCallback(wb, b[1 - i], x, swept_never, NULL),
                     COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colTrace(wb, x, m, &trace), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wb, colTraced(wb, x, md, &trace), COL_ERR_INVALID_HANDLE);
        /* And the other way round. */
        CHECK_STATUS(wa, colGetObjectInfo(wa, b[i], &info), COL_ERR_INVALID_HANDLE);
        CHECK_STATUS(wa, colRemoveCollidable(wa, b[i]), COL_ERR_INVALID_HANDLE);
    }
    /* Nothing moved, nothing was removed or switched off: no collision, both objects alive. */
    CHECK_OK(wb, colCheck(wb));
    CHECK_OK(wb, colCheckContinuous(wb));
    CHECK(collisions == before);
    CHECK_OK(wb, colGetObjectInfo(wb, b[0], &info));
    CHECK_OK(wb, colGetObjectInfo(wb, b[1], &info));
    /* b[0] and b[1] still collide when moved together (interest on, general callback). */
    check_usable(wb, b[0], b[1]);
    check_usable(wa, a[0], a[1]);
    CHECK_OK(wa, colRemoveCollidable(wa, a[0]));
    CHECK_OK(wb, colGetObjectInfo(wb, b[0], &info));
    CHECK_OK(wa, colExit(wa));
    CHECK_OK(wb, colExit(wb));
}

int main(void) {
    config_errors();
    null_world();
    state_errors();
    foreign_ids();
    printf("errors: ok\n");
    return 0;
}
