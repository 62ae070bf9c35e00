/* Ray casts and overlap queries: colRayCast (first hit, t, point, normal, face, client_data),
 * colRayCastAll (sorted, total count beyond a small capacity), colOverlapBox and
 * colOverlapConvex, before and after colStart and after moves, and their errors. */
#include <math.h>
#include <stdint.h>

#include "check.h"

/* Face indices of check.h's cube. */
enum { FACE_XMIN = 4, FACE_XMAX = 5 };

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColWorld *world = NULL;
    ColObjectId ids[3] = {0, 0, 0}, found[2] = {0, 0};
    static char names[3][2] = {"a", "b", "c"};
    ColRayHit hit, hits[2], untouched;
    size_t count = 99;
    float m[16];
    const double origin[3] = {0.0, 0.0, 0.0}, x_axis[3] = {1.0, 0.0, 0.0};
    const double zero[3] = {0.0, 0.0, 0.0}, bad[3] = {NAN, 0.0, 0.0};
    int i;

    CHECK_OK(NULL, colInit(&config, &world));
    /* Cubes at x = 2, 4 and 6 on the x axis. */
    for (i = 0; i < 3; ++i) {
        CHECK_OK(world, colMakeCollidable(world, &cube, names[i], &ids[i]));
        translation(m, 2.0f + 2.0f * (float)i, 0.0f, 0.0f);
        CHECK_OK(world, colSetTransform(world, ids[i], m));
    }

    /* Before colStart: the first hit is cube a's -x face at x = 1.5. */
    CHECK_OK(world, colRayCast(world, origin, x_axis, INFINITY, &hit));
    CHECK(hit.object == ids[0] && hit.t == 1.5 && hit.face == FACE_XMIN);
    CHECK(hit.point[0] == 1.5 && hit.point[1] == 0.0 && hit.point[2] == 0.0);
    CHECK(hit.normal[0] == -1.0 && hit.normal[1] == 0.0 && hit.normal[2] == 0.0);
    CHECK(hit.client_data == names[0]);

    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    /* t in units of dir; max_t exactly at the face hits, one ulp less misses. */
    {
        const double dir[3] = {3.0, 0.0, 0.0};
        CHECK_OK(world, colRayCast(world, origin, dir, 0.5, &hit));
        CHECK(hit.object == ids[0] && hit.t == 0.5);
        CHECK_OK(world, colRayCast(world, origin, dir, nextafter(0.5, 0.0), &hit));
        CHECK(hit.object == 0 && hit.face == COL_NO_FEATURE && hit.client_data == NULL);
    }
    /* From the far side: cube c's +x face. */
    {
        const double from[3] = {10.0, 0.25, -0.25}, back[3] = {-1.0, 0.0, 0.0};
        CHECK_OK(world, colRayCast(world, from, back, INFINITY, &hit));
        CHECK(hit.object == ids[2] && hit.t == 3.5 && hit.face == FACE_XMAX);
        CHECK(hit.normal[0] == 1.0);
    }
    /* Starting inside cube b: t = 0, normal against the ray, no face. */
    {
        const double inside[3] = {4.1, 0.2, 0.0};
        CHECK_OK(world, colRayCast(world, inside, x_axis, INFINITY, &hit));
        CHECK(hit.object == ids[1] && hit.t == 0.0 && hit.face == COL_NO_FEATURE);
        CHECK(hit.normal[0] == -1.0);
    }

    /* All hits, sorted by t; a capacity of 2 still reports the total, 3. */
    CHECK_OK(world, colRayCastAll(world, origin, x_axis, INFINITY, hits, 2, &count));
    CHECK(count == 3);
    CHECK(hits[0].object == ids[0] && hits[0].t == 1.5);
    CHECK(hits[1].object == ids[1] && hits[1].t == 3.5 && hits[1].client_data == names[1]);
    CHECK_OK(world, colRayCastAll(world, origin, x_axis, INFINITY, NULL, 0, &count));
    CHECK(count == 3);
    CHECK_OK(world, colRayCastAll(world, origin, x_axis, 4.0, hits, 2, &count));
    CHECK(count == 2);
    /* Through the edge shared by two faces of cube a: one entry. */
    {
        const double edge[3] = {1.5, 0.5, 0.0};
        CHECK_OK(world, colRayCastAll(world, origin, edge, INFINITY, hits, 2, &count));
        CHECK(count == 1 && hits[0].object == ids[0] && hits[0].t == 1.0);
    }

    /* A move without a check is seen: cube a leaves the axis. */
    translation(m, 2.0f, 5.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, ids[0], m));
    CHECK_OK(world, colRayCast(world, origin, x_axis, INFINITY, &hit));
    CHECK(hit.object == ids[1] && hit.t == 3.5);

    /* Overlap box: touching cube b's +x face at x = 4.5 and cube c; capacity 1 of 2. */
    {
        const double lo[3] = {4.5, -0.1, -0.1}, hi[3] = {5.5, 0.1, 0.1};
        const double lo_gap[3] = {4.6, -0.1, -0.1}, hi_gap[3] = {5.4, 0.1, 0.1};
        CHECK_OK(world, colOverlapBox(world, lo, hi, found, 2, &count));
        CHECK(count == 2 && found[0] == ids[1] && found[1] == ids[2]);
        CHECK_OK(world, colOverlapBox(world, lo, hi, found, 1, &count));
        CHECK(count == 2 && found[0] == ids[1]);
        CHECK_OK(world, colOverlapBox(world, lo_gap, hi_gap, found, 2, &count));
        CHECK(count == 0);
        CHECK_STATUS(world, colOverlapBox(world, hi, lo, found, 2, &count),
                     COL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(world, colOverlapBox(world, lo, hi, NULL, 2, &count),
                     COL_ERR_NULL_ARGUMENT);
    }
    /* Overlap convex: a tetrahedron whose corner touches cube c's corner (6.5, 0.5, 0.5). */
    {
        const double tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        double md[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 6.5, 0.5, 0.5, 1};
        CHECK_OK(world, colOverlapConvex(world, tet, 4, md, found, 2, &count));
        CHECK(count == 1 && found[0] == ids[2]);
        md[12] = nextafter(6.5, 7.0);
        CHECK_OK(world, colOverlapConvex(world, tet, 4, md, found, 2, &count));
        CHECK(count == 0);
        md[0] = 2.0; /* scaled: not rigid */
        CHECK_STATUS(world, colOverlapConvex(world, tet, 4, md, found, 2, &count),
                     COL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(world, colOverlapConvex(world, tet, 3, NULL, found, 2, &count),
                     COL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(world, colOverlapConvex(world, NULL, 4, NULL, found, 2, &count),
                     COL_ERR_NULL_ARGUMENT);
    }

    /* Errors: a status and a message; the output stays as it was. */
    untouched = hit;
    CHECK_STATUS(world, colRayCast(world, origin, zero, INFINITY, &hit), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colRayCast(world, bad, x_axis, INFINITY, &hit), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colRayCast(world, origin, x_axis, -1.0, &hit), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colRayCast(world, origin, x_axis, NAN, &hit), COL_ERR_INVALID_ARGUMENT);
    CHECK(hit.object == untouched.object && hit.t == untouched.t);
    CHECK(colLastError(world)[0] != '\0');
    CHECK_STATUS(world, colRayCast(world, NULL, x_axis, INFINITY, &hit), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colRayCast(world, origin, x_axis, INFINITY, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colRayCastAll(world, origin, x_axis, INFINITY, NULL, 1, &count),
                 COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colRayCastAll(world, origin, x_axis, INFINITY, hits, 2, NULL),
                 COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colRayCast(NULL, origin, x_axis, INFINITY, &hit), COL_ERR_NULL_ARGUMENT);

    CHECK_OK(world, colExit(world));
    printf("ray_cast: ok\n");
    return 0;
}
