/* colldet C API, C11: the interest matrix, per-pair versus general callbacks, callbacks that
 * move objects, and structural calls refused inside callbacks. */
#include <string.h>

#include "check.h"

typedef struct Call {
    char which; /* 'p' per-pair callback, 'g' general callback */
    ColObjectId a, b;
} Call;

typedef struct Log {
    Call calls[32];
    int count;
} Log;

static Log pair_log, general_log;

static void log_call(Log *log, char which, const ColCollision *c) {
    CHECK(log->count < 32);
    log->calls[log->count].which = which;
    log->calls[log->count].a = c->a;
    log->calls[log->count].b = c->b;
    ++log->count;
}

static void on_pair(const ColCollision *c, void *user) {
    CHECK(user == &pair_log);
    log_call(&pair_log, 'p', c);
}

static void on_general(const ColCollision *c, void *user) {
    CHECK(user == &general_log);
    log_call(&general_log, 'g', c);
}

static int called(const Log *log, ColObjectId a, ColObjectId b) {
    int i, n = 0;
    for (i = 0; i < log->count; ++i) {
        n += log->calls[i].a == a && log->calls[i].b == b;
    }
    return n;
}

static ColWorld *new_world(ColObjectId *ids, int n) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    int i;
    config.flags = 0; /* serial here; lifecycle.c covers parallel */
    CHECK_OK(NULL, colInit(&config, &world));
    for (i = 0; i < n; ++i) {
        CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &ids[i]));
    }
    return world;
}

/* Three cubes all overlapping at the origin: pairs (0,1), (0,2), (1,2). */
static void interest_and_callbacks(void) {
    ColObjectId id[3];
    ColWorld *world = new_world(id, 3);
    float m[16];

    memset(&pair_log, 0, sizeof pair_log);
    memset(&general_log, 0, sizeof general_log);
    CHECK_OK(world, colSetCallback(world, id[0], id[1], on_pair, &pair_log));
    CHECK_OK(world, colSetGeneralCallback(world, on_general, &general_log));
    CHECK_OK(world, colSetInterest(world, id[2], id[0], 0)); /* either order names the pair */
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(pair_log.count == 1 && called(&pair_log, id[0], id[1]) == 1);
    CHECK(general_log.count == 1 && called(&general_log, id[1], id[2]) == 1);

    /* Nothing moved: nothing new. */
    CHECK_OK(world, colCheck(world));
    CHECK(pair_log.count == 1 && general_log.count == 1);

    /* Interest back on, move object 2: (0,2) then (1,2), both general, in id order. */
    CHECK_OK(world, colSetInterest(world, id[0], id[2], 1));
    translation(m, 0.1f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[2], m));
    CHECK_OK(world, colCheck(world));
    CHECK(pair_log.count == 1 && general_log.count == 3);
    CHECK(general_log.calls[1].a == id[0] && general_log.calls[1].b == id[2]);
    CHECK(general_log.calls[2].a == id[1] && general_log.calls[2].b == id[2]);

    /* A NULL per-pair callback hands (0,1) back to the general one; no general callback means
     * nothing is reported. */
    CHECK_OK(world, colSetCallback(world, id[1], id[0], NULL, NULL));
    CHECK_OK(world, colSetTransform(world, id[0], m));
    CHECK_OK(world, colCheck(world));
    CHECK(pair_log.count == 1 && general_log.count == 5);
    CHECK(general_log.calls[3].a == id[0] && general_log.calls[3].b == id[1]);
    CHECK_OK(world, colSetGeneralCallback(world, NULL, NULL));
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheck(world));
    CHECK(pair_log.count == 1 && general_log.count == 5);

    /* Interest off for every pair of object 1, removal drops its settings. */
    CHECK_OK(world, colSetGeneralCallback(world, on_general, &general_log));
    CHECK_OK(world, colSetInterest(world, id[0], id[1], 0));
    CHECK_OK(world, colSetInterest(world, id[1], id[2], 0));
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheck(world));
    CHECK(general_log.count == 5);
    CHECK_OK(world, colExit(world));
}

/* A callback that moves b away from a: the collision is reported once, the move counts for the
 * next check (no collision), and moving it back from outside reports it again. */
typedef struct Mover {
    ColWorld *world;
    ColObjectId target;
    int calls;
    ColStatus status;
} Mover;

