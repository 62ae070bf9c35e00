/* colldet C API, C11: version, configuration, object info, and the full lifecycle with the
 * two-cubes approach/separate scenario (exact callback frames). */
#include <string.h>

#include "check.h"

typedef struct Recorder {
    int frame;          /* the frame being checked */
    int frames[64];     /* frames in which the callback ran */
    int count;
    ColCollision last;  /* the last collision seen */
} Recorder;

static void record(const ColCollision *c, void *user) {
    Recorder *r = (Recorder *)user;
    CHECK(r->count < 64);
    r->frames[r->count++] = r->frame;
    r->last = *c;
}

static void version_and_config(void) {
    char expected[64];
    ColConfig config = colDefaultConfig();
    snprintf(expected, sizeof expected, "%d.%d.%d", COLLDET_VERSION_MAJOR, COLLDET_VERSION_MINOR,
             COLLDET_VERSION_PATCH);
    CHECK(strcmp(colGetVersion(), COLLDET_VERSION_STRING) == 0);
    CHECK(strcmp(colGetVersion(), expected) == 0);
    CHECK(config.broadphase == COL_BROADPHASE_SAP);
    CHECK(config.method == COL_METHOD_AUTO);
    CHECK(config.flags == COL_FLAG_PARALLEL);
    CHECK(config.threads == 0 && config.max_collidables == 0 && config.resolution == 16);
    CHECK(config.universe_min[0] == 0.0 && config.universe_max[2] == 0.0);
    CHECK(strcmp(colStatusString(COL_OK), "COL_OK") == 0);
    CHECK(strcmp(colStatusString(COL_ERR_WORLD_LOCKED), "COL_ERR_WORLD_LOCKED") == 0);
    CHECK(strcmp(colStatusString(12345), "unknown ColStatus") == 0);
    CHECK(colExit(NULL) == COL_OK);
}

/* Cube b moves along x towards cube a (0.3 per frame from x = 3), through it to x = 0 at frame
 * 10, then back out. They collide while |x| <= 1: frames 7..13 (x = 0.9, 0.6, 0.3, 0, 0.3, 0.6,
 * 0.9); frame 14 (x = 1.2) is clear. Each colliding frame is new because b moved. */
