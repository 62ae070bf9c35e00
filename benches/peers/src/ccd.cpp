#include "ccd.hpp"

#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>
#include <fcl/fcl.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "peer.hpp"
#include "pose.hpp"

namespace peers {
namespace {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::duration<double, std::milli>;

bool moving(const Object& o) {
  return o.v != Vec3{0, 0, 0} || o.w != Vec3{0, 0, 0};
}

bool rotating(const Object& o) { return o.w != Vec3{0, 0, 0}; }

struct Box {
  double lo[3], hi[3];
  bool overlaps(const Box& o) const {
    for (int c = 0; c < 3; ++c)
      if (lo[c] > o.hi[c] || o.lo[c] > hi[c]) return false;
    return true;
  }
  void add(const Box& o) {
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], o.lo[c]), hi[c] = std::max(hi[c], o.hi[c]);
  }
};

// The world box of `mesh` at `pose` (exact, from every vertex).
Box box_of(const Mesh& mesh, const Pose& p) {
  Box b{{1e300, 1e300, 1e300}, {-1e300, -1e300, -1e300}};
  for (const Vec3& v : mesh.vertices)
    for (int c = 0; c < 3; ++c) {
      double x = p.R[3 * c] * v[0] + p.R[3 * c + 1] * v[1] + p.R[3 * c + 2] * v[2] + p.t[c];
      b.lo[c] = std::min(b.lo[c], x), b.hi[c] = std::max(b.hi[c], x);
    }
  return b;
}

// A box of the swept mover over [f, f+1]: the hull of both end boxes for a translation, of the
// bounding balls about the origin at both ends for a rotating mover.
Box swept_box(const Scene& scene, int k, const Pose& a, const Pose& b) {
  const Object& o = scene.objects[k];
  const Mesh& mesh = scene.meshes[o.mesh];
  if (!rotating(o)) {
    Box box = box_of(mesh, a);
    box.add(box_of(mesh, b));
    return box;
  }
  double r = mesh.radius;
  Box box{{a.t[0] - r, a.t[1] - r, a.t[2] - r}, {a.t[0] + r, a.t[1] + r, a.t[2] + r}};
  box.add(Box{{b.t[0] - r, b.t[1] - r, b.t[2] - r}, {b.t[0] + r, b.t[1] + r, b.t[2] + r}});
  return box;
}

fcl::Transform3d fcl_tf(const Pose& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  fcl::Matrix3d R;
  R << p.R[0], p.R[1], p.R[2], p.R[3], p.R[4], p.R[5], p.R[6], p.R[7], p.R[8];
  tf.linear() = R;
  tf.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
  return tf;
}

btTransform bt_tf(const Pose& p) {
  const double* R = p.R;
  btMatrix3x3 basis{btScalar(R[0]), btScalar(R[1]), btScalar(R[2]), btScalar(R[3]), btScalar(R[4]),
                    btScalar(R[5]), btScalar(R[6]), btScalar(R[7]), btScalar(R[8])};
  return btTransform(basis, btVector3(btScalar(p.t[0]), btScalar(p.t[1]), btScalar(p.t[2])));
}

// FCL: Convex geometries; translation-only movers with a TranslationMotion (CCDM_TRANS, the
// default), rotating ones with an InterpMotion (CCDM_LINEAR: linear translation, rotation about
// the object's origin along the shortest arc; CCDM_TRANS would drop the rotation).
struct FclCcd {
  std::vector<std::shared_ptr<fcl::CollisionGeometryd>> geometries;
  fcl::CCDSolverType solver;

  FclCcd(const Scene& scene, fcl::CCDSolverType s) : solver(s) {
    for (const Mesh& m : scene.meshes) {
      if (!m.convex) throw std::runtime_error("CCD peers: only convex meshes (" + m.path + ")");
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
      for (const Vec3& p : m.vertices) vertices->emplace_back(p[0], p[1], p[2]);
      auto faces = std::make_shared<std::vector<int>>();
      for (const auto& t : m.triangles) faces->insert(faces->end(), {3, t[0], t[1], t[2]});
      geometries.push_back(std::make_shared<fcl::Convexd>(
          vertices, static_cast<int>(m.triangles.size()), faces));
    }
  }

  bool operator()(const Scene& scene, int m, const Pose& ma, const Pose& mb, int s,
                  const Pose& sp) const {
    fcl::ContinuousCollisionRequestd request;
    request.ccd_solver_type = solver;
    fcl::ContinuousCollisionResultd result;
    fcl::Transform3d a = fcl_tf(ma), b = fcl_tf(mb), st = fcl_tf(sp);
    // The motions built here, not by continuousCollide from the transforms: FCL 0.7's
    // InterpMotion(tf1, tf2) leaves its reference point uninitialised (the rotation then turns
    // about a garbage point: false hits), so the constructor with an explicit origin is used.
    std::unique_ptr<fcl::MotionBase<double>> motion;
    if (rotating(scene.objects[m]))
      motion = std::make_unique<fcl::InterpMotion<double>>(
          fcl::Matrix3d(a.linear()), fcl::Vector3d(a.translation()), fcl::Matrix3d(b.linear()),
          fcl::Vector3d(b.translation()), fcl::Vector3d::Zero());
    else
      motion = std::make_unique<fcl::TranslationMotion<double>>(a, b);
    fcl::TranslationMotion<double> fixed(st, st);
    fcl::continuousCollide(geometries[scene.objects[m].mesh].get(), motion.get(),
                           geometries[scene.objects[s].mesh].get(), &fixed, request, result);
    return result.is_collide;
  }
};

