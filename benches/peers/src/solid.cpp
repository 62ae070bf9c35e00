#include "solid.hpp"

#include <algorithm>
#include <cmath>

namespace peers {

SolidIndex::SolidIndex(const Mesh& mesh) : mesh_(&mesh) {
  min_ = max_ = mesh.vertices.empty() ? Vec3{0, 0, 0} : mesh.vertices[0];
  for (const Vec3& p : mesh.vertices)
    for (int c = 0; c < 3; ++c) {
      min_[c] = std::min(min_[c], p[c]);
      max_[c] = std::max(max_[c], p[c]);
    }
  cells_ = std::clamp(static_cast<int>(std::sqrt(mesh.triangles.size() / 4.0)), 1, 256);
  cell_y_ = (max_[1] - min_[1]) / cells_;
  cell_z_ = (max_[2] - min_[2]) / cells_;
  if (!(cell_y_ > 0.0)) cell_y_ = 1.0;
  if (!(cell_z_ > 0.0)) cell_z_ = 1.0;
  auto cell = [&](double v, double lo, double size) {
    return std::clamp(static_cast<int>((v - lo) / size), 0, cells_ - 1);
  };
  // Two passes: count per cell, then fill.
  std::vector<int> count(cells_ * cells_ + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill = start_;
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
      double y0 = 1e300, y1 = -1e300, z0 = 1e300, z1 = -1e300;
      for (int k : mesh.triangles[t]) {
        y0 = std::min(y0, mesh.vertices[k][1]); y1 = std::max(y1, mesh.vertices[k][1]);
        z0 = std::min(z0, mesh.vertices[k][2]); z1 = std::max(z1, mesh.vertices[k][2]);
      }
      for (int i = cell(y0, min_[1], cell_y_); i <= cell(y1, min_[1], cell_y_); ++i)
        for (int j = cell(z0, min_[2], cell_z_); j <= cell(z1, min_[2], cell_z_); ++j) {
          if (pass == 0) ++count[i * cells_ + j + 1];
          else triangles_[fill[i * cells_ + j]++] = static_cast<int>(t);
        }
    }
    if (pass == 0) {
      for (size_t c = 1; c < count.size(); ++c) count[c] += count[c - 1];
      start_ = count;
      triangles_.assign(count.back(), 0);
    }
  }
}

bool SolidIndex::contains(const double p[3]) const {
  for (int c = 0; c < 3; ++c)
    if (!(p[c] >= min_[c] && p[c] <= max_[c])) return false;
  int i = std::clamp(static_cast<int>((p[1] - min_[1]) / cell_y_), 0, cells_ - 1);
  int j = std::clamp(static_cast<int>((p[2] - min_[2]) / cell_z_), 0, cells_ - 1);
  int c = i * cells_ + j;
  bool inside = false;
  for (int k = start_[c]; k < start_[c + 1]; ++k) {
    const auto& tri = mesh_->triangles[triangles_[k]];
    const Vec3& a = mesh_->vertices[tri[0]];
    const Vec3& b = mesh_->vertices[tri[1]];
    const Vec3& d = mesh_->vertices[tri[2]];
    // Signed areas of the (y, z) projections of the sub-triangles opposite each vertex.
    auto area = [&](const Vec3& u, const Vec3& v) {
      return (u[1] - p[1]) * (v[2] - p[2]) - (u[2] - p[2]) * (v[1] - p[1]);
    };
    double wa = area(b, d), wb = area(d, a), wd = area(a, b);
    bool all_pos = wa > 0 && wb > 0 && wd > 0, all_neg = wa < 0 && wb < 0 && wd < 0;
    if (!all_pos && !all_neg) continue;
    double x = (wa * a[0] + wb * b[0] + wd * d[0]) / (wa + wb + wd);
    if (x > p[0]) inside = !inside;
  }
  return inside;
}

bool inside_given_apart(const Mesh& inner_mesh, const Pose& inner, const SolidIndex& outer,
                        const Pose& outer_pose) {
  if (inner_mesh.vertices.empty()) return false;
  const Vec3& v = inner_mesh.vertices[0];
  const double* R = inner.R;
  double world[3], rel[3], local[3];
  for (int r = 0; r < 3; ++r)
    world[r] = R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2] + inner.t[r];
  for (int r = 0; r < 3; ++r) rel[r] = world[r] - outer_pose.t[r];
  const double* S = outer_pose.R;  // local = S^T (world - t)
  for (int c = 0; c < 3; ++c) local[c] = S[c] * rel[0] + S[3 + c] * rel[1] + S[6 + c] * rel[2];
  return outer.contains(local);
}

}  // namespace peers
