/* colContact: the contact manifold of two unit cubes (a face contact with four points, depth and
 * normal known exactly), of separated cubes, inside a collision callback, and its errors. */
#include <math.h>
#include <stdint.h>

#include "check.h"

static int near(double x, double y) { return fabs(x - y) < 1e-12; }

/* The manifold of the callback's pair, taken inside the callback. */
typedef struct {
    ColWorld *world;
    ColStatus status;
    ColContactManifold manifold;
    int calls;
} Seen;

static void take_contact(const ColCollision *c, void *user) {
    Seen *seen = (Seen *)user;
    seen->calls += 1;
    seen->status = colContact(seen->world, c->a, c->b, &seen->manifold);
}

int main(void) {
    ColConfig config = colDefaultConfig();
    ColMeshDesc cube = cube_desc();
    ColWorld *world = NULL;
    ColObjectId a = 0, b = 0;
    ColContactManifold m, untouched;
    Seen seen;
    float pose[16];
    uint32_t i;
    double xmin = 1, xmax = -1, ymin = 1, ymax = -1;

    CHECK_OK(NULL, colInit(&config, &world));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &a));
    CHECK_OK(world, colMakeCollidable(world, &cube, NULL, &b));

    /* b sunk 0.125 into a's top face, shifted by (0.25, 0.125): the overlap of the faces is
     * [-0.25, 0.5] x [-0.375, 0.5] at depth 0.125 (all numbers exact in float). */
    translation(pose, 0.25f, 0.125f, 0.875f);
    CHECK_OK(world, colSetTransform(world, b, pose));
    CHECK_OK(world, colContact(world, a, b, &m));
    CHECK(m.kind == COL_MANIFOLD_FACE);
    CHECK(m.count == 4);
    CHECK(near(m.normal[0], 0.0) && near(m.normal[1], 0.0) && near(m.normal[2], 1.0));
    CHECK(near(m.depth, 0.125));
    for (i = 0; i < m.count; ++i) {
        const ColContactPoint *p = &m.points[i];
        CHECK(near(p->depth, 0.125));
        CHECK(near(p->point_a[2], 0.5) && near(p->point_b[2], 0.375));
        CHECK(near(p->point_a[0], p->point_b[0]) && near(p->point_a[1], p->point_b[1]));
        xmin = fmin(xmin, p->point_b[0]);
        xmax = fmax(xmax, p->point_b[0]);
        ymin = fmin(ymin, p->point_b[1]);
        ymax = fmax(ymax, p->point_b[1]);
    }
    CHECK(near(xmin, -0.25) && near(xmax, 0.5) && near(ymin, -0.375) && near(ymax, 0.5));
    /* All four entries are used. */
    CHECK(m.points[3].depth != 0.0);

    /* Inside a collision callback, for the reported pair. */
    seen.world = world;
    seen.status = COL_ERR_INTERNAL;
    seen.calls = 0;
    CHECK_OK(world, colSetGeneralCallback(world, take_contact, &seen));
    CHECK_OK(world, colStart(world));
    CHECK_OK(world, colCheck(world));
    CHECK(seen.calls == 1);
    CHECK(seen.status == COL_OK);
    CHECK(seen.manifold.kind == COL_MANIFOLD_FACE && seen.manifold.count == 4);
    CHECK(near(seen.manifold.depth, 0.125));

    /* Apart: no contact, count 0, kind NONE. */
    translation(pose, 3.0f, 0.0f, 0.0f);
    CHECK_OK(world, colSetTransform(world, b, pose));
    CHECK_OK(world, colContact(world, a, b, &m));
    CHECK(m.kind == COL_MANIFOLD_NONE && m.count == 0 && m.depth == 0.0);

    /* Errors leave *out untouched and the world usable. */
    untouched = m;
    untouched.depth = 42.0;
    m = untouched;
    CHECK_STATUS(world, colContact(world, a, b, NULL), COL_ERR_NULL_ARGUMENT);
    CHECK_STATUS(world, colContact(world, a, a, &m), COL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(world, colContact(world, a, 0, &m), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(world, colContact(world, a, b + 1000, &m), COL_ERR_INVALID_HANDLE);
    CHECK_STATUS(NULL, colContact(NULL, a, b, &m), COL_ERR_NULL_ARGUMENT);
    CHECK(m.depth == 42.0);
    CHECK_OK(world, colContact(world, a, b, &m));
    CHECK(m.count == 0);

    CHECK_OK(world, colExit(world));
    printf("contact: ok\n");
    return 0;
}