// Bullet: btConvexHullShape (margin 0, as the discrete peer) and btContinuousConvexCollision
// (conservative advancement with GJK; the motion from the two transforms: linear translation,
// shortest-arc rotation about the origin).
struct BulletCcd {
  std::vector<std::unique_ptr<btConvexHullShape>> shapes;

  explicit BulletCcd(const Scene& scene) {
    for (const Mesh& m : scene.meshes) {
      if (!m.convex) throw std::runtime_error("CCD peers: only convex meshes (" + m.path + ")");
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& p : m.vertices)
        hull->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
      hull->recalcLocalAabb();
      hull->setMargin(0);
      shapes.push_back(std::move(hull));
    }
  }

  bool operator()(const Scene& scene, int m, const Pose& ma, const Pose& mb, int s,
                  const Pose& sp) const {
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btContinuousConvexCollision cast(shapes[scene.objects[m].mesh].get(),
                                     shapes[scene.objects[s].mesh].get(), &simplex, &epa);
    btConvexCast::CastResult result;
    btTransform st = bt_tf(sp);
    return cast.calcTimeOfImpact(bt_tf(ma), bt_tf(mb), st, st, result) &&
           result.m_fraction <= btScalar(1);
  }
};

}  // namespace

CcdExpected load_ccd_expected(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SceneError(path + ": cannot open");
  CcdExpected expected;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::vector<std::string> t;
    for (std::string w; words >> w;) t.push_back(w);
    if (t.empty() || t[0][0] == '#' || t[0] == "hits") continue;
    if (t.size() < 4) throw SceneError(path + ":" + std::to_string(number) + ": short line");
    Hit hit{std::stol(t[0]), std::stoi(t[1]), std::stoi(t[2])};
    (t[3] == "A" ? expected.ambiguous : expected.hits).insert(hit);
  }
  return expected;
}

CcdScore score(const CcdRun& run, const CcdExpected& expected) {
  CcdScore s;
  long played = static_cast<long>(run.frame_ms.size());
  s.found = static_cast<long>(run.hits.size());
  for (const Hit& h : run.hits) {
    if (expected.ambiguous.count(h)) ++s.ambiguous;
    else if (!expected.hits.count(h)) ++s.false_hits;
  }
  for (const Hit& h : expected.hits)
    if (std::get<0>(h) < played && !run.hits.count(h)) ++s.missed;
  return s;
}

std::vector<std::string> ccd_methods() { return {"FCL-naive", "FCL-CA", "Bullet"}; }

CcdRun play_ccd(const std::string& method, const Scene& scene, long frames) {
  std::function<bool(int, const Pose&, const Pose&, int, const Pose&)> test;
  if (method == "FCL-naive" || method == "FCL-CA") {
    auto fcl = std::make_shared<FclCcd>(scene, method == "FCL-naive"
                                                   ? fcl::CCDC_NAIVE
                                                   : fcl::CCDC_CONSERVATIVE_ADVANCEMENT);
    test = [fcl, &scene](int m, const Pose& a, const Pose& b, int s, const Pose& sp) {
      return (*fcl)(scene, m, a, b, s, sp);
    };
  } else if (method == "Bullet") {
    auto bullet = std::make_shared<BulletCcd>(scene);
    test = [bullet, &scene](int m, const Pose& a, const Pose& b, int s, const Pose& sp) {
      return (*bullet)(scene, m, a, b, s, sp);
    };
  } else {
    throw std::runtime_error("unknown CCD method " + method);
  }
  CcdRun run;
  run.name = method;
  int n = static_cast<int>(scene.objects.size());
  std::vector<int> movers, statics;
  for (int k = 0; k < n; ++k) (moving(scene.objects[k]) ? movers : statics).push_back(k);
  std::vector<Pose> p0 = poses_at(scene, 0);
  // Static objects never move: their boxes once, untimed.
  std::vector<Box> static_boxes;
  for (int s : statics) static_boxes.push_back(box_of(scene.meshes[scene.objects[s].mesh], p0[s]));
  for (long f = 0; f + 1 < frames; ++f) {
    p0 = poses_at(scene, f);
    std::vector<Pose> p1 = poses_at(scene, f + 1);
    auto start = Clock::now();
    for (int m : movers) {
      Box swept = swept_box(scene, m, p0[m], p1[m]);
      for (size_t i = 0; i < statics.size(); ++i) {
        if (!swept.overlaps(static_boxes[i])) continue;
        int s = statics[i];
        if (test(m, p0[m], p1[m], s, p0[s])) run.hits.insert(Hit{f, m, s});
      }
    }
    run.frame_ms.push_back(Ms(Clock::now() - start).count());
  }
  return run;
}

}  // namespace peers
