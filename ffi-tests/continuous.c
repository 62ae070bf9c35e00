/* colldet C API, C11: continuous collision. A fast cube through a thin wall (missed by colCheck,
 * reported once by colCheckContinuous), colTrace / colTraced, bad input, swept callbacks that
 * move objects or try structural calls, and the expel distance. */
#include <string.h>

#include "check.h"

/* A thin wall: x in [-0.05, 0.05], y and z in [-2, 2], faces ordered as the cube's (face 4 is
 * the -x face). */
static const float WALL_VERTICES[24] = {
    -0.05f, -2.0f, -2.0f, 0.05f, -2.0f, -2.0f, 0.05f, 2.0f, -2.0f, -0.05f, 2.0f, -2.0f,
    -0.05f, -2.0f, 2.0f,  0.05f, -2.0f, 2.0f,  0.05f, 2.0f, 2.0f,  -0.05f, 2.0f, 2.0f,
};
#define WALL_MINUS_X_FACE 4u

static ColMeshDesc wall_desc(void) {
    ColMeshDesc d = cube_desc();
    d.vertices = WALL_VERTICES;
    return d;
}

/* The cube's vertices on its +x face (x = +0.5): the ones that hit a wall on its -x side. */
static int cube_plus_x_vertex(uint32_t v) {
    return v == 1 || v == 2 || v == 5 || v == 6;
}

/* The fraction at which the cube's +x face (at `from_x + 0.5`), moving by `dx`, reaches the
 * wall's -x face when the wall sits at `wall_x`: computed from the same floats colldet gets. */
static double expected_fraction(float from_x, float dx, float wall_x) {
    double wall_face = (double)wall_x + (double)WALL_VERTICES[0];
    return (wall_face - ((double)from_x + 0.5)) / (double)dx;
}

static ColWorld *serial_world(void) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    config.flags = 0;
    CHECK_OK(NULL, colInit(&config, &world));
    return world;
}

/* Adds the cube (first: the smaller id) at x = `cube_x` and a wall at x = `wall_x`. */
static void cube_and_wall(ColWorld *world, float cube_x, float wall_x, ColObjectId *cube,
                          ColObjectId *wall) {
    ColMeshDesc c = cube_desc(), w = wall_desc();
    float m[16];
    CHECK_OK(world, colMakeCollidable(world, &c, (void *)&CUBE_VERTICES, cube));
    CHECK_OK(world, colMakeCollidable(world, &w, (void *)&WALL_VERTICES, wall));
    translation(m, cube_x, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, *cube, m));
    translation(m, wall_x, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, *wall, m));
}

typedef struct SweptLog {
    ColSweptCollision calls[8];
    int count;
} SweptLog;

static void log_swept(const ColSweptCollision *c, void *user) {
    SweptLog *log = (SweptLog *)user;
    CHECK(log->count < 8);
    log->calls[log->count++] = *c;
}

static int discrete_calls;

static void count_discrete(const ColCollision *c, void *user) {
    (void)c;
    (void)user;
    ++discrete_calls;
}

/* The cube jumps from x = -3 to x = +3 through the wall at x = 0 between two checks. */
static void fast_cube_through_thin_wall(void) {
    ColObjectId cube, wall;
    ColWorld *discrete = serial_world(), *world = serial_world();
    SweptLog log;
    const ColSweptCollision *c;
    float m[16];

    /* colCheck sees the cube before and after the wall, never in it. */
    discrete_calls = 0;
    cube_and_wall(discrete, -3.0f, 0.0f, &cube, &wall);
    CHECK_OK(discrete, colSetGeneralCallback(discrete, count_discrete, NULL));
    CHECK_OK(discrete, colStart(discrete));
    CHECK_OK(discrete, colCheck(discrete));
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(discrete, colSetTransform(discrete, cube, m));
    CHECK_OK(discrete, colCheck(discrete));
    CHECK(discrete_calls == 0);
    CHECK_OK(discrete, colExit(discrete));

    /* colCheckContinuous reports the crossing once, to the swept callback only. */
    memset(&log, 0, sizeof log);
    cube_and_wall(world, -3.0f, 0.0f, &cube, &wall);
    CHECK(cube < wall);
    CHECK_STATUS(world, colCheckContinuous(world), COL_ERR_WRONG_STATE);
    CHECK_OK(world, colSetGeneralCallback(world, count_discrete, NULL));
    CHECK_OK(world, colSetGeneralSweptCallback(world, log_swept, &log));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(log.count == 0);
    CHECK_OK(world, colSetTransform(world, cube, m));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(log.count == 1);
    c = &log.calls[0];
    CHECK(c->a == cube && c->b == wall);
    CHECK(c->client_data_a == (void *)&CUBE_VERTICES && c->client_data_b == (void *)&WALL_VERTICES);
    CHECK(fabs(c->fraction - expected_fraction(-3.0f, 6.0f, 0.0f)) <= 1e-9);
    CHECK(c->fraction <= c->fraction_hi && c->fraction_hi - c->fraction <= 1e-9);
    CHECK(c->contact_kind == COL_CONTACT_VERTEX_FACE);
    CHECK(cube_plus_x_vertex(c->feature_a));
    CHECK(c->feature_b == WALL_MINUS_X_FACE);
    /* From the wall (b) towards the cube (a). */
    CHECK(fabs(c->normal[0] + 1.0) <= 1e-9 && fabs(c->normal[1]) <= 1e-9 &&
          fabs(c->normal[2]) <= 1e-9);
    CHECK(fabs(c->point[0] - (double)WALL_VERTICES[0]) <= 1e-9);
    CHECK(fabs(c->point[1]) <= 0.5 + 1e-9 && fabs(c->point[2]) <= 0.5 + 1e-9);
    CHECK(discrete_calls == 0);

    /* Nothing moved: nothing new. */
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(log.count == 1);
    CHECK_OK(world, colExit(world));
}

