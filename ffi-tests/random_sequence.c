/* Randomized C API sequences (issue 21): the same random calls on six mirror worlds (every
 * broad phase, serial and parallel) checked against a shadow model after every step:
 * - every call on a live object returns COL_OK, on a removed (stale) id COL_ERR_INVALID_HANDLE,
 *   with a NaN matrix COL_ERR_INVALID_ARGUMENT and a message, and the world stays usable;
 * - every reported pair is between live objects whose interest is on, and at least one of them
 *   moved (or was added) since the previous check;
 * - all six worlds report exactly the same pairs.
 * Seeds and step counts are fixed; it also runs under AddressSanitizer and UBSan. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define WORLDS 6
#define MAX_OBJECTS 48
#define STEPS 4000
#define MAX_PAIRS (MAX_OBJECTS * MAX_OBJECTS)

typedef struct {
    int a, b; /* shadow indices, a < b */
} Pair;

typedef struct {
    Pair pairs[MAX_PAIRS];
    int count;
} Log;

static uint64_t rng_state = 0x5EED5EEDULL;

static uint64_t next_u64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(int n) { return (int)(next_u64() % (uint64_t)n); }

static float uniform(float lo, float hi) {
    return lo + (hi - lo) * (float)((next_u64() >> 40) / (double)(1ULL << 24));
}

/* Shadow model. */
static ColObjectId ids[WORLDS][MAX_OBJECTS];
static int alive[MAX_OBJECTS];
static int moved[MAX_OBJECTS];
static int interested[MAX_OBJECTS][MAX_OBJECTS];
static ColObjectId stale[WORLDS][64];
static int stale_count;

static void on_collision(const ColCollision *c, void *user) {
    Log *log = (Log *)user;
    int a = (int)((intptr_t)c->client_data_a - 1);
    int b = (int)((intptr_t)c->client_data_b - 1);
    CHECK(a >= 0 && a < MAX_OBJECTS && b >= 0 && b < MAX_OBJECTS && a != b);
    CHECK(log->count < MAX_PAIRS);
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    log->pairs[log->count].a = a;
    log->pairs[log->count].b = b;
    log->count++;
}

static int pair_order(const void *x, const void *y) {
    const Pair *p = (const Pair *)x, *q = (const Pair *)y;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    return p->b < q->b ? -1 : (p->b > q->b);
}

static ColWorld *make_world(int k, Log *log) {
    static const ColBroadPhase phases[WORLDS] = {
        COL_BROADPHASE_SAP,  COL_BROADPHASE_GRID, COL_BROADPHASE_OCTREE,
        COL_BROADPHASE_TREE, COL_BROADPHASE_NONE, COL_BROADPHASE_SAP,
    };
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    int i;
    config.broadphase = phases[k];
    config.flags = (k % 2 == 1) ? COL_FLAG_PARALLEL : 0;
    config.threads = 2;
    for (i = 0; i < 3; ++i) {
        config.universe_min[i] = -8.0;
        config.universe_max[i] = 8.0;
    }
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, log));
    CHECK_OK(world, colStart(world));
    return world;
}

static int random_live(void) {
    int tries, k;
    for (tries = 0; tries < 4 * MAX_OBJECTS; ++tries) {
        k = below(MAX_OBJECTS);
        if (alive[k]) {
            return k;
        }
    }
    return -1;
}

