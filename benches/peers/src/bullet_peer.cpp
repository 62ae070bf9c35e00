#include "bullet_peer.hpp"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

#include "solid.hpp"

namespace peers {
namespace {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::duration<double, std::milli>;

class BulletPeer : public Peer {
 public:
  explicit BulletPeer(const Scene& scene) : scene_(scene) {
    btGImpactCollisionAlgorithm::registerAlgorithm(&dispatcher_);
    for (const Mesh& m : scene.meshes) {
      shapes_.push_back(make_shape(m));
      solids_.emplace_back();
      if (!m.convex) solids_.back().emplace(m);
    }
    for (size_t k = 0; k < scene.objects.size(); ++k) {
      auto object = std::make_unique<btCollisionObject>();
      object->setCollisionShape(shapes_[scene.objects[k].mesh].get());
      object->setUserIndex(static_cast<int>(k));
      objects_.push_back(std::move(object));
    }
    set_poses(poses_at(scene, 0));  // before adding: the broad phase pairs objects on insertion
    for (auto& object : objects_) world_.addCollisionObject(object.get());
  }

  ~BulletPeer() override {
    for (auto& o : objects_) world_.removeCollisionObject(o.get());
  }

  const char* name() const override { return "Bullet"; }

  void set_poses(const std::vector<Pose>& poses) override {
    poses_ = poses;
    for (size_t k = 0; k < poses.size(); ++k) {
      const double* R = poses[k].R;
      btMatrix3x3 basis{btScalar(R[0]), btScalar(R[1]), btScalar(R[2]),
                        btScalar(R[3]), btScalar(R[4]), btScalar(R[5]),
                        btScalar(R[6]), btScalar(R[7]), btScalar(R[8])};
      btVector3 origin{btScalar(poses[k].t[0]), btScalar(poses[k].t[1]), btScalar(poses[k].t[2])};
      objects_[k]->setWorldTransform(btTransform(basis, origin));
    }
  }

  FrameFigures step() override {
    auto start = Clock::now();
    world_.updateAabbs();
    world_.computeOverlappingPairs();
    auto broad_end = Clock::now();
    dispatcher_.dispatchAllCollisionPairs(broadphase_.getOverlappingPairCache(),
                                          world_.getDispatchInfo(), &dispatcher_);
    touching_.clear();
    for (int i = 0; i < dispatcher_.getNumManifolds(); ++i) {
      const btPersistentManifold* m = dispatcher_.getManifoldByIndexInternal(i);
      for (int c = 0; c < m->getNumContacts(); ++c)
        if (m->getContactPoint(c).getDistance() <= 0) {
          touching_.push_back(key(m->getBody0()->getUserIndex(), m->getBody1()->getUserIndex()));
          break;
        }
    }
    std::sort(touching_.begin(), touching_.end());
    touching_.erase(std::unique(touching_.begin(), touching_.end()), touching_.end());
    long colliding = static_cast<long>(touching_.size());
    // Solid semantics: broad-phase pairs with a mesh and no touching surfaces.
    btBroadphasePairArray& pairs = broadphase_.getOverlappingPairCache()->getOverlappingPairArray();
    for (int i = 0; i < pairs.size(); ++i) {
      int a = static_cast<btCollisionObject*>(pairs[i].m_pProxy0->m_clientObject)->getUserIndex();
      int b = static_cast<btCollisionObject*>(pairs[i].m_pProxy1->m_clientObject)->getUserIndex();
      int ma = scene_.objects[a].mesh, mb = scene_.objects[b].mesh;
      if (scene_.meshes[ma].convex && scene_.meshes[mb].convex) continue;
      if (std::binary_search(touching_.begin(), touching_.end(), key(a, b))) continue;
      colliding += contained(a, b);
    }
    FrameFigures figures;
    figures.broad_ms = Ms(broad_end - start).count();
    figures.narrow_ms = Ms(Clock::now() - broad_end).count();
    figures.colliding = colliding;
    return figures;
  }

 private:
  static std::pair<int, int> key(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

  std::unique_ptr<btCollisionShape> make_shape(const Mesh& m) {
    if (m.convex) {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& p : m.vertices)
        hull->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
      hull->recalcLocalAabb();
      hull->setMargin(0);
      return hull;
    }
    auto& vertices = vertex_storage_.emplace_back();
    for (const Vec3& p : m.vertices)
      vertices.insert(vertices.end(), {btScalar(p[0]), btScalar(p[1]), btScalar(p[2])});
    auto& indices = index_storage_.emplace_back();
    for (const auto& t : m.triangles) indices.insert(indices.end(), {t[0], t[1], t[2]});
    arrays_.push_back(std::make_unique<btTriangleIndexVertexArray>(
        static_cast<int>(m.triangles.size()), indices.data(), 3 * sizeof(int),
        static_cast<int>(m.vertices.size()), vertices.data(), 3 * sizeof(btScalar)));
    auto shape = std::make_unique<btGImpactMeshShape>(arrays_.back().get());
    shape->setMargin(0);
    shape->updateBound();
    return shape;
  }

  bool contained(int a, int b) const {
    int ma = scene_.objects[a].mesh, mb = scene_.objects[b].mesh;
    return (solids_[mb] && inside_given_apart(scene_.meshes[ma], poses_[a], *solids_[mb], poses_[b])) ||
           (solids_[ma] && inside_given_apart(scene_.meshes[mb], poses_[b], *solids_[ma], poses_[a]));
  }

  const Scene& scene_;
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_{&configuration_};
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_{&dispatcher_, &broadphase_, &configuration_};
  std::vector<std::vector<btScalar>> vertex_storage_;
  std::vector<std::vector<int>> index_storage_;
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> arrays_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::optional<SolidIndex>> solids_;
  std::vector<std::unique_ptr<btCollisionObject>> objects_;
  std::vector<Pose> poses_;
  std::vector<std::pair<int, int>> touching_;
};

}  // namespace

std::unique_ptr<Peer> make_bullet_peer(const Scene& scene) {
  return std::make_unique<BulletPeer>(scene);
}

}  // namespace peers