static void move_away(const ColCollision *c, void *user) {
    Mover *mover = (Mover *)user;
    float m[16];
    ColObjectInfo info;
    (void)c;
    ++mover->calls;
    translation(m, 10.0f, 0.0f, 0.0f);
    mover->status = colSetTransform(mover->world, mover->target, m);
    CHECK(mover->status == COL_OK);
    CHECK(colGetObjectInfo(mover->world, mover->target, &info) == COL_OK && info.face_count == 6);
    /* Bad moves are still refused inside callbacks. */
    m[0] = 3.0f;
    CHECK(colSetTransform(mover->world, mover->target, m) == COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(mover->world), "scale") != NULL);
    CHECK(colSetTransform(mover->world, 0, m) == COL_ERR_INVALID_HANDLE);
}

static void callback_moves_object(void) {
    ColObjectId id[2];
    ColWorld *world = new_world(id, 2);
    Mover mover;
    float m[16];

    mover.world = world;
    mover.target = id[1];
    mover.calls = 0;
    mover.status = -1;
    CHECK_OK(world, colSetCallback(world, id[0], id[1], move_away, &mover));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(mover.calls == 1 && mover.status == COL_OK);
    CHECK_OK(world, colCheck(world));
    CHECK(mover.calls == 1);
    translation(m, 0.9f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheck(world));
    CHECK(mover.calls == 2);
    CHECK_OK(world, colCheck(world));
    CHECK(mover.calls == 2);
    CHECK_OK(world, colExit(world));
}

/* Every structural call from inside a callback returns COL_ERR_WORLD_LOCKED and changes
 * nothing; afterwards the world works as before. */
typedef struct Locked {
    ColWorld *world;
    ColObjectId a, b;
    int calls;
} Locked;

static void try_structural(const ColCollision *c, void *user) {
    Locked *l = (Locked *)user;
    ColWorld *w = l->world;
    ColMeshDesc cube = cube_desc();
    ColObjectId id = 5;
    (void)c;
    ++l->calls;
    CHECK(colMakeCollidable(w, &cube, NULL, &id) == COL_ERR_WORLD_LOCKED);
    CHECK(strcmp(colLastError(w),
                 "colMakeCollidable cannot be called from inside a collision callback") == 0);
    CHECK(colRemoveCollidable(w, l->b) == COL_ERR_WORLD_LOCKED);
    CHECK(colStart(w) == COL_ERR_WORLD_LOCKED);
    CHECK(colCheck(w) == COL_ERR_WORLD_LOCKED);
    CHECK(colSetInterest(w, l->a, l->b, 0) == COL_ERR_WORLD_LOCKED);
    CHECK(colSetCallback(w, l->a, l->b, NULL, NULL) == COL_ERR_WORLD_LOCKED);
    CHECK(colSetGeneralCallback(w, NULL, NULL) == COL_ERR_WORLD_LOCKED);
    CHECK(colExit(w) == COL_ERR_WORLD_LOCKED);
    CHECK(strstr(colLastError(w), "colExit") != NULL);
}

static void structural_calls_locked(void) {
    ColObjectId id[2];
    ColWorld *world = new_world(id, 2);
    ColObjectInfo info;
    Locked locked;
    float m[16];

    locked.world = world;
    locked.a = id[0];
    locked.b = id[1];
    locked.calls = 0;
    CHECK_OK(world, colSetCallback(world, id[0], id[1], try_structural, &locked));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(locked.calls == 1);
    /* Nothing changed: both objects live, the pair still interested, same callback. */
    CHECK_OK(world, colGetObjectInfo(world, id[1], &info));
    translation(m, 0.3f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheck(world));
    CHECK(locked.calls == 2);
    /* And structural calls work again outside callbacks. */
    CHECK_OK(world, colSetInterest(world, id[0], id[1], 0));
    CHECK_OK(world, colSetTransform(world, id[1], m));
    CHECK_OK(world, colCheck(world));
    CHECK(locked.calls == 2);
    CHECK_OK(world, colRemoveCollidable(world, id[1]));
    CHECK_OK(world, colExit(world));
}

int main(void) {
    interest_and_callbacks();
    callback_moves_object();
    structural_calls_locked();
    printf("callbacks: ok\n");
    return 0;
}
