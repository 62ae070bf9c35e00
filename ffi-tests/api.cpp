// colldet C API from C++17: an RAII wrapper with lambda callbacks, a row of cubes checked
// against the analytic answer with every broad phase, serial and parallel, triangle meshes,
// and the witnesses of the exact mesh test (face-face, containment), and a turning cube swept
// through another by colCheckContinuous and colTraced.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "colldet.h"

namespace {

void check(bool ok, const char* what, int line) {
    if (!ok) {
        std::fprintf(stderr, "api.cpp:%d: check failed: %s\n", line, what);
        std::exit(1);
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

struct WorldDeleter {
    void operator()(ColWorld* w) const { colExit(w); }
};

// A world owning its callbacks as std::function objects.
class World {
public:
    using Callback = std::function<void(const ColCollision&)>;

    explicit World(const ColConfig& config) {
        ColWorld* raw = nullptr;
        ok(colInit(&config, &raw));
        world_.reset(raw);
    }

    ColObjectId add(const ColMeshDesc& mesh, void* data = nullptr) {
        ColObjectId id = 0;
        ok(colMakeCollidable(world_.get(), &mesh, data, &id));
        return id;
    }
    void start() { ok(colStart(world_.get())); }
    void check() { ok(colCheck(world_.get())); }
    void move(ColObjectId id, const std::array<double, 16>& m) {
        ok(colSetTransformd(world_.get(), id, m.data()));
    }
    void on_any(Callback cb) {
        general_ = std::make_unique<Callback>(std::move(cb));
        ok(colSetGeneralCallback(world_.get(), &World::thunk, general_.get()));
    }
    ColObjectInfo info(ColObjectId id) const {
        ColObjectInfo out{};
        ok(colGetObjectInfo(world_.get(), id, &out));
        return out;
    }

private:
    static void thunk(const ColCollision* c, void* user) { (*static_cast<Callback*>(user))(*c); }
    void ok(ColStatus s) const {
        if (s != COL_OK) {
            std::fprintf(stderr, "colldet call failed: %s: %s\n", colStatusString(s),
                         colLastError(world_.get()));
            std::exit(1);
        }
    }

    std::unique_ptr<ColWorld, WorldDeleter> world_;
    std::unique_ptr<Callback> general_;
};

// An axis-aligned box [-h, h]^3 as 12 triangles (face_sizes = NULL).
struct TriangleBox {
    std::array<float, 24> vertices{};
    std::array<uint32_t, 36> indices{{0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                      2, 3, 7, 2, 7, 6, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5}};
    explicit TriangleBox(float h) {
        for (int v = 0; v < 8; ++v) {
            vertices[3 * v + 0] = (v == 1 || v == 2 || v == 5 || v == 6) ? h : -h;
            vertices[3 * v + 1] = (v == 2 || v == 3 || v == 6 || v == 7) ? h : -h;
            vertices[3 * v + 2] = v >= 4 ? h : -h;
        }
    }
    ColMeshDesc desc() const { return ColMeshDesc{vertices.data(), 8, indices.data(), nullptr, 12}; }
};

std::array<double, 16> pose(double angle_z, double x, double y, double z) {
    const double c = std::cos(angle_z), s = std::sin(angle_z);
    return {c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, x, y, z, 1};
}

constexpr double kPi = 3.14159265358979323846;

using Pairs = std::vector<std::pair<ColObjectId, ColObjectId>>;

// Unit cubes at x = 0.9 i (i < n), every other one turned 45 degrees about z, so only
// neighbours collide (0.9 < 1; turned neighbours reach 0.5 + 0.707 > 0.9), never i and i + 2
// (1.8 > 0.707 + 0.707). Returns the pairs reported by the first check, in callback order.
Pairs row_of_cubes(ColConfig config, int n, std::vector<ColObjectId>& ids) {
    World world(config);
    TriangleBox box(0.5f);
    ids.clear();
    for (int i = 0; i < n; ++i) {
        ids.push_back(world.add(box.desc()));
        world.move(ids.back(), pose(i % 2 ? kPi / 4 : 0.0, 0.9 * i, 0.0, 0.0));
    }
    CHECK(world.info(ids[0]).face_count == 12);
    CHECK(world.info(ids[0]).flags & COL_SHAPE_CONVEX);
    Pairs seen;
    world.on_any([&](const ColCollision& c) { seen.emplace_back(c.a, c.b); });
    world.start();
    world.check();
    return seen;
}

void row_matches_analytic_answer() {
    const int n = 40;
    std::vector<ColObjectId> ids;
    const ColBroadPhase phases[] = {COL_BROADPHASE_SAP, COL_BROADPHASE_GRID, COL_BROADPHASE_OCTREE,
                                    COL_BROADPHASE_TREE, COL_BROADPHASE_NONE};
    for (ColBroadPhase phase : phases) {
        for (uint32_t flags : {0u, static_cast<uint32_t>(COL_FLAG_PARALLEL)}) {
            ColConfig config = colDefaultConfig();
            config.broadphase = phase;
            config.flags = flags;
            config.threads = 2;
            config.resolution = 8;
            for (int k = 0; k < 3; ++k) {
                config.universe_min[k] = -2.0;
                config.universe_max[k] = 0.9 * n + 2.0;
            }
            const Pairs seen = row_of_cubes(config, n, ids);
            Pairs expected;
            for (int i = 0; i + 1 < n; ++i) {
                expected.emplace_back(ids[i], ids[i + 1]);
            }
            CHECK(seen == expected);  // also the order: sorted by id pair
        }
    }
}

// A closed box of half-size 2 and a unit cube: crossing surfaces give a face-face witness whose
// point lies on both surfaces; the cube deep inside gives a containment witness (solid
// semantics), with the arbitrary method and the automatic one alike.
void mesh_witnesses(ColMethod method) {
    ColConfig config = colDefaultConfig();
    config.method = method;
    World world(config);
    TriangleBox big(2.0f), small(0.5f);
    int tag_big = 0, tag_small = 0;
    const ColObjectId a = world.add(big.desc(), &tag_big);
    const ColObjectId b = world.add(small.desc(), &tag_small);
    std::vector<ColCollision> seen;
    world.on_any([&](const ColCollision& c) { seen.push_back(c); });
    world.move(b, pose(0.3, 2.0, 0.0, 0.0));  // straddles the face x = 2
    world.start();
    world.check();
    CHECK(seen.size() == 1);
    CHECK(seen[0].a == a && seen[0].b == b);
    CHECK(seen[0].client_data_a == &tag_big && seen[0].client_data_b == &tag_small);
    if (method != COL_METHOD_CONVEX) {
        CHECK(seen[0].witness_kind == COL_WITNESS_FACE_FACE);
        CHECK(seen[0].feature_a < 12 && seen[0].feature_b < 12);
        CHECK(std::fabs(seen[0].point[0] - 2.0f) < 1e-4f);  // on the big box's face x = 2
    }
    world.move(b, pose(0.3, 0.5, 0.2, -0.1));  // deep inside
    world.check();
    CHECK(seen.size() == 2);
    if (method != COL_METHOD_CONVEX) {
        CHECK(seen[1].witness_kind == COL_WITNESS_CONTAINMENT);
        // The container has no feature; b's vertex 0 (-0.5, -0.5, -0.5) lies inside, and the
        // point is that vertex in world coordinates.
        CHECK(seen[1].feature_a == COL_NO_FEATURE && seen[1].feature_b == 0);
        const auto m = pose(0.3, 0.5, 0.2, -0.1);
        const double expected[3] = {m[0] * -0.5 + m[4] * -0.5 + m[12],
                                    m[1] * -0.5 + m[5] * -0.5 + m[13], -0.5 + m[14]};
        for (int k = 0; k < 3; ++k) {
            CHECK(std::fabs(seen[1].point[k] - expected[k]) < 1e-5);
        }
    }
    world.move(b, pose(0.0, 4.0, 0.0, 0.0));  // clear of the big box
    world.check();
    CHECK(seen.size() == 2);
}

// A cube turning 90 degrees about z while it jumps from x = -3 to x = 3 (0.1 off in y, 0.2 in
// z) through a cube at the origin (the certified general sweep): colTraced before the move and
// colCheckContinuous after it give the same bracket, one report, inside the range the turning
// half-width allows.
void turning_cube_sweeps_through_a_cube() {
    ColConfig config = colDefaultConfig();
    config.flags = 0;
    ColWorld* raw = nullptr;
    CHECK(colInit(&config, &raw) == COL_OK);
    std::unique_ptr<ColWorld, WorldDeleter> world(raw);
    TriangleBox box(0.5f);
    const ColMeshDesc desc = box.desc();
    ColObjectId mover = 0, obstacle = 0;
    CHECK(colMakeCollidable(raw, &desc, nullptr, &mover) == COL_OK);
    CHECK(colMakeCollidable(raw, &desc, nullptr, &obstacle) == COL_OK);
    // Raised by 0.2 and shifted by 0.1 in y: no edges of the two cubes are coplanar, so the
    // contact normal is well defined (the x direction).
    const auto start = pose(0.0, -3.0, 0.1, 0.2);
    const auto end = pose(kPi / 2, 3.0, 0.1, 0.2);
    CHECK(colSetTransformd(raw, mover, start.data()) == COL_OK);

    ColTrace trace{};
    CHECK(colTraced(raw, mover, end.data(), &trace) == COL_OK);
    CHECK(trace.hit == obstacle);
    CHECK(trace.contact_kind != COL_CONTACT_NONE);
    // Half-width in x between 0.5 and 0.5 * sqrt(2): first contact in [0.2988, 1/3].
    CHECK(trace.fraction >= 0.2988 && trace.fraction_hi <= 1.0 / 3.0 + 1e-9);
    CHECK(trace.fraction <= trace.fraction_hi && trace.fraction_hi - trace.fraction < 1e-6);
    const double unit = std::hypot(trace.normal[0], trace.normal[1], trace.normal[2]);
    CHECK(std::fabs(unit - 1.0) < 1e-9 && trace.normal[0] < 0.0);

    std::vector<ColSweptCollision> seen;
    using SweptFn = std::function<void(const ColSweptCollision&)>;
    SweptFn record = [&](const ColSweptCollision& c) { seen.push_back(c); };
    ColSweptCallback thunk = [](const ColSweptCollision* c, void* user) {
        (*static_cast<SweptFn*>(user))(*c);
    };
    CHECK(colSetGeneralSweptCallback(raw, thunk, &record) == COL_OK);
    CHECK(colStart(raw) == COL_OK);
    CHECK(colSetTransformd(raw, mover, end.data()) == COL_OK);
    CHECK(colCheckContinuous(raw) == COL_OK);
    CHECK(seen.size() == 1);
    CHECK(seen[0].a == mover && seen[0].b == obstacle);
    CHECK(std::fabs(seen[0].fraction - trace.fraction) <= 1e-9);
    CHECK(std::fabs(seen[0].fraction_hi - trace.fraction_hi) <= 1e-9);
    CHECK(seen[0].contact_kind == trace.contact_kind);
    CHECK(colCheckContinuous(raw) == COL_OK);
    CHECK(seen.size() == 1);
}

}  // namespace

int main() {
    row_matches_analytic_answer();
    mesh_witnesses(COL_METHOD_ARBITRARY);
    mesh_witnesses(COL_METHOD_BOXTREE);
    mesh_witnesses(COL_METHOD_CONVEX);
    turning_cube_sweeps_through_a_cube();
    std::printf("api (C++17): ok\n");
    return 0;
}
