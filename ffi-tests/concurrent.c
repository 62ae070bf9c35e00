/* colldet C API, C11: concurrent mode. colCheckBegin / colCheckEnd answer as colCheck (same
 * collisions, same order), with the callbacks on the thread that calls colCheckEnd; moves made
 * while the check runs count for the next check; every other call is refused meanwhile; wrong
 * call orders get a status; colExit waits for a running check (the sanitizers see no leak). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define OBJECTS 60
#define FRAMES 8
#define MOVES (OBJECTS / 3)
#define MAX_REPORTS 4096

typedef struct Report {
    uintptr_t a, b; /* client data: object index + 1 */
    uint32_t kind, feature_a, feature_b;
    float point[3];
} Report;

typedef struct Log {
    Report reports[MAX_REPORTS];
    int count;
    pthread_t thread; /* every callback must run on it */
    int wrong_thread;
} Log;

static void on_collision(const ColCollision *c, void *user) {
    Log *log = (Log *)user;
    Report *r;
    CHECK(log->count < MAX_REPORTS);
    r = &log->reports[log->count++];
    memset(r, 0, sizeof *r);
    r->a = (uintptr_t)c->client_data_a;
    r->b = (uintptr_t)c->client_data_b;
    r->kind = c->witness_kind;
    r->feature_a = c->feature_a;
    r->feature_b = c->feature_b;
    memcpy(r->point, c->point, sizeof r->point);
    log->wrong_thread += !pthread_equal(pthread_self(), log->thread);
}

/* A small deterministic generator (the same sequence for both worlds of a comparison). */
static uint64_t rng_state;

static float uniform(float lo, float hi) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (float)(rng_state >> 40) / (float)(1ULL << 24);
}

static void random_pose(float m[16]) {
    pose_matrix(m, uniform(0.0f, 6.2831853f), uniform(-3.0f, 3.0f), uniform(-3.0f, 3.0f),
                uniform(-3.0f, 3.0f));
}

typedef struct Move {
    int object;
    float m[16];
} Move;

static Move moves[FRAMES][MOVES];

static ColWorld *new_world(unsigned threads, ColObjectId *ids, Log *log) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    float m[16];
    int k, f;
    config.flags = threads == 1 ? 0 : COL_FLAG_PARALLEL;
    config.threads = threads;
    CHECK_OK(NULL, colInit(&config, &world));
    rng_state = 2026;
    for (k = 0; k < OBJECTS; ++k) {
        CHECK_OK(world, colMakeCollidable(world, &cube, (void *)(uintptr_t)(k + 1), &ids[k]));
        random_pose(m);
        CHECK_OK(world, colSetTransform(world, ids[k], m));
    }
    for (f = 0; f < FRAMES; ++f) {
        for (k = 0; k < MOVES; ++k) {
            moves[f][k].object = (int)(uniform(0.0f, (float)OBJECTS)) % OBJECTS;
            random_pose(moves[f][k].m);
        }
    }
    memset(log, 0, sizeof *log);
    log->thread = pthread_self();
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, log));
    CHECK_OK(world, colStart(world));
    return world;
}

static void apply_moves(ColWorld *world, const ColObjectId *ids, int frame) {
    int k;
    for (k = 0; k < MOVES; ++k) {
        CHECK_OK(world, colSetTransform(world, ids[moves[frame][k].object], moves[frame][k].m));
    }
}

static Log serial_log, concurrent_log;

/* colCheck after each frame's moves against begin / next frame's moves / end. */
static void begin_end_answers_as_colcheck(unsigned threads) {
    ColObjectId serial_ids[OBJECTS], ids[OBJECTS];
    ColWorld *serial = new_world(threads, serial_ids, &serial_log);
    ColWorld *world = new_world(threads, ids, &concurrent_log);
    int f;
    apply_moves(world, ids, 0);
    for (f = 0; f < FRAMES; ++f) {
        apply_moves(serial, serial_ids, f);
        CHECK_OK(serial, colCheck(serial));
        CHECK_OK(world, colCheckBegin(world));
        if (f + 1 < FRAMES) {
            apply_moves(world, ids, f + 1);
        }
        CHECK_OK(world, colCheckEnd(world));
        CHECK(concurrent_log.count == serial_log.count);
    }
    CHECK(serial_log.count > 20);
    CHECK(memcmp(serial_log.reports, concurrent_log.reports,
                 (size_t)serial_log.count * sizeof(Report)) == 0);
    CHECK(concurrent_log.wrong_thread == 0);
    CHECK_OK(serial, colExit(serial));
    CHECK_OK(world, colExit(world));
}

