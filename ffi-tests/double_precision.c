/* Meshes given in double (`ColMeshDescd`, `colMakeCollidabled`) at CAD coordinates: the answer is
 * exact for the doubles given. Two boxes 0.2 wide whose vertices sit near x = 4000 (4000.2 is not
 * a float: rounded to float it becomes 4000.199951171875) are placed 1e-9 apart and 1e-9 into
 * each other through `colSetTransformd`; the same boxes given as floats are exact for their
 * floats. */
#include <stdint.h>
#include <string.h>

#include "check.h"

/* The box [4000.0, 4000.2] x [-0.1, 0.1] x [-0.1, 0.1] as 8 corners. */
static void box_corners(double xyz[24]) {
    static const double xs[2] = {4000.0, 4000.2};
    static const double ys[2] = {-0.1, 0.1};
    int i;
    for (i = 0; i < 8; ++i) {
        xyz[3 * i + 0] = xs[(i & 1) ^ ((i >> 1) & 1)];
        xyz[3 * i + 1] = ys[(i >> 1) & 1];
        xyz[3 * i + 2] = ys[(i >> 2) & 1];
    }
}

static void count(const ColCollision *c, void *user) {
    (void)c;
    ++*(int *)user;
}

static void translation_d(double m[16], double x) {
    memset(m, 0, 16 * sizeof(double));
    m[0] = m[5] = m[10] = m[15] = 1.0;
    m[12] = x;
}

/* Collisions reported for the box and the box shifted by `shift` along x, given in double
 * (`as_float` 0) or rounded to float (`as_float` 1). */
static int collisions(double shift, int as_float) {
    double xyz[24];
    float xyz_f[24];
    double m[16];
    ColWorld *world = NULL;
    ColObjectId a = 0, b = 0;
    ColConfig config = colDefaultConfig();
    int reported = 0, i;
    box_corners(xyz);
    for (i = 0; i < 24; ++i) {
        xyz_f[i] = (float)xyz[i];
    }
    config.flags = 0;
    CHECK_OK(NULL, colInit(&config, &world));
    if (as_float) {
        ColMeshDesc d = cube_desc();
        d.vertices = xyz_f;
        CHECK_OK(world, colMakeCollidable(world, &d, NULL, &a));
        CHECK_OK(world, colMakeCollidable(world, &d, NULL, &b));
    } else {
        ColMeshDescd d;
        d.vertices = xyz;
        d.vertex_count = 8;
        d.indices = CUBE_INDICES;
        d.face_sizes = CUBE_FACE_SIZES;
        d.face_count = 6;
        CHECK_OK(world, colMakeCollidabled(world, &d, NULL, &a));
        CHECK_OK(world, colMakeCollidabled(world, &d, NULL, &b));
    }
    translation_d(m, shift);
    CHECK_OK(world, colSetTransformd(world, b, m));
    CHECK_OK(world, colSetGeneralCallback(world, count, &reported));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    colExit(world);
    return reported;
}

int main(void) {
    double width = 4000.2 - 4000.0; /* exact in double (Sterbenz): b's low face lands on a's high one */
    /* Doubles: exact at a gap of 1e-9 either way. */
    CHECK(collisions(width + 1e-9, 0) == 0);
    CHECK(collisions(width - 1e-9, 0) == 1);
    /* Floats: 4000.2 rounds to 4000.199951171875, so the float box is narrower by 4.9e-5; exact
     * for the floats (apart by 1e-9 beyond their width, overlapping by 1e-9 within it). */
    {
        double width_f = (double)(float)4000.2 - 4000.0;
        CHECK(collisions(width_f + 1e-9, 1) == 0);
        CHECK(collisions(width_f - 1e-9, 1) == 1);
        /* The double boxes at that shift overlap by 4.9e-5. */
        CHECK(collisions(width_f + 1e-9, 0) == 1);
    }
    /* A double mesh description with a NULL vertex array is refused like a float one. */
    {
        ColWorld *world = NULL;
        ColObjectId id = 7;
        ColMeshDescd d;
        ColConfig config = colDefaultConfig();
        config.flags = 0;
        CHECK_OK(NULL, colInit(&config, &world));
        d.vertices = NULL;
        d.vertex_count = 8;
        d.indices = CUBE_INDICES;
        d.face_sizes = CUBE_FACE_SIZES;
        d.face_count = 6;
        CHECK_STATUS(world, colMakeCollidabled(world, &d, NULL, &id), COL_ERR_NULL_ARGUMENT);
        CHECK(id == 0);
        colExit(world);
    }
    printf("double_precision: ok\n");
    return 0;
}