int main(void) {
    ColWorld *worlds[WORLDS];
    static Log logs[WORLDS];
    ColMeshDesc cube = cube_desc();
    int w, step, checks = 0, reported = 0;
    for (w = 0; w < WORLDS; ++w) {
        worlds[w] = make_world(w, &logs[w]);
    }
    for (step = 0; step < STEPS; ++step) {
        int op = below(100);
        if (op < 12) { /* add */
            int k;
            for (k = 0; k < MAX_OBJECTS && alive[k]; ++k) {
            }
            if (k == MAX_OBJECTS) {
                continue;
            }
            for (w = 0; w < WORLDS; ++w) {
                ids[w][k] = 0;
                CHECK_OK(worlds[w], colMakeCollidable(worlds[w], &cube, (void *)(intptr_t)(k + 1),
                                                      &ids[w][k]));
                CHECK(ids[w][k] != 0);
            }
            alive[k] = 1;
            moved[k] = 1;
            for (w = 0; w < MAX_OBJECTS; ++w) {
                interested[k][w] = interested[w][k] = 1;
            }
        } else if (op < 18) { /* remove */
            int k = random_live();
            if (k < 0) {
                continue;
            }
            for (w = 0; w < WORLDS; ++w) {
                CHECK_OK(worlds[w], colRemoveCollidable(worlds[w], ids[w][k]));
                stale[w][stale_count % 64] = ids[w][k];
            }
            stale_count++;
            alive[k] = 0;
        } else if (op < 22) { /* a stale id */
            float m[16];
            if (stale_count == 0) {
                continue;
            }
            translation(m, 0.0f, 0.0f, 0.0f);
            for (w = 0; w < WORLDS; ++w) {
                ColObjectId id = stale[w][below(stale_count < 64 ? stale_count : 64)];
                CHECK_STATUS(worlds[w], colSetTransform(worlds[w], id, m), COL_ERR_INVALID_HANDLE);
                CHECK(strlen(colLastError(worlds[w])) > 0);
                CHECK_STATUS(worlds[w], colRemoveCollidable(worlds[w], id),
                             COL_ERR_INVALID_HANDLE);
            }
        } else if (op < 25) { /* a NaN matrix */
            float m[16];
            int k = random_live();
            if (k < 0) {
                continue;
            }
            translation(m, NAN, 0.0f, 0.0f);
            for (w = 0; w < WORLDS; ++w) {
                CHECK_STATUS(worlds[w], colSetTransform(worlds[w], ids[w][k], m),
                             COL_ERR_INVALID_ARGUMENT);
                CHECK(strlen(colLastError(worlds[w])) > 0);
            }
        } else if (op < 70) { /* move */
            float m[16];
            int k = random_live();
            if (k < 0) {
                continue;
            }
            pose_matrix(m, uniform(-3.0f, 3.0f), uniform(-3.0f, 3.0f), uniform(-3.0f, 3.0f),
                        uniform(-3.0f, 3.0f));
            for (w = 0; w < WORLDS; ++w) {
                CHECK_OK(worlds[w], colSetTransform(worlds[w], ids[w][k], m));
            }
            moved[k] = 1;
        } else if (op < 80) { /* interest */
            int a = random_live(), b = random_live(), on = below(2);
            if (a < 0 || b < 0) {
                continue;
            }
            for (w = 0; w < WORLDS; ++w) {
                CHECK_STATUS(worlds[w], colSetInterest(worlds[w], ids[w][a], ids[w][b], on),
                             a == b ? COL_ERR_INVALID_ARGUMENT : COL_OK);
            }
            if (a != b) {
                interested[a][b] = interested[b][a] = on;
            }
        } else { /* check */
            int i, k;
            for (w = 0; w < WORLDS; ++w) {
                logs[w].count = 0;
                CHECK_OK(worlds[w], colCheck(worlds[w]));
                qsort(logs[w].pairs, (size_t)logs[w].count, sizeof(Pair), pair_order);
            }
            for (i = 0; i < logs[0].count; ++i) {
                Pair p = logs[0].pairs[i];
                CHECK(alive[p.a] && alive[p.b] && interested[p.a][p.b]);
                CHECK(moved[p.a] || moved[p.b]);
                CHECK(i == 0 || pair_order(&logs[0].pairs[i - 1], &p) < 0);
            }
            for (w = 1; w < WORLDS; ++w) {
                CHECK(logs[w].count == logs[0].count);
                CHECK(memcmp(logs[w].pairs, logs[0].pairs, sizeof(Pair) * (size_t)logs[0].count) ==
                      0);
            }
            for (k = 0; k < MAX_OBJECTS; ++k) {
                moved[k] = 0;
            }
            checks++;
            reported += logs[0].count;
        }
    }
    for (w = 0; w < WORLDS; ++w) {
        CHECK_OK(worlds[w], colExit(worlds[w]));
    }
    CHECK(checks > 100 && reported > 100);
    printf("random_sequence: %d steps, %d checks, %d pairs reported, 6 worlds agree: ok\n", STEPS,
           checks, reported);
    return 0;
}