/* Two cubes 5 apart; the second moves onto the first during a check: that check keeps the old
 * pose, the next one reports the pair. */
static void a_move_during_the_check_counts_for_the_next(void) {
    ColObjectId id[2];
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    float m[16];
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[0]));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[1]));
    translation(m, 5.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[1], m));
    memset(&concurrent_log, 0, sizeof concurrent_log);
    concurrent_log.thread = pthread_self();
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, &concurrent_log));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheckBegin(world));
    translation(m, 0.5f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheckEnd(world));
    CHECK(concurrent_log.count == 0);
    CHECK_OK(world, colCheck(world));
    CHECK(concurrent_log.count == 1);
    CHECK_OK(world, colExit(world));
}

/* While a check runs, every call but moves, colCheckEnd and colExit is refused. */
static void calls_during_a_check_are_refused(void) {
    ColObjectId id[2], made = 0;
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    ColObjectInfo info;
    float m[16];
    config.flags = 0;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[0]));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[1]));
    CHECK_STATUS(world, colCheckEnd(world), COL_ERR_WRONG_STATE);
    CHECK_STATUS(world, colCheckBegin(world), COL_ERR_WRONG_STATE); /* before colStart */
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheckBegin(world));
    CHECK_STATUS(world, colCheck(world), COL_ERR_WORLD_LOCKED);
    CHECK(strstr(colLastError(world), "concurrent check") != NULL);
    CHECK_STATUS(world, colCheckBegin(world), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colMakeCollidable(world, &cube, NULL, &made), COL_ERR_WORLD_LOCKED);
    CHECK(made == 0);
    CHECK_STATUS(world, colRemoveCollidable(world, id[0]), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colSetInterest(world, id[0], id[1], 0), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colSetCallback(world, id[0], id[1], NULL, NULL), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colSetGeneralCallback(world, NULL, NULL), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colGetObjectInfo(world, id[0], &info), COL_ERR_WORLD_LOCKED);
    CHECK_STATUS(world, colStart(world), COL_ERR_WORLD_LOCKED);
    translation(m, 0.25f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[0], m));
    m[0] = 2.0f; /* a scale: refused as always */
    CHECK_STATUS(world, colSetTransform(world, id[0], m), COL_ERR_INVALID_ARGUMENT);
    CHECK_OK(world, colCheckEnd(world));
    CHECK_STATUS(world, colCheckEnd(world), COL_ERR_WRONG_STATE);
    CHECK_OK(world, colGetObjectInfo(world, id[0], &info));
    CHECK(info.vertex_count == 8);
    CHECK_OK(world, colExit(world));
}

static void *end_check(void *world) {
    concurrent_log.thread = pthread_self();
    CHECK_OK((ColWorld *)world, colCheckEnd((ColWorld *)world));
    return NULL;
}

/* colCheckEnd on another thread: the callbacks run there. */
static void callbacks_run_on_the_ending_thread(void) {
    ColObjectId id[2];
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    pthread_t ender;
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[0]));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &id[1]));
    memset(&concurrent_log, 0, sizeof concurrent_log);
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, &concurrent_log));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheckBegin(world));
    CHECK(pthread_create(&ender, NULL, end_check, world) == 0);
    CHECK(pthread_join(ender, NULL) == 0);
    CHECK(!pthread_equal(concurrent_log.thread, pthread_self()));
    CHECK(concurrent_log.count == 1);
    CHECK(concurrent_log.wrong_thread == 0);
    CHECK_OK(world, colExit(world));
}

/* colExit during a check waits for it and frees everything (LeakSanitizer checks at exit). */
static void colexit_during_a_check(unsigned threads) {
    ColObjectId ids[OBJECTS];
    ColWorld *world = new_world(threads, ids, &concurrent_log);
    CHECK_OK(world, colCheckBegin(world));
    CHECK_OK(world, colExit(world));
    CHECK(concurrent_log.count == 0);
}

int main(void) {
    begin_end_answers_as_colcheck(1);
    begin_end_answers_as_colcheck(2);
    a_move_during_the_check_counts_for_the_next();
    calls_during_a_check_are_refused();
    callbacks_run_on_the_ending_thread();
    colexit_during_a_check(1);
    colexit_during_a_check(2);
    printf("concurrent: ok\n");
    return 0;
}
