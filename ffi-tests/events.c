/* colldet C API, C11: contact events (COL_EVENT_BEGIN / PERSIST / END) over a scripted motion,
 * removal and interest mid-contact; collision groups against the interest matrix; bad handles
 * and NULL worlds answered with the right ColStatus and colLastError. */
#include <string.h>

#include "check.h"

typedef struct Event {
    int frame;
    uint32_t event;
    ColObjectId a, b;
    const char *data_a, *data_b;
} Event;

typedef struct EventLog {
    Event events[64];
    int count;
    int frame;
    int collisions;
    ColWorld *world;   /* when set, the callback tries a structural call */
    ColStatus locked;  /* what that call returned */
} EventLog;

static void on_event(const ColContactEvent *e, void *user) {
    EventLog *log = (EventLog *)user;
    Event *out;
    CHECK(log->count < 64);
    CHECK(e->collision.a < e->collision.b);
    out = &log->events[log->count++];
    out->frame = log->frame;
    out->event = e->event;
    out->a = e->collision.a;
    out->b = e->collision.b;
    out->data_a = (const char *)e->collision.client_data_a;
    out->data_b = (const char *)e->collision.client_data_b;
    if (log->world != NULL) {
        log->locked = colSetGroup(log->world, e->collision.a, 1, 1);
    }
}

static void on_collision(const ColCollision *c, void *user) {
    EventLog *log = (EventLog *)user;
    (void)c;
    /* Collision callbacks of a check run before its events. */
    CHECK(log->count == 0 || log->events[log->count - 1].frame < log->frame);
    ++log->collisions;
}

static ColWorld *new_world(unsigned flags) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    config.flags = flags;
    CHECK_OK(NULL, colInit(&config, &world));
    return world;
}

static void expect(const Event *e, int frame, uint32_t event, ColObjectId a, ColObjectId b,
                   const char *data_a, const char *data_b) {
    CHECK(e->frame == frame);
    CHECK(e->event == event);
    CHECK(e->a == a && e->b == b);
    CHECK(data_a == NULL ? e->data_a == NULL : strcmp(e->data_a, data_a) == 0);
    CHECK(data_b == NULL ? e->data_b == NULL : strcmp(e->data_b, data_b) == 0);
}

/* b slides along x from 3 to -3 by 0.5 a frame: it overlaps or touches a for |x| <= 1 (frames 4
 * to 8), so BEGIN at 4, PERSIST at 5 to 8, END at 9; the collision callbacks as before. */
static void scripted_motion(unsigned flags) {
    ColWorld *world = new_world(flags);
    ColMeshDesc cube = cube_desc();
    ColObjectId a, b;
    EventLog log;
    float m[16];
    int frame, i;

    memset(&log, 0, sizeof log);
    CHECK_OK(world, colMakeCollidable(world, &cube, "a", &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, "b", &b));
    CHECK_OK(world, colSetEventCallback(world, on_event, &log));
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, &log));
    CHECK_OK(world, colStart(world));
    for (frame = 0; frame <= 12; ++frame) {
        log.frame = frame;
        translation(m, 3.0f - 0.5f * (float)frame, 0.0f, 0.0f);
        CHECK_OK(world, colSetTransform(world, b, m));
        CHECK_OK(world, colCheck(world));
    }
    CHECK(log.collisions == 5);
    CHECK(log.count == 6);
    expect(&log.events[0], 4, COL_EVENT_BEGIN, a, b, "a", "b");
    for (i = 1; i <= 4; ++i) {
        expect(&log.events[i], 4 + i, COL_EVENT_PERSIST, a, b, "a", "b");
    }
    expect(&log.events[5], 9, COL_EVENT_END, a, b, "a", "b");

    /* NULL switches the events off. */
    CHECK_OK(world, colSetEventCallback(world, NULL, NULL));
    translation(m, 0.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 6);
    CHECK_OK(world, colExit(world));
}

/* Three cubes overlapping at the origin; resting contacts persist; removal of b ends (a, b) and
 * (b, c) at the next check with b's client data; interest off ends (a, c), on begins it again
 * without a move; structural calls inside the event callback are refused. */
static void removal_and_interest(unsigned flags) {
    ColWorld *world = new_world(flags);
    ColMeshDesc cube = cube_desc();
    ColObjectId a, b, c;
    EventLog log;

    memset(&log, 0, sizeof log);
    CHECK_OK(world, colMakeCollidable(world, &cube, "a", &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, "b", &b));
    CHECK_OK(world, colMakeCollidable(world, &cube, "c", &c));
    CHECK_OK(world, colSetEventCallback(world, on_event, &log));
    CHECK_OK(world, colStart(world));
    log.frame = 0;
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 3);
    expect(&log.events[0], 0, COL_EVENT_BEGIN, a, b, "a", "b");
    expect(&log.events[1], 0, COL_EVENT_BEGIN, a, c, "a", "c");
    expect(&log.events[2], 0, COL_EVENT_BEGIN, b, c, "b", "c");
    log.frame = 1;
    log.world = world;
    CHECK_OK(world, colCheck(world)); /* nothing moved: three PERSIST */
    CHECK(log.count == 6);
    CHECK(log.locked == COL_ERR_WORLD_LOCKED);
    log.world = NULL;
    expect(&log.events[3], 1, COL_EVENT_PERSIST, a, b, "a", "b");

    CHECK_OK(world, colRemoveCollidable(world, b));
    log.frame = 2;
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 9);
    expect(&log.events[6], 2, COL_EVENT_END, a, b, "a", "b");
    expect(&log.events[7], 2, COL_EVENT_PERSIST, a, c, "a", "c");
    expect(&log.events[8], 2, COL_EVENT_END, b, c, "b", "c");

    CHECK_OK(world, colSetInterest(world, a, c, 0));
    log.frame = 3;
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 10);
    expect(&log.events[9], 3, COL_EVENT_END, a, c, "a", "c");
    log.frame = 4;
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 10);
    CHECK_OK(world, colSetInterest(world, a, c, 1));
    log.frame = 5;
    CHECK_OK(world, colCheck(world));
    CHECK(log.count == 11);
    expect(&log.events[10], 5, COL_EVENT_BEGIN, a, c, "a", "c");
    CHECK_OK(world, colExit(world));
}

