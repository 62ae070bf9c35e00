/* A mesh too large to prepare in the memory the process may use is refused with
 * COL_ERR_OUT_OF_MEMORY, never an abort, and the world stays usable. Run under `ulimit -v`
 * (see ffi.mk). */
#include <stdint.h>
#include <string.h>

#include "check.h"

int main(void) {
    /* 2^22 separate triangles (12.6 M vertices, 150 MB of floats and 50 MB of indices as
     * given): preparing them takes about 4 GB, four times the limit. */
    enum { TRIANGLES = 1 << 22, VERTICES = 3 * TRIANGLES };
    float *xyz = malloc(sizeof(float) * 3 * VERTICES);
    uint32_t *indices = malloc(sizeof(uint32_t) * VERTICES);
    ColWorld *world = NULL;
    ColObjectId cube = 0, big = 5;
    ColObjectInfo info;
    ColMeshDesc d = cube_desc();
    ColMeshDescd dd;
    ColConfig config = colDefaultConfig();
    int i;
    CHECK(xyz != NULL && indices != NULL);
    for (i = 0; i < VERTICES; ++i) {
        int t = i / 3, corner = i % 3;
        xyz[3 * i + 0] = (float)(t % 2048) + (corner == 1 ? 0.5f : 0.0f);
        xyz[3 * i + 1] = (float)(t / 2048) + (corner == 2 ? 0.5f : 0.0f);
        xyz[3 * i + 2] = (float)(t % 7) * 0.25f;
        indices[i] = (uint32_t)i;
    }
    config.flags = 0;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &d, NULL, &cube));

    d.vertices = xyz;
    d.vertex_count = VERTICES;
    d.indices = indices;
    d.face_sizes = NULL;
    d.face_count = TRIANGLES;
    CHECK_STATUS(world, colMakeCollidable(world, &d, NULL, &big), COL_ERR_OUT_OF_MEMORY);
    CHECK(big == 0);
    CHECK(strstr(colLastError(world), "out of memory") != NULL);

    /* The same for the double form (all vertices at the origin: valid, and refused by the
     * forecast before anything is built). */
    free(xyz);
    xyz = malloc(sizeof(double) * 3 * VERTICES);
    CHECK(xyz != NULL);
    dd.vertices = (const double *)(void *)xyz;
    memset(xyz, 0, sizeof(double) * 3 * VERTICES);
    dd.vertex_count = VERTICES;
    dd.indices = indices;
    dd.face_sizes = NULL;
    dd.face_count = TRIANGLES;
    big = 5;
    CHECK_STATUS(world, colMakeCollidabled(world, &dd, NULL, &big), COL_ERR_OUT_OF_MEMORY);
    CHECK(big == 0);

    /* The world is unchanged and usable. */
    CHECK_OK(world, colGetObjectInfo(world, cube, &info));
    CHECK(info.vertex_count == 8);
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    colExit(world);
    free(xyz);
    free(indices);
    printf("out_of_memory: ok\n");
    return 0;
}