static void two_cubes(ColConfig config) {
    static const int expected[] = {7, 8, 9, 10, 11, 12, 13};
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    ColObjectId a = 0, b = 0;
    ColObjectInfo info;
    Recorder rec;
    int tag_a = 1, tag_b = 2, frame;
    float m[16];

    memset(&rec, 0, sizeof rec);
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK(world != NULL);
    CHECK(strcmp(colLastError(world), "") == 0);
    CHECK_OK(world, colMakeCollidable(world, &cube, &tag_a, &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, &tag_b, &b));
    CHECK(a != 0 && b != 0 && a != b);

    CHECK_OK(world, colGetObjectInfo(world, a, &info));
    CHECK(info.vertex_count == 8 && info.edge_count == 12 && info.face_count == 6);
    CHECK(info.flags == (COL_SHAPE_CONVEX | COL_SHAPE_CLOSED | COL_SHAPE_MANIFOLD |
                         COL_SHAPE_ORIENTED));

    CHECK_OK(world, colSetCallback(world, a, b, record, &rec));
    translation(m, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    CHECK_OK(world, colStart(world));
    for (frame = 0; frame <= 20; ++frame) {
        double x = frame <= 10 ? 3.0 - 0.3 * frame : 0.3 * (frame - 10);
        double md[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        md[12] = x;
        md[13] = 0.01 * frame; /* a little sideways drift, still overlapping in y */
        CHECK_OK(world, colSetTransformd(world, b, md));
        rec.frame = frame;
        CHECK_OK(world, colCheck(world));
    }
    CHECK(rec.count == (int)(sizeof expected / sizeof expected[0]));
    CHECK(memcmp(rec.frames, expected, sizeof expected) == 0);
    CHECK(rec.last.a == a && rec.last.b == b);
    CHECK(rec.last.client_data_a == &tag_a && rec.last.client_data_b == &tag_b);

    /* A resting contact is not new: put b onto a and check twice without moving it. */
    translation(m, 0.5f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, m));
    rec.count = 0;
    CHECK_OK(world, colCheck(world));
    CHECK(rec.count == 1);
    CHECK(rec.last.witness_kind == COL_WITNESS_SUPPORT_VERTICES);
    CHECK(rec.last.feature_a < 8 && rec.last.feature_b < 8);
    CHECK(rec.last.point[0] >= -0.5f && rec.last.point[0] <= 1.0f);
    CHECK_OK(world, colCheck(world));
    CHECK(rec.count == 1);

    /* Remove and re-add: the new object collides with a again, the old id is stale. */
    CHECK_OK(world, colRemoveCollidable(world, b));
    CHECK_STATUS(world, colRemoveCollidable(world, b), COL_ERR_INVALID_HANDLE);
    CHECK_OK(world, colMakeCollidable(world, &cube, &tag_b, &b));
    CHECK_OK(world, colSetGeneralCallback(world, record, &rec));
    CHECK_OK(world, colCheck(world));
    CHECK(rec.count == 2 && rec.last.b == b);
    CHECK_OK(world, colExit(world));
}

/* Instances share the source's mesh: same info, same answers, and they outlive the source. */
static void instances(void) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    ColMeshDesc cube = cube_desc();
    ColObjectId source = 0, row[9], stale = 0, none = 1;
    ColObjectInfo info, source_info;
    Recorder rec;
    float m[16];
    int k;

    memset(&rec, 0, sizeof rec);
    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &source));
    CHECK_OK(world, colGetObjectInfo(world, source, &source_info));
    /* A row along x at spacing 1.5: unit cubes with gaps of 0.5. */
    for (k = 0; k < 9; ++k) {
        CHECK_OK(world, colMakeInstance(world, source, NULL, &row[k]));
        CHECK_OK(world, colGetObjectInfo(world, row[k], &info));
        CHECK(memcmp(&info, &source_info, sizeof info) == 0);
        translation(m, 1.5f * (float)(k + 1), 0.0f, 0.0f);
        CHECK_OK(world, colSetTransform(world, row[k], m));
    }
    CHECK_OK(world, colSetGeneralCallback(world, record, &rec));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(rec.count == 0);
    /* Removing the source leaves its instances intact; its id is stale for instancing too. */
    CHECK_OK(world, colRemoveCollidable(world, source));
    CHECK_STATUS(world, colMakeInstance(world, source, NULL, &stale), COL_ERR_INVALID_HANDLE);
    CHECK(stale == 0);
    CHECK_STATUS(world, colMakeInstance(world, row[0], NULL, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colMakeInstance(world, 0, NULL, &none), COL_ERR_INVALID_HANDLE);
    CHECK(none == 0);
    /* Move instance 3 to x = 5.4: it overlaps instance 2 (x = 4.5) by 0.1, nothing else. */
    translation(m, 5.4f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, row[3], m));
    CHECK_OK(world, colCheck(world));
    CHECK(rec.count == 1);
    CHECK((rec.last.a == row[2] && rec.last.b == row[3]) ||
          (rec.last.a == row[3] && rec.last.b == row[2]));
    CHECK_OK(world, colExit(world));
}

int main(void) {
    ColConfig config = colDefaultConfig();
    version_and_config();
    instances();
    two_cubes(config);
    /* Same answers on the calling thread and with every broad phase. */
    config.flags = 0;
    two_cubes(config);
    config.broadphase = COL_BROADPHASE_TREE;
    two_cubes(config);
    config.broadphase = COL_BROADPHASE_NONE;
    two_cubes(config);
    config.broadphase = COL_BROADPHASE_GRID;
    config.universe_min[0] = config.universe_min[1] = config.universe_min[2] = -8.0;
    config.universe_max[0] = config.universe_max[1] = config.universe_max[2] = 8.0;
    two_cubes(config);
    config.broadphase = COL_BROADPHASE_OCTREE;
    two_cubes(config);
    printf("lifecycle: ok\n");
    return 0;
}
