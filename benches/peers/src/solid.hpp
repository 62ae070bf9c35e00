// Solid semantics for libraries that test triangle surfaces only (FCL's BVHModel, Bullet's
// GImpact): when two closed meshes' surfaces are apart, one is inside the other exactly when a
// vertex of it is inside the other. The inside test is the parity of crossings of the ray from
// the point along +x, with triangles bucketed by their (y, z) extent in a grid.
#pragma once

#include <vector>

#include "pose.hpp"
#include "scene.hpp"

namespace peers {

class SolidIndex {
 public:
  explicit SolidIndex(const Mesh& mesh);

  // True when the local point p is strictly inside the closed mesh (points on the surface are
  // decided arbitrarily: callers test surfaces first).
  bool contains(const double p[3]) const;

 private:
  const Mesh* mesh_;
  Vec3 min_{}, max_{};
  int cells_ = 1;
  double cell_y_ = 1.0, cell_z_ = 1.0;
  std::vector<int> start_;      // cells_ * cells_ + 1 offsets into triangles_
  std::vector<int> triangles_;  // triangle indices per cell
};

// True when the solid of `inner_mesh` at pose `inner` lies inside the solid indexed by `outer`
// at pose `outer`, given that their surfaces do not intersect.
bool inside_given_apart(const Mesh& inner_mesh, const Pose& inner, const SolidIndex& outer,
                        const Pose& outer_pose);

}  // namespace peers
