/* Scheduling pair tests by time to collision: colSetVelocityBound / colSetVelocityMeasured.
 * Two unit cubes turned 45 degrees about z (diamonds in xy), a at the origin, b at (d, d, 0):
 * their boxes overlap while their faces are d sqrt(2) - 1 apart. b walks towards a; a scheduled
 * world and a plain one must report the same collisions at every check, the scheduled one
 * saving tests while the gap lasts; then the same with a bound every move breaks. Bad input is
 * refused with a status and a message. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

/* Column-major: rotation by 45 degrees about z, then translation (d, d, 0). */
static void diamond_at(double m[16], double d) {
    const double c = sqrt(0.5);
    memset(m, 0, 16 * sizeof(double));
    m[0] = c;
    m[1] = c;
    m[4] = -c;
    m[5] = c;
    m[10] = 1.0;
    m[12] = d;
    m[13] = d;
    m[15] = 1.0;
}

typedef struct {
    ColWorld *world;
    int collisions;
    ColStatus inside; /* colSetVelocityBound called inside the callback */
} Seen;

static void count(const ColCollision *c, void *user) {
    Seen *seen = (Seen *)user;
    seen->collisions += 1;
    seen->inside = colSetVelocityBound(seen->world, c->a, 1.0, 1.0);
}

/* Plays the walk on a plain and a scheduled world (bound `linear` per check for both cubes);
 * returns the tests the schedule saved and sets *first to the check of the first collision. */
static uint64_t walk(double linear, int *first) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColWorld *worlds[2] = {NULL, NULL};
    ColObjectId a[2] = {0, 0}, b[2] = {0, 0};
    Seen seen[2];
    double m[16], d = 0.9;
    uint64_t saved_total = 0, saved = 0;
    int w, check;

    *first = -1;
    for (w = 0; w < 2; ++w) {
        CHECK_OK(NULL, colInit(&config, &worlds[w]));
        CHECK_OK(worlds[w], colMakeCollidable(worlds[w], &cube, NULL, &a[w]));
        CHECK_OK(worlds[w], colMakeCollidable(worlds[w], &cube, NULL, &b[w]));
        diamond_at(m, 0.0);
        CHECK_OK(worlds[w], colSetTransformd(worlds[w], a[w], m));
        diamond_at(m, d);
        CHECK_OK(worlds[w], colSetTransformd(worlds[w], b[w], m));
        seen[w].world = worlds[w];
        seen[w].collisions = 0;
        seen[w].inside = COL_OK;
        CHECK_OK(worlds[w], colSetGeneralCallback(worlds[w], count, &seen[w]));
    }
    /* World 1 is scheduled. */
    CHECK_OK(worlds[1], colSetVelocityBound(worlds[1], a[1], linear, 0.0));
    CHECK_OK(worlds[1], colSetVelocityBound(worlds[1], b[1], linear, 0.0));
    for (w = 0; w < 2; ++w) {
        CHECK_OK(worlds[w], colStart(worlds[w]));
    }
    for (check = 1; check <= 60; ++check) {
        if (check > 1) {
            d -= 0.005;
            diamond_at(m, d);
            for (w = 0; w < 2; ++w) {
                CHECK_OK(worlds[w], colSetTransformd(worlds[w], b[w], m));
            }
        }
        for (w = 0; w < 2; ++w) {
            seen[w].collisions = 0;
            CHECK_OK(worlds[w], colCheck(worlds[w]));
        }
        CHECK(seen[0].collisions == seen[1].collisions);
        if (seen[1].collisions > 0 && *first < 0) {
            *first = check;
        }
        CHECK_OK(worlds[1], colGetScheduleSavedTests(worlds[1], &saved));
        /* Touching or closer: never skipped. */
        if (d * sqrt(2.0) - 1.0 <= 0.0) {
            CHECK(saved == 0 && seen[1].collisions == 1);
        }
        saved_total += saved;
    }
    /* Inside a callback the bound cannot change. */
    CHECK(seen[1].inside == COL_ERR_WORLD_LOCKED);
    for (w = 0; w < 2; ++w) {
        CHECK_OK(worlds[w], colExit(worlds[w]));
    }
    return saved_total;
}

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColWorld *world = NULL;
    ColObjectId a = 0;
    uint64_t saved;
    int first;

    /* The bound holds (b moves 0.0071 per check). The faces meet once d <= 1 / sqrt(2):
     * 0.9 - 0.005 * 39 = 0.705, at check 40. */
    saved = walk(0.01, &first);
    CHECK(first == 40);
    CHECK(saved >= 10);
    /* A bound of 0 is broken by every move: still every collision, at the same check. */
    saved = walk(0.0, &first);
    CHECK(first == 40);
    CHECK(saved >= 10);

    /* Bad input: a status and a message; a measured bound; removing the bound. */
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_STATUS(world, colSetVelocityBound(world, a, -1.0, 0.0), COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(world), "max_linear") != NULL);
    CHECK_STATUS(world, colSetVelocityBound(world, a, 0.0, NAN), COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(world), "max_angular") != NULL);
    CHECK_STATUS(world, colSetVelocityBound(world, a, INFINITY, 0.0), COL_ERR_INVALID_ARGUMENT);
    CHECK_OK(world, colSetVelocityBound(world, a, INFINITY, INFINITY));
    CHECK_OK(world, colSetVelocityMeasured(world, a));
    CHECK_STATUS(world, colGetScheduleSavedTests(world, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_OK(world, colRemoveCollidable(world, a));
    CHECK_STATUS(world, colSetVelocityBound(world, a, 1.0, 1.0), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colSetVelocityMeasured(world, a), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(NULL, colSetVelocityMeasured(NULL, a), COL_ERR_NULL_ARGUMENT);
    CHECK_OK(world, colExit(world));
    printf("ttc: ok\n");
    return 0;
}