/* Four cubes overlapping at the origin. Groups (group, mask): a (1, 2), b (2, 1), c (1, 2), d
 * default (all bits). Admitted: (a,b), (a,d), (b,c), (b,d), (c,d), not (a,c) (1 & 2 == 0);
 * interest off for (b,d) leaves four pairs. Then c becomes (1, 1): (b,c) ends (b's group 2 is
 * not in c's mask 1), (a,c) stays excluded (c's group 1 is not in a's mask 2). */
static int pair_seen(const EventLog *log, int from, uint32_t event, ColObjectId a,
                     ColObjectId b) {
    int i, n = 0;
    for (i = from; i < log->count; ++i) {
        n += log->events[i].event == event && log->events[i].a == a && log->events[i].b == b;
    }
    return n;
}

static void groups_and_interest(unsigned flags) {
    ColWorld *world = new_world(flags);
    ColMeshDesc cube = cube_desc();
    ColObjectId a, b, c, d;
    EventLog log;
    uint32_t group = 0, mask = 0;

    memset(&log, 0, sizeof log);
    CHECK_OK(world, colMakeCollidable(world, &cube, "a", &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, "b", &b));
    CHECK_OK(world, colMakeCollidable(world, &cube, "c", &c));
    CHECK_OK(world, colMakeCollidable(world, &cube, "d", &d));
    CHECK_OK(world, colGetGroup(world, d, &group, &mask));
    CHECK(group == COL_ALL_GROUPS && mask == COL_ALL_GROUPS);
    CHECK_OK(world, colSetGroup(world, a, 1, 2));
    CHECK_OK(world, colSetGroup(world, b, 2, 1));
    CHECK_OK(world, colSetGroup(world, c, 1, 2));
    CHECK_OK(world, colSetInterest(world, b, d, 0));
    CHECK_OK(world, colSetEventCallback(world, on_event, &log));
    CHECK_OK(world, colSetGeneralCallback(world, on_collision, &log));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(log.collisions == 4 && log.count == 4);
    CHECK(pair_seen(&log, 0, COL_EVENT_BEGIN, a, b) == 1);
    CHECK(pair_seen(&log, 0, COL_EVENT_BEGIN, a, d) == 1);
    CHECK(pair_seen(&log, 0, COL_EVENT_BEGIN, b, c) == 1);
    CHECK(pair_seen(&log, 0, COL_EVENT_BEGIN, c, d) == 1);

    CHECK_OK(world, colSetGroup(world, c, 1, 1));
    CHECK_OK(world, colGetGroup(world, c, &group, &mask));
    CHECK(group == 1 && mask == 1);
    log.frame = 1;
    CHECK_OK(world, colCheck(world));
    CHECK(log.collisions == 4); /* a group change is not a move */
    CHECK(log.count == 8);
    CHECK(pair_seen(&log, 4, COL_EVENT_PERSIST, a, b) == 1);
    CHECK(pair_seen(&log, 4, COL_EVENT_PERSIST, a, d) == 1);
    CHECK(pair_seen(&log, 4, COL_EVENT_END, b, c) == 1);
    /* (a,c): no event; (c,d) persists. */
    CHECK(pair_seen(&log, 4, COL_EVENT_PERSIST, c, d) == 1);
    CHECK_OK(world, colExit(world));
}

static void bad_input(void) {
    ColWorld *world = new_world(0);
    ColMeshDesc cube = cube_desc();
    ColObjectId a;
    uint32_t group = 7, mask = 7;

    CHECK_STATUS(NULL, colSetEventCallback(NULL, on_event, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK(strstr(colLastError(NULL), "colSetEventCallback") != NULL);
    CHECK_STATUS(NULL, colSetGroup(NULL, 1, 1, 1), COL_ERR_NULL_ARGUMENT);
    CHECK(strstr(colLastError(NULL), "colSetGroup") != NULL);
    CHECK_STATUS(NULL, colGetGroup(NULL, 1, &group, &mask), COL_ERR_NULL_ARGUMENT);

    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_STATUS(world, colSetGroup(world, 0, 1, 1), COL_ERR_INVALID_HANDLE);
    CHECK(strlen(colLastError(world)) > 0);
    CHECK_STATUS(world, colGetGroup(world, a, NULL, &mask), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colGetGroup(world, a, &group, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK(group == 7 && mask == 7); /* outputs written on success only */
    CHECK_OK(world, colRemoveCollidable(world, a));
    CHECK_STATUS(world, colSetGroup(world, a, 1, 1), COL_ERR_INVALID_HANDLE);
    CHECK(strlen(colLastError(world)) > 0);
    CHECK_STATUS(world, colGetGroup(world, a, &group, &mask), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colExit(world));
}

int main(void) {
    unsigned flags[2] = {0, COL_FLAG_PARALLEL};
    int i;
    for (i = 0; i < 2; ++i) {
        scripted_motion(flags[i]);
        removal_and_interest(flags[i]);
        groups_and_interest(flags[i]);
    }
    bad_input();
    printf("events: ok\n");
    return 0;
}
