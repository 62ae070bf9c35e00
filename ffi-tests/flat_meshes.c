/* colldet C API, C11: flat and soup meshes (a triangle, a floor quad, a planar soup) are accepted
 * as surfaces and collide exactly under every broad phase, serial and on two threads, and under
 * each exact method (the convex methods fall back to the mesh test for a flat object); a mesh
 * without a face of non-zero area is refused with COL_ERR_INVALID_MESH and a message; a small
 * cube jumping through a floor quad is reported by colCheckContinuous. */
#include <string.h>

#include "check.h"

/* The triangle (0, 0, 0), (1, 0, 0), (0, 1, 0). */
static const float TRIANGLE_VERTICES[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
/* The triangle (0, 0, 0), (1, 0, 0), (0, -1, 0): placed at (1, 0, 0) it meets the first one in
 * the vertex (1, 0, 0) only. */
static const float LOWER_TRIANGLE_VERTICES[9] = {0.0f, 0.0f,  0.0f, 1.0f, 0.0f,
                                                 0.0f, 0.0f, -1.0f, 0.0f};
static const uint32_t TRIANGLE_INDICES[3] = {0, 1, 2};

/* Squares [-h, h]^2 at z = 0, one quad face. */
static const float FLOOR_VERTICES[12] = {
    -2.0f, -2.0f, 0.0f, 2.0f, -2.0f, 0.0f, 2.0f, 2.0f, 0.0f, -2.0f, 2.0f, 0.0f,
};
static const float SMALL_SQUARE_VERTICES[12] = {
    -0.25f, -0.25f, 0.0f, 0.25f, -0.25f, 0.0f, 0.25f, 0.25f, 0.0f, -0.25f, 0.25f, 0.0f,
};
static const uint32_t SQUARE_INDICES[4] = {0, 1, 2, 3};
static const uint32_t QUAD_SIZE[1] = {4};

/* A planar soup at z = 0 within [-0.25, 0.25]^2: two triangles, a quad, a collinear (zero-area)
 * face and an unused vertex. */
static const float SOUP_VERTICES[33] = {
    -0.25f, -0.25f, 0.0f, /* 0 */
    0.0f,   -0.25f, 0.0f, /* 1 */
    -0.25f, 0.0f,   0.0f, /* 2 */
    0.1f,   0.1f,   0.0f, /* 3 */
    0.25f,  0.1f,   0.0f, /* 4 */
    0.25f,  0.25f,  0.0f, /* 5 */
    0.1f,   0.25f,  0.0f, /* 6 */
    0.05f,  -0.2f,  0.0f, /* 7 */
    0.2f,   -0.2f,  0.0f, /* 8 */
    0.2f,   -0.05f, 0.0f, /* 9 */
    9.0f,   9.0f,   9.0f, /* 10, unused */
};
static const uint32_t SOUP_INDICES[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 3, 5};
static const uint32_t SOUP_FACE_SIZES[4] = {3, 4, 3, 3};

/* No face of non-zero area: a collinear triangle and one with a repeated corner. */
static const float NO_SURFACE_VERTICES[12] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f,
                                              2.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
static const uint32_t NO_SURFACE_INDICES[6] = {0, 1, 2, 0, 3, 3};

static ColMeshDesc mesh(const float *vertices, size_t vertex_count, const uint32_t *indices,
                        const uint32_t *face_sizes, size_t face_count) {
    ColMeshDesc d;
    d.vertices = vertices;
    d.vertex_count = vertex_count;
    d.indices = indices;
    d.face_sizes = face_sizes;
    d.face_count = face_count;
    return d;
}

static ColMeshDesc triangle(void) { return mesh(TRIANGLE_VERTICES, 3, TRIANGLE_INDICES, NULL, 1); }
static ColMeshDesc lower_triangle(void) {
    return mesh(LOWER_TRIANGLE_VERTICES, 3, TRIANGLE_INDICES, NULL, 1);
}
static ColMeshDesc floor_quad(void) { return mesh(FLOOR_VERTICES, 4, SQUARE_INDICES, QUAD_SIZE, 1); }
static ColMeshDesc small_square(void) {
    return mesh(SMALL_SQUARE_VERTICES, 4, SQUARE_INDICES, QUAD_SIZE, 1);
}
static ColMeshDesc soup(void) { return mesh(SOUP_VERTICES, 11, SOUP_INDICES, SOUP_FACE_SIZES, 4); }

static const ColBroadPhase BROAD_PHASES[5] = {COL_BROADPHASE_SAP, COL_BROADPHASE_GRID,
                                              COL_BROADPHASE_OCTREE, COL_BROADPHASE_TREE,
                                              COL_BROADPHASE_NONE};
static const ColMethod METHODS[5] = {COL_METHOD_AUTO, COL_METHOD_ARBITRARY, COL_METHOD_BOXTREE,
                                     COL_METHOD_CONVEX, COL_METHOD_GJK};

/* A world with broad phase `broad`, method `method`, serial (`parallel` 0) or on two threads. */
static ColWorld *make_world(ColBroadPhase broad, ColMethod method, int parallel) {
    ColConfig config = colDefaultConfig();
    ColWorld *world = NULL;
    int i;
    config.broadphase = broad;
    config.method = method;
    config.flags = parallel ? COL_FLAG_PARALLEL : 0;
    config.threads = 2;
    config.resolution = 8;
    for (i = 0; i < 3; ++i) {
        config.universe_min[i] = -8.0;
        config.universe_max[i] = 8.0;
    }
    CHECK_OK(NULL, colInit(&config, &world));
    return world;
}

static void count_collision(const ColCollision *c, void *user) {
    (void)c;
    ++*(int *)user;
}

/* Column-major double matrix translating by (x, y, z). */
static void translationd(double m[16], double x, double y, double z) {
    int i;
    for (i = 0; i < 16; ++i) {
        m[i] = (i % 5 == 0) ? 1.0 : 0.0;
    }
    m[12] = x;
    m[13] = y;
    m[14] = z;
}

/* `a` at `ta` and `b` at `tb` (translations) in every configuration: `expected` collisions (0 or
 * 1) at the first check, none with b moved away, `expected` again with b moved back. */
static void check_pair(const char *name, ColMeshDesc a, const double ta[3], ColMeshDesc b,
                       const double tb[3], int expected) {
    size_t broad, method;
    int parallel;
    for (broad = 0; broad < 5; ++broad) {
        for (method = 0; method < 5; ++method) {
            for (parallel = 0; parallel < 2; ++parallel) {
                ColWorld *world = make_world(BROAD_PHASES[broad], METHODS[method], parallel);
                ColObjectId ia, ib;
                double m[16];
                int count = 0;
                CHECK_OK(world, colMakeCollidable(world, &a, NULL, &ia));
                CHECK_OK(world, colMakeCollidable(world, &b, NULL, &ib));
                translationd(m, ta[0], ta[1], ta[2]);
                CHECK_OK(world, colSetTransformd(world, ia, m));
                translationd(m, tb[0], tb[1], tb[2]);
                CHECK_OK(world, colSetTransformd(world, ib, m));
                CHECK_OK(world, colSetGeneralCallback(world, count_collision, &count));
                CHECK_OK(world, colStart(world));
                CHECK_OK(world, colCheck(world));
                if (count != expected) {
                    fprintf(stderr, "%s: broad phase %u, method %u, parallel %d: %d collisions\n",
                            name, (unsigned)BROAD_PHASES[broad], (unsigned)METHODS[method],
                            parallel, count);
                    exit(1);
                }
                translationd(m, tb[0] + 6.0, tb[1] + 5.0, tb[2] - 3.0);
                CHECK_OK(world, colSetTransformd(world, ib, m));
                CHECK_OK(world, colCheck(world));
                CHECK(count == expected);
                translationd(m, tb[0], tb[1], tb[2]);
                CHECK_OK(world, colSetTransformd(world, ib, m));
                CHECK_OK(world, colCheck(world));
                CHECK(count == 2 * expected);
                CHECK_OK(world, colExit(world));
            }
        }
    }
}

static void flat_pairs(void) {
    const double origin[3] = {0.0, 0.0, 0.0};
    const double inside[3] = {0.1, -0.05, 0.2};
    const double on_top[3] = {0.3, -0.2, 0.5};
    const double plane[3] = {0.0, 0.0, 1.0};
    const double shifted[3] = {0.25, 0.25, 1.0};
    const double corner[3] = {1.0, 0.0, 1.0};
    const double apart[3] = {0.5, 0.5 + 1e-6, 1.0};
    const double above[3] = {-0.4, -0.4, 0.5 + 1e-7};
    const double resting[3] = {-0.4, -0.4, 0.5};
    const double soup_inside[3] = {0.1, 0.05, -0.3};
    const double soup_on_floor[3] = {1.5, -1.0, 0.0};
    const double soup_above[3] = {0.0, 0.0, 0.5 + 1e-7};

    check_pair("square in cube", cube_desc(), origin, small_square(), inside, 1);
    check_pair("floor touching cube", floor_quad(), origin, cube_desc(), on_top, 1);
    check_pair("overlapping coplanar triangles", triangle(), plane, triangle(), shifted, 1);
    check_pair("coplanar triangles sharing a vertex", triangle(), plane, lower_triangle(), corner,
               1);
    check_pair("disjoint coplanar triangles", triangle(), plane, triangle(), apart, 0);
    check_pair("triangle 1e-7 above cube", cube_desc(), origin, triangle(), above, 0);
    check_pair("triangle on cube", cube_desc(), origin, triangle(), resting, 1);
    check_pair("soup in cube", cube_desc(), origin, soup(), soup_inside, 1);
    check_pair("soup on floor", floor_quad(), origin, soup(), soup_on_floor, 1);
    check_pair("soup 1e-7 above cube", cube_desc(), origin, soup(), soup_above, 0);
}

static void a_mesh_without_surface_is_refused(void) {
    ColWorld *world = make_world(COL_BROADPHASE_SAP, COL_METHOD_AUTO, 0);
    ColMeshDesc none = mesh(NO_SURFACE_VERTICES, 4, NO_SURFACE_INDICES, NULL, 2);
    ColMeshDesc collinear = mesh(NO_SURFACE_VERTICES, 3, NO_SURFACE_INDICES, NULL, 1);
    ColObjectId id = 0;
    CHECK_STATUS(world, colMakeCollidable(world, &none, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK(id == 0);
    CHECK(strstr(colLastError(world), "no face has non-zero area") != NULL);
    CHECK_STATUS(world, colMakeCollidable(world, &collinear, NULL, &id), COL_ERR_INVALID_MESH);
    CHECK(strstr(colLastError(world), "no face has non-zero area") != NULL);
    /* The world is unchanged and usable: a flat mesh is accepted. */
    {
        ColMeshDesc t = triangle();
        CHECK_OK(world, colMakeCollidable(world, &t, NULL, &id));
        CHECK(id != 0);
    }
    CHECK_OK(world, colExit(world));
}

typedef struct SweptLog {
    ColSweptCollision first;
    int count;
} SweptLog;

static void log_swept(const ColSweptCollision *c, void *user) {
    SweptLog *log = (SweptLog *)user;
    if (log->count++ == 0) {
        log->first = *c;
    }
}

/* A cube of half side 0.05 jumps from z = 3 to z = -3 through the floor at z = 0. */
static void fast_cube_through_floor(void) {
    size_t broad;
    int parallel;
    for (broad = 0; broad < 5; ++broad) {
        for (parallel = 0; parallel < 2; ++parallel) {
            static const float small_cube[24] = {
                -0.05f, -0.05f, -0.05f, 0.05f, -0.05f, -0.05f, 0.05f, 0.05f, -0.05f,
                -0.05f, 0.05f,  -0.05f, -0.05f, -0.05f, 0.05f, 0.05f, -0.05f, 0.05f,
                0.05f,  0.05f,  0.05f,  -0.05f, 0.05f,  0.05f,
            };
            ColWorld *world = make_world(BROAD_PHASES[broad], COL_METHOD_AUTO, parallel);
            ColMeshDesc f = floor_quad(), c = cube_desc();
            ColObjectId floor_id, bullet;
            SweptLog log;
            float m[16];
            int discrete = 0;
            double t = (3.0 - (double)0.05f) / 6.0;
            c.vertices = small_cube;
            memset(&log, 0, sizeof log);
            CHECK_OK(world, colMakeCollidable(world, &f, NULL, &floor_id));
            CHECK_OK(world, colMakeCollidable(world, &c, NULL, &bullet));
            translation(m, 0.2f, 0.3f, 3.0f);
            CHECK_OK(world, colSetTransform(world, bullet, m));
            CHECK_OK(world, colSetGeneralCallback(world, count_collision, &discrete));
            CHECK_OK(world, colSetGeneralSweptCallback(world, log_swept, &log));
            CHECK_OK(world, colStart(world));
            CHECK_OK(world, colCheckContinuous(world));
            CHECK(log.count == 0);
            translation(m, 0.2f, 0.3f, -3.0f);
            CHECK_OK(world, colSetTransform(world, bullet, m));
            CHECK_OK(world, colCheckContinuous(world));
            CHECK(log.count == 1);
            CHECK(log.first.a == floor_id && log.first.b == bullet);
            CHECK(log.first.fraction <= t + 1e-9 && t - 1e-9 <= log.first.fraction_hi);
            /* colCheck misses the same jump. */
            translation(m, 0.2f, 0.3f, 3.0f);
            CHECK_OK(world, colSetTransform(world, bullet, m));
            CHECK_OK(world, colCheck(world));
            translation(m, 0.2f, 0.3f, -3.0f);
            CHECK_OK(world, colSetTransform(world, bullet, m));
            CHECK_OK(world, colCheck(world));
            CHECK(discrete == 0);
            CHECK_OK(world, colExit(world));
        }
    }
}

int main(void) {
    flat_pairs();
    a_mesh_without_surface_is_refused();
    fast_cube_through_floor();
    printf("flat meshes: ok\n");
    return 0;
}