/* colTrace against two walls: the nearer one is hit, whatever the ids; the world is unchanged. */
static void trace_hits_the_nearest_wall(void) {
    ColWorld *world = serial_world();
    ColMeshDesc c = cube_desc(), w = wall_desc();
    ColObjectId cube, far_wall, near_wall;
    ColTrace t, again;
    float m[16];
    double md[16];
    int i;

    /* The far wall first: it has the smaller id. */
    CHECK_OK(world, colMakeCollidable(world, &w, NULL, &far_wall));
    CHECK_OK(world, colMakeCollidable(world, &w, NULL, &near_wall));
    CHECK_OK(world, colMakeCollidable(world, &c, NULL, &cube));
    translation(m, 2.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, far_wall, m));
    translation(m, 0.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, near_wall, m));
    translation(m, -3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));

    translation(m, 5.0f, 0.0f, 0.0f);
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == near_wall);
    CHECK(fabs(t.fraction - expected_fraction(-3.0f, 8.0f, 0.0f)) <= 1e-9);
    CHECK(t.fraction <= t.fraction_hi && t.fraction_hi - t.fraction <= 1e-9);
    CHECK(t.contact_kind == COL_CONTACT_VERTEX_FACE);
    CHECK(cube_plus_x_vertex(t.feature_moving) && t.feature_hit == WALL_MINUS_X_FACE);
    CHECK(fabs(t.normal[0] + 1.0) <= 1e-9 && fabs(t.normal[1]) <= 1e-9 &&
          fabs(t.normal[2]) <= 1e-9);

    /* Tracing moved nothing: the same trace again, in double precision, gives the same. */
    for (i = 0; i < 16; ++i) {
        md[i] = (double)m[i];
    }
    CHECK_OK(world, colTraced(world, cube, md, &again));
    CHECK(memcmp(&t, &again, sizeof t) == 0);

    /* With the near wall out of the cube's interest, the far wall is hit. */
    CHECK_OK(world, colSetInterest(world, cube, near_wall, 0));
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == far_wall);
    CHECK(fabs(t.fraction - expected_fraction(-3.0f, 8.0f, 2.0f)) <= 1e-9);
    CHECK_OK(world, colSetInterest(world, cube, near_wall, 1));

    /* Away from both walls: nothing hit, fraction 1. */
    translation(m, -8.0f, 0.0f, 0.0f);
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == 0 && t.fraction == 1.0 && t.fraction_hi == 1.0);
    CHECK(t.contact_kind == COL_CONTACT_NONE);
    CHECK(t.feature_moving == COL_NO_FEATURE && t.feature_hit == COL_NO_FEATURE);

    /* Starting in contact: fraction 0, no features, zero normal. */
    translation(m, 0.3f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));
    translation(m, 0.3f, 1.0f, 0.0f);
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == near_wall && t.fraction == 0.0 && t.fraction_hi == 0.0);
    CHECK(t.contact_kind == COL_CONTACT_NONE);
    CHECK(t.feature_moving == COL_NO_FEATURE && t.feature_hit == COL_NO_FEATURE);
    CHECK(t.normal[0] == 0.0 && t.normal[1] == 0.0 && t.normal[2] == 0.0);

    /* Works after colStart too. */
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == near_wall && t.fraction == 0.0);
    CHECK_OK(world, colExit(world));
}

