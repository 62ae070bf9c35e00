/* colldet C API, C11: tolerances in the check (colSetDefaultTolerance, colSetPairTolerance,
 * colSetToleranceCallback): separated pairs within their tolerance with their distance, the
 * boundary (a gap equal to the tolerance counts, one ulp more does not), touching pairs told
 * apart and still reported to the collision callback first, the world locked inside the
 * callback, and bad input answered with a status and a message. */
#include <math.h>
#include <string.h>

#include "check.h"

typedef struct Seen {
    ColNearPair pairs[8];
    int count;
    int collisions;
    int order_ok;      /* every near pair came after the check's collisions */
    ColWorld *world;
    ColStatus locked;  /* colSetPairTolerance inside the callback */
    ColStatus queried; /* colDistance inside the callback */
    double measured;   /* its distance */
} Seen;

static void on_collision(const ColCollision *c, void *user) {
    Seen *seen = (Seen *)user;
    (void)c;
    seen->collisions += 1;
    if (seen->count > 0) {
        seen->order_ok = 0;
    }
}

static void on_near(const ColNearPair *p, void *user) {
    Seen *seen = (Seen *)user;
    ColProximity q;
    CHECK(seen->count < 8);
    CHECK(p->a < p->b);
    seen->pairs[seen->count++] = *p;
    seen->locked = colSetPairTolerance(seen->world, p->a, p->b, 5.0);
    seen->queried = colDistance(seen->world, p->a, p->b, &q);
    seen->measured = q.distance;
}

/* Places `id` translated by `x` along the x axis (a double matrix: no rounding of `x`). */
static ColStatus place(ColWorld *world, ColObjectId id, double x) {
    double m[16];
    memset(m, 0, sizeof m);
    m[0] = m[5] = m[10] = m[15] = 1.0;
    m[12] = x;
    return colSetTransformd(world, id, m);
}

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColWorld *world = NULL;
    ColObjectId a = 0, b = 0, c = 0;
    Seen seen;

    memset(&seen, 0, sizeof seen);
    seen.order_ok = 1;
    CHECK_OK(NULL, colInit(&config, &world));
    seen.world = world;
    CHECK_OK(world, colMakeCollidable(world, &cube, (void *)"a", &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, (void *)"b", &b));
    CHECK_OK(world, colMakeCollidable(world, &cube, (void *)"c", &c));
    /* Unit cubes: gaps a-b 0.25, b-c 0.75, a-c 2. */
    CHECK_OK(world, place(world, b, 1.25));
    CHECK_OK(world, place(world, c, 3.0));
    CHECK_OK(world, colSetDefaultTolerance(world, 0.25));
    CHECK_OK(world, colSetPairTolerance(world, c, b, 1.0));
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, &seen));
    CHECK_OK(world, colSetToleranceCallback(world, on_near, &seen));
    CHECK_OK(world, colStart(world));

    CHECK_OK(world, colCheck(world));
    CHECK(seen.collisions == 0 && seen.count == 2);
    CHECK(seen.pairs[0].a == a && seen.pairs[0].b == b);
    CHECK(seen.pairs[0].kind == COL_NEAR_SEPARATED);
    CHECK(strcmp((const char *)seen.pairs[0].client_data_a, "a") == 0);
    CHECK(strcmp((const char *)seen.pairs[0].client_data_b, "b") == 0);
    CHECK(seen.pairs[0].tolerance == 0.25);
    CHECK(seen.pairs[0].proximity.distance == 0.25); /* the boundary counts */
    CHECK(seen.pairs[0].proximity.normal[0] == 1.0);
    CHECK(seen.pairs[0].proximity.point_a[0] == 0.5 && seen.pairs[0].proximity.point_b[0] == 0.75);
    CHECK(seen.pairs[1].a == b && seen.pairs[1].b == c);
    CHECK(seen.pairs[1].tolerance == 1.0);
    CHECK(fabs(seen.pairs[1].proximity.distance - 0.75) < 1e-12);
    /* Inside the callback: structural calls locked, queries allowed and agreeing. */
    CHECK(seen.locked == COL_ERR_WORLD_LOCKED);
    CHECK(seen.queried == COL_OK && seen.measured == seen.pairs[1].proximity.distance);

    /* One ulp farther than the tolerance: not reported. */
    seen.count = 0;
    CHECK_OK(world, place(world, b, nextafter(1.25, 2.0)));
    CHECK_OK(world, place(world, c, 100.0));
    CHECK_OK(world, colCheck(world));
    CHECK(seen.count == 0);

    /* Touching: reported to the collision callback, then as a touching near pair. */
    CHECK_OK(world, place(world, b, 1.0));
    CHECK_OK(world, place(world, c, 3.0)); /* b-c gap 1.0 = their tolerance */
    CHECK_OK(world, colCheck(world));
    CHECK(seen.collisions == 1 && seen.order_ok);
    CHECK(seen.count == 2);
    CHECK(seen.pairs[0].a == a && seen.pairs[0].b == b);
    CHECK(seen.pairs[0].kind == COL_NEAR_TOUCHING && seen.pairs[0].proximity.distance == 0.0);
    CHECK(seen.pairs[1].kind == COL_NEAR_SEPARATED && seen.pairs[1].proximity.distance == 1.0);

    /* Bad input: a status and a message. */
    CHECK_STATUS(world, colSetPairTolerance(world, a, b, -1.0), COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(world), "tolerance") != NULL);
    CHECK_STATUS(world, colSetPairTolerance(world, a, b, NAN), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetPairTolerance(world, a, b, INFINITY), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetDefaultTolerance(world, -0.5), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetDefaultTolerance(world, NAN), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetPairTolerance(world, a, a, 1.0), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetPairTolerance(world, a, 0, 1.0), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colRemoveCollidable(world, c));
    CHECK_STATUS(world, colSetPairTolerance(world, b, c, 1.0), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(NULL, colSetPairTolerance(NULL, a, b, 1.0), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetDefaultTolerance(NULL, 1.0), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(NULL, colSetToleranceCallback(NULL, NULL, NULL), COL_ERR_NULL_ARGUMENT);

    CHECK_OK(world, colExit(world));
    printf("tolerance: ok\n");
    return 0;
}
