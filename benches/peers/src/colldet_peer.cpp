#include "colldet_peer.hpp"

#include <colldet.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace peers {
namespace {

class ColldetPeer : public Peer {
 public:
  explicit ColldetPeer(const Scene& scene) {
    ColConfig config = colDefaultConfig();
    config.flags = 0;  // every exact test on the calling thread, as the other libraries run
    for (int c = 0; c < 3; ++c) {
      config.universe_min[c] = scene.box_min[c];
      config.universe_max[c] = scene.box_max[c];
    }
    check(colInit(&config, &world_), nullptr);
    std::vector<std::vector<float>> vertices(scene.meshes.size());
    std::vector<std::vector<uint32_t>> indices(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
      for (const Vec3& p : scene.meshes[m].vertices)
        vertices[m].insert(vertices[m].end(), {float(p[0]), float(p[1]), float(p[2])});
      for (const auto& t : scene.meshes[m].triangles)
        indices[m].insert(indices[m].end(),
                          {uint32_t(t[0]), uint32_t(t[1]), uint32_t(t[2])});
    }
    // The first object of each mesh copies it; the others are instances sharing it, as the
    // other libraries share one collision shape per mesh.
    std::vector<ColObjectId> first_of_mesh(scene.meshes.size(), 0);
    for (const Object& o : scene.objects) {
      ColObjectId id = 0;
      if (first_of_mesh[o.mesh] != 0) {
        check(colMakeInstance(world_, first_of_mesh[o.mesh], nullptr, &id), world_);
      } else {
        ColMeshDesc desc{vertices[o.mesh].data(), scene.meshes[o.mesh].vertices.size(),
                         indices[o.mesh].data(), nullptr, scene.meshes[o.mesh].triangles.size()};
        check(colMakeCollidable(world_, &desc, nullptr, &id), world_);
        first_of_mesh[o.mesh] = id;
      }
      ids_.push_back(id);
    }
    set_poses(poses_at(scene, 0));  // the broad phase starts from frame 0
    check(colSetGeneralCallback(world_, &ColldetPeer::on_collision, this), world_);
    check(colStart(world_), world_);
  }

  ~ColldetPeer() override { colExit(world_); }

  const char* name() const override { return "colldet"; }

  void set_poses(const std::vector<Pose>& poses) override {
    for (size_t k = 0; k < poses.size(); ++k) {
      const Pose& p = poses[k];
      // Column-major 4x4, m[col * 4 + row].
      double m[16] = {p.R[0], p.R[3], p.R[6], 0.0, p.R[1], p.R[4], p.R[7], 0.0,
                      p.R[2], p.R[5], p.R[8], 0.0, p.t[0], p.t[1], p.t[2], 1.0};
      check(colSetTransformd(world_, ids_[k], m), world_);
    }
  }

  FrameFigures step() override {
    colliding_ = 0;
    check(colCheck(world_), world_);
    FrameFigures figures;  // the C API does not split broad and narrow phase
    figures.colliding = colliding_;
    return figures;
  }

 private:
  // Every object moves every frame, so every colliding pair is a new collision.
  static void on_collision(const ColCollision*, void* user) {
    ++static_cast<ColldetPeer*>(user)->colliding_;
  }

  static void check(ColStatus status, const ColWorld* world) {
    if (status != COL_OK)
      throw std::runtime_error(std::string("colldet: ") + colStatusString(status) + ": " +
                               colLastError(world));
  }

  ColWorld* world_ = nullptr;
  std::vector<ColObjectId> ids_;
  long colliding_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_colldet_peer(const Scene& scene) {
  return std::make_unique<ColldetPeer>(scene);
}

}  // namespace peers