/* Bad end matrices, NULL pointers and stale ids: a status and a message, *out says no hit. */
static void trace_errors(void) {
    ColWorld *world = serial_world();
    ColObjectId cube, wall, gone;
    ColMeshDesc c = cube_desc();
    ColTrace t;
    double md[16];
    float m[16];
    int i;

    cube_and_wall(world, -3.0f, 0.0f, &cube, &wall);
    translation(m, 3.0f, 0.0f, 0.0f);
    for (i = 0; i < 16; ++i) {
        md[i] = (double)m[i];
    }

    md[0] = 2.0; /* a scale */
    t.hit = 99;
    CHECK_STATUS(world, colTraced(world, cube, md, &t), COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(world), "scale") != NULL);
    CHECK(t.hit == 0 && t.contact_kind == COL_CONTACT_NONE);
    md[0] = 1.0;
    md[13] = NAN;
    CHECK_STATUS(world, colTraced(world, cube, md, &t), COL_ERR_INVALID_ARGUMENT);
    CHECK(strlen(colLastError(world)) > 0);
    CHECK(strstr(colLastError(world), "NaN") != NULL || strstr(colLastError(world), "finite"));
    md[13] = 0.0;
    md[3] = 0.5; /* a projective bottom row */
    CHECK_STATUS(world, colTraced(world, cube, md, &t), COL_ERR_INVALID_ARGUMENT);
    md[3] = 0.0;
    m[0] = -1.0f; /* a mirror */
    CHECK_STATUS(world, colTrace(world, cube, m, &t), COL_ERR_INVALID_ARGUMENT);
    m[0] = 1.0f;

    CHECK_STATUS(world, colTraced(world, cube, NULL, &t), COL_ERR_NULL_ARGUMENT);
    CHECK(strstr(colLastError(world), "end_m") != NULL);
    CHECK_STATUS(world, colTraced(world, cube, md, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colTrace(world, cube, m, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK(colTrace(NULL, cube, m, &t) == COL_ERR_NULL_ARGUMENT);
    CHECK(strstr(colLastError(NULL), "colTrace") != NULL);
    CHECK(t.hit == 0);

    /* Stale and never-issued ids. */
    CHECK_OK(world, colMakeCollidable(world, &c, NULL, &gone));
    CHECK_OK(world, colRemoveCollidable(world, gone));
    CHECK_STATUS(world, colTrace(world, gone, m, &t), COL_ERR_INVALID_HANDLE);
    CHECK(strlen(colLastError(world)) > 0);
    CHECK_STATUS(world, colTraced(world, gone, md, &t), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colTrace(world, 0, m, &t), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colSetSweptCallback(world, cube, gone, log_swept, NULL),
                 COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colSetSweptCallback(world, cube, cube, log_swept, NULL),
                 COL_ERR_INVALID_ARGUMENT);

    /* The world still works. */
    CHECK_OK(world, colTrace(world, cube, m, &t));
    CHECK(t.hit == wall);
    CHECK_OK(world, colExit(world));
}

/* A swept callback that moves the cube back: allowed, and the move counts for the next check
 * (which sees the cube cross the wall again, the other way). */
typedef struct Mover {
    ColWorld *world;
    ColObjectId cube;
    int calls;
    ColSweptCollision last;
} Mover;

static void move_back(const ColSweptCollision *c, void *user) {
    Mover *mover = (Mover *)user;
    ColTrace t;
    float m[16];
    ++mover->calls;
    mover->last = *c;
    translation(m, -3.0f, 0.0f, 0.0f);
    CHECK(colSetTransform(mover->world, mover->cube, m) == COL_OK);
    /* Traces are reads: allowed too. */
    CHECK(colTrace(mover->world, mover->cube, m, &t) == COL_OK);
    m[0] = 3.0f;
    CHECK(colSetTransform(mover->world, mover->cube, m) == COL_ERR_INVALID_ARGUMENT);
}

static void swept_callback_moves_object(void) {
    ColWorld *world = serial_world();
    ColObjectId cube, wall;
    Mover mover;
    SweptLog general;
    float m[16];

    memset(&mover, 0, sizeof mover);
    memset(&general, 0, sizeof general);
    cube_and_wall(world, -3.0f, 0.0f, &cube, &wall);
    mover.world = world;
    mover.cube = cube;
    /* Either order names the pair; the pair's own callback replaces the general one. */
    CHECK_OK(world, colSetSweptCallback(world, wall, cube, move_back, &mover));
    CHECK_OK(world, colSetGeneralSweptCallback(world, log_swept, &general));
    CHECK_OK(world, colStart(world));
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(mover.calls == 1 && general.count == 0);
    CHECK(fabs(mover.last.fraction - expected_fraction(-3.0f, 6.0f, 0.0f)) <= 1e-9);

    /* The callback's move: +3 back to -3, through the wall, hitting its +x face (face 5). */
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(mover.calls == 2);
    CHECK(fabs(mover.last.fraction - expected_fraction(-3.0f, 6.0f, 0.0f)) <= 1e-9);
    CHECK(mover.last.feature_b == 5u && fabs(mover.last.normal[0] - 1.0) <= 1e-9);

    /* A NULL pair callback hands the pair back to the general one. */
    CHECK_OK(world, colSetSweptCallback(world, cube, wall, NULL, NULL));
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(mover.calls == 2 && general.count == 1);

    /* No general callback: nothing reported, the check still succeeds. */
    CHECK_OK(world, colSetGeneralSweptCallback(world, NULL, NULL));
    translation(m, -3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(mover.calls == 2 && general.count == 1);
    CHECK_OK(world, colExit(world));
}

/* Every structural call from inside a swept callback returns COL_ERR_WORLD_LOCKED. */
typedef struct Locked {
    ColWorld *world;
    ColObjectId a, b;
    int calls;
} Locked;

static void try_structural(const ColSweptCollision *c, void *user) {
    Locked *l = (Locked *)user;
    ColWorld *w = l->world;
    ColMeshDesc cube = cube_desc();
    ColObjectId id = 5;
    (void)c;
    ++l->calls;
    CHECK(colMakeCollidable(w, &cube, NULL, &id) == COL_ERR_WORLD_LOCKED && id == 0);
    CHECK(strcmp(colLastError(w),
                 "colMakeCollidable cannot be called from inside a collision callback") == 0);
    CHECK(colRemoveCollidable(w, l->b) == COL_ERR_WORLD_LOCKED);
    CHECK(colCheck(w) == COL_ERR_WORLD_LOCKED);
    CHECK(colCheckContinuous(w) == COL_ERR_WORLD_LOCKED);
    CHECK(strstr(colLastError(w), "colCheckContinuous") != NULL);
    CHECK(colSetSweptCallback(w, l->a, l->b, NULL, NULL) == COL_ERR_WORLD_LOCKED);
    CHECK(colSetGeneralSweptCallback(w, NULL, NULL) == COL_ERR_WORLD_LOCKED);
    CHECK(colSetExpelDistance(w, 0.1) == COL_ERR_WORLD_LOCKED);
    CHECK(colExit(w) == COL_ERR_WORLD_LOCKED);
}

static void swept_callback_structural_calls_locked(void) {
    ColWorld *world = serial_world();
    ColObjectId cube, wall;
    Locked locked;
    float m[16];

    cube_and_wall(world, -3.0f, 0.0f, &cube, &wall);
    locked.world = world;
    locked.a = cube;
    locked.b = wall;
    locked.calls = 0;
    CHECK_OK(world, colSetGeneralSweptCallback(world, try_structural, &locked));
    CHECK_OK(world, colStart(world));
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, cube, m));
    CHECK_OK(world, colCheckContinuous(world));
    CHECK(locked.calls == 1);
    /* Nothing changed, and the world is unlocked again. */
    CHECK_OK(world, colRemoveCollidable(world, wall));
    CHECK_OK(world, colExit(world));
}

static void expel_distance(void) {
    ColWorld *world = serial_world();
    CHECK_STATUS(world, colSetExpelDistance(world, -1.0), COL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(colLastError(world), "colSetExpelDistance") != NULL);
    CHECK_STATUS(world, colSetExpelDistance(world, NAN), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colSetExpelDistance(world, INFINITY), COL_ERR_INVALID_ARGUMENT);
    CHECK_OK(world, colSetExpelDistance(world, 0.0));
    CHECK_OK(world, colSetExpelDistance(world, 0.01));
    CHECK(colSetExpelDistance(NULL, 0.01) == COL_ERR_NULL_ARGUMENT);
    CHECK_OK(world, colExit(world));
}

int main(void) {
    fast_cube_through_thin_wall();
    trace_hits_the_nearest_wall();
    trace_errors();
    swept_callback_moves_object();
    swept_callback_structural_calls_locked();
    expel_distance();
    printf("continuous: ok\n");
    return 0;
}
