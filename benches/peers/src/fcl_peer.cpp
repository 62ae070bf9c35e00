#include "fcl_peer.hpp"

#include <chrono>
#include <cstdint>
#include <optional>

#include <fcl/fcl.h>

#include "solid.hpp"

namespace peers {
namespace {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::duration<double, std::milli>;

std::shared_ptr<fcl::CollisionGeometryd> make_geometry(const Mesh& mesh) {
  auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
  for (const Vec3& p : mesh.vertices) vertices->emplace_back(p[0], p[1], p[2]);
  if (mesh.convex) {
    auto faces = std::make_shared<std::vector<int>>();
    for (const auto& t : mesh.triangles) faces->insert(faces->end(), {3, t[0], t[1], t[2]});
    return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(mesh.triangles.size()),
                                          faces);
  }
  auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Triangle> triangles;
  for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  model->beginModel();
  model->addSubModel(*vertices, triangles);
  model->endModel();
  return model;
}

class FclPeer : public Peer {
 public:
  explicit FclPeer(const Scene& scene) : scene_(scene) {
    for (const Mesh& m : scene.meshes) {
      geometries_.push_back(make_geometry(m));
      solids_.emplace_back();
      if (!m.convex) solids_.back().emplace(m);
    }
    for (size_t k = 0; k < scene.objects.size(); ++k) {
      objects_.push_back(
          std::make_unique<fcl::CollisionObjectd>(geometries_[scene.objects[k].mesh]));
      objects_.back()->setUserData(reinterpret_cast<void*>(static_cast<std::uintptr_t>(k)));
      raw_.push_back(objects_.back().get());
    }
    set_poses(poses_at(scene, 0));
    for (auto& o : objects_) o->computeAABB();
    manager_.registerObjects(raw_);
    manager_.setup();
  }

  const char* name() const override { return "FCL"; }

  void set_poses(const std::vector<Pose>& poses) override {
    poses_ = poses;
    for (size_t k = 0; k < poses.size(); ++k) {
      const double* R = poses[k].R;
      fcl::Matrix3d rotation;
      rotation << R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8];
      objects_[k]->setTransform(rotation,
                                fcl::Vector3d(poses[k].t[0], poses[k].t[1], poses[k].t[2]));
    }
  }

  FrameFigures step() override {
    auto start = Clock::now();
    for (auto& o : objects_) o->computeAABB();
    // Re-inserts every moved leaf, then rebalances: FCL's update for moving objects. (The
    // argument-free update() only refits the first frame's tree, whose quality decays as the
    // objects travel: 20x slower on broad-10k.)
    manager_.update(raw_);
    colliding_ = 0;
    narrow_ms_ = 0.0;
    manager_.collide(this, &FclPeer::on_pair);
    FrameFigures figures;
    figures.narrow_ms = narrow_ms_;
    figures.broad_ms = Ms(Clock::now() - start).count() - narrow_ms_;
    figures.colliding = colliding_;
    return figures;
  }

 private:
  static size_t id(const fcl::CollisionObjectd* o) {
    return static_cast<size_t>(reinterpret_cast<std::uintptr_t>(o->getUserData()));
  }

  // The manager's callback for a pair whose boxes overlap: the exact test, timed as narrow phase.
  static bool on_pair(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
    auto* self = static_cast<FclPeer*>(data);
    auto start = Clock::now();
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    fcl::collide(o1, o2, request, result);
    bool touching = result.isCollision();
    if (!touching) touching = self->contained(id(o1), id(o2));
    self->colliding_ += touching;
    self->narrow_ms_ += Ms(Clock::now() - start).count();
    return false;  // never stop early
  }

  // Solid semantics for meshes whose surfaces are apart: is one inside the other?
  bool contained(size_t a, size_t b) const {
    int ma = scene_.objects[a].mesh, mb = scene_.objects[b].mesh;
    if (scene_.meshes[ma].convex && scene_.meshes[mb].convex) return false;
    return (solids_[mb] && inside_given_apart(scene_.meshes[ma], poses_[a], *solids_[mb], poses_[b])) ||
           (solids_[ma] && inside_given_apart(scene_.meshes[mb], poses_[b], *solids_[ma], poses_[a]));
  }

  const Scene& scene_;
  std::vector<std::shared_ptr<fcl::CollisionGeometryd>> geometries_;
  std::vector<std::optional<SolidIndex>> solids_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects_;
  std::vector<fcl::CollisionObjectd*> raw_;
  std::vector<Pose> poses_;
  fcl::DynamicAABBTreeCollisionManagerd manager_;
  long colliding_ = 0;
  double narrow_ms_ = 0.0;
};

}  // namespace

std::unique_ptr<Peer> make_fcl_peer(const Scene& scene) { return std::make_unique<FclPeer>(scene); }

}  // namespace peers
