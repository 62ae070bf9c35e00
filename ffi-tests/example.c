/* Two cubes, one sliding through the other: prints each new collision and checks the count. */
#include <stdio.h>
#include <string.h>

#include <colldet.h>

/* The cube [-0.5, 0.5]^3: 8 vertices, 6 quads counter-clockwise seen from outside. */
static const float cube_vertices[] = {
    -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f,
    -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  0.5f, 0.5f, 0.5f,  -0.5f, 0.5f, 0.5f,
};
static const uint32_t cube_indices[] = {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4,
                                        2, 3, 7, 6, 0, 4, 7, 3, 1, 2, 6, 5};
static const uint32_t cube_face_sizes[] = {4, 4, 4, 4, 4, 4};

static void on_collision(const ColCollision *c, void *user) {
    int *count = (int *)user;
    ++*count;
    printf("collision: %s and %s near (%.2f, %.2f, %.2f)\n", (const char *)c->client_data_a,
           (const char *)c->client_data_b, c->point[0], c->point[1], c->point[2]);
}

/* Prints the failure and returns 1 when `status` is not COL_OK. */
static int failed(ColWorld *world, ColStatus status, const char *call) {
    if (status == COL_OK) {
        return 0;
    }
    fprintf(stderr, "%s: %s: %s\n", call, colStatusString(status), colLastError(world));
    return 1;
}

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = {cube_vertices, 8, cube_indices, cube_face_sizes, 6};
    ColWorld *world = NULL;
    ColObjectId a = 0, b = 0;
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; /* column-major */
    int count = 0, frame, error = 0;

    printf("colldet %s\n", colGetVersion());
    if (failed(NULL, colInit(&config, &world), "colInit")) {
        return 1;
    }
    error |= failed(world, colMakeCollidable(world, &cube, "a", &a), "colMakeCollidable");
    error |= failed(world, colMakeCollidable(world, &cube, "b", &b), "colMakeCollidable");
    error |= failed(world, colSetGeneralCallback(world, on_collision, &count),
                    "colSetGeneralCallback");
    error |= failed(world, colStart(world), "colStart");
    /* b slides along x from 3 to -3, half a unit per frame: it touches a for |x| <= 1. */
    for (frame = 0; frame <= 12 && !error; ++frame) {
        m[12] = 3.0f - 0.5f * (float)frame; /* translation x */
        error |= failed(world, colSetTransform(world, b, m), "colSetTransform");
        error |= failed(world, colCheck(world), "colCheck");
    }
    /* A scaled matrix is refused with a message; the world is unchanged. */
    m[0] = 2.0f;
    if (colSetTransform(world, b, m) != COL_ERR_INVALID_ARGUMENT) {
        error = 1;
    }
    printf("refused: %s\n", colLastError(world));
    colExit(world);
    printf("%d collisions\n", count);
    return error || count != 5; /* x = 1, 0.5, 0, -0.5, -1 */
}
