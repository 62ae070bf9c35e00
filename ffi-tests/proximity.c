/* Proximity queries: colDistance (signed distance, closest points, normal, faces) and
 * colWithinDistance (tolerance verification) on convex cubes and on a non-convex object (two
 * cubes in one mesh), before and after colStart and inside a callback, and their errors. */
#include <math.h>
#include <stdint.h>

#include "check.h"

/* Two cubes of side 4 in one mesh, centred at (0, 0, 0) and (12, 0, 0): non-convex (two
 * components), closed. */
static void twin_cubes(float xyz[48], uint32_t indices[48], uint32_t sizes[12]) {
    int i;
    for (i = 0; i < 24; ++i) {
        xyz[i] = 4.0f * CUBE_VERTICES[i];
        xyz[24 + i] = 4.0f * CUBE_VERTICES[i] + (i % 3 == 0 ? 12.0f : 0.0f);
        indices[i] = CUBE_INDICES[i];
        indices[24 + i] = CUBE_INDICES[i] + 8;
    }
    for (i = 0; i < 12; ++i) {
        sizes[i] = 4;
    }
}

static int near(double x, double y) { return fabs(x - y) < 1e-12; }

/* The distance from the callback's pair, measured inside the callback. */
typedef struct {
    ColWorld *world;
    ColStatus status;
    double distance;
} Seen;

static void measure(const ColCollision *c, void *user) {
    Seen *seen = (Seen *)user;
    ColProximity p;
    seen->status = colDistance(seen->world, c->a, c->b, &p);
    seen->distance = seen->status == COL_OK ? p.distance : NAN;
}

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColMeshDesc twins;
    float twin_xyz[48], m[16];
    uint32_t twin_indices[48], twin_sizes[12];
    ColWorld *world = NULL;
    ColObjectId a = 0, b = 0, t = 0;
    ColProximity p, untouched;
    Seen seen;
    int within = -1;

    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &b));

    /* Before colStart: b at x = 3, faces x = 0.5 and x = 2.5 are 2 apart. */
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colDistance(world, a, b, &p));
    CHECK(near(p.distance, 2.0));
    CHECK(near(p.normal[0], 1.0) && near(p.normal[1], 0.0) && near(p.normal[2], 0.0));
    CHECK(near(p.point_a[0], 0.5) && near(p.point_b[0], 2.5));
    CHECK(p.feature_a == 5 && p.feature_b == 4); /* a's face x = +0.5, b's face x = -0.5 */
    CHECK_OK(world, colWithinDistance(world, a, b, 2.0 + 1e-9, &within));
    CHECK(within == 1);
    CHECK_OK(world, colWithinDistance(world, a, b, 2.0 - 1e-9, &within));
    CHECK(within == 0);
    /* Approximate: within 10% above the exact 2; the points are that far apart. */
    CHECK_OK(world, colDistanceApprox(world, a, b, 0.1, &p));
    CHECK(p.distance >= 2.0 - 1e-12 && p.distance <= 2.2 + 1e-12);
    CHECK(fabs(sqrt(pow(p.point_b[0] - p.point_a[0], 2) + pow(p.point_b[1] - p.point_a[1], 2) +
                    pow(p.point_b[2] - p.point_a[2], 2)) -
               p.distance) < 1e-9);
    CHECK_STATUS(world, colDistanceApprox(world, a, b, -0.5, &p), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colDistanceApprox(world, a, b, NAN, &p), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colDistanceApprox(world, a, b, 0.1, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_OK(world, colDistanceApprox(world, a, b, 0.0, &p));
    CHECK(near(p.distance, 2.0));

    /* After colStart, penetrating by 0.1: distance -0.1, normal still from a to b. */
    CHECK_OK(world, colStart(world));
    translation(m, 0.9f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colDistance(world, a, b, &p));
    CHECK(fabs(p.distance + 0.1) < 1e-6 && fabs(p.normal[0] - 1.0) < 1e-9);
    CHECK_OK(world, colWithinDistance(world, a, b, 0.0, &within));
    CHECK(within == 1);

    /* Inside a callback: allowed (the check's collisions are all computed before). */
    seen.world = world;
    seen.status = -1;
    seen.distance = 0.0;
    CHECK_OK(world, colSetGeneralCallback(world, measure, &seen));
    CHECK_OK(world, colCheck(world));
    CHECK(seen.status == COL_OK && fabs(seen.distance + 0.1) < 1e-6);

    /* A non-convex object: cube b 1 unit from the right face of the left twin (x = 2). */
    twin_cubes(twin_xyz, twin_indices, twin_sizes);
    twins.vertices = twin_xyz;
    twins.vertex_count = 16;
    twins.indices = twin_indices;
    twins.face_sizes = twin_sizes;
    twins.face_count = 12;
    CHECK_OK(world, colMakeCollidable(world, &twins, NULL, &t));
    translation(m, 0.0f, 100.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, a, m)); /* out of the way */
    translation(m, 3.5f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colDistance(world, t, b, &p));
    CHECK(near(p.distance, 1.0) && near(p.normal[0], 1.0));
    CHECK(near(p.point_a[0], 2.0) && near(p.point_b[0], 3.0));
    /* Parallel faces: the closest pair may lie on an edge, so any face holding it may be named. */
    CHECK(p.feature_a < 12 && p.feature_b < 6);
    CHECK_OK(world, colWithinDistance(world, t, b, 1.0 + 1e-9, &within));
    CHECK(within == 1);
    CHECK_OK(world, colWithinDistance(world, b, t, 1.0 - 1e-9, &within));
    CHECK(within == 0);
    /* Cube b inside the left twin: the solids collide, distance 0, no normal. */
    translation(m, 0.25f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colDistance(world, t, b, &p));
    CHECK(p.distance == 0.0 && p.normal[0] == 0.0 && p.normal[1] == 0.0 && p.normal[2] == 0.0);
    CHECK(p.feature_a == COL_NO_FEATURE); /* the container names no face */
    CHECK_OK(world, colWithinDistance(world, t, b, 0.0, &within));
    CHECK(within == 1);

    /* Errors: a status and a message; the outputs stay as they were. */
    untouched = p;
    within = 7;
    CHECK_STATUS(world, colWithinDistance(world, t, b, -1.0, &within), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colWithinDistance(world, t, b, NAN, &within), COL_ERR_INVALID_ARGUMENT);
    CHECK(within == 7);
    CHECK_STATUS(world, colDistance(world, t, t, &p), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colDistance(world, t, b, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colWithinDistance(world, t, b, 1.0, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colDistance(world, t, 0, &p), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colSetGeneralCallback(world, NULL, NULL));
    CHECK_OK(world, colRemoveCollidable(world, a));
    CHECK_STATUS(world, colDistance(world, a, b, &p), COL_ERR_INVALID_HANDLE);
    CHECK(p.distance == untouched.distance && p.feature_a == untouched.feature_a);
    CHECK_STATUS(NULL, colDistance(NULL, t, b, &p), COL_ERR_NULL_ARGUMENT);

    CHECK_OK(world, colExit(world));
    printf("proximity: ok\n");
    return 0;
}
