#include "distance.hpp"

#include <colldet.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fcl/fcl.h>

#include "peer.hpp"
#include "pose.hpp"
#include "scene.hpp"

namespace peers {
namespace {

using Clock = std::chrono::steady_clock;
using Us = std::chrono::duration<double, std::micro>;

struct GapPoses {
  double gap = 0.0;
  std::vector<Pose> poses;
  std::vector<double> distances;  // exact surface distance at each pose (the file's)
};

struct PairPoses {
  std::string a, b;
  std::vector<GapPoses> gaps;
};

std::vector<PairPoses> read_poses(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<PairPoses> pairs;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "pair") {
      pairs.emplace_back();
      s >> pairs.back().a >> pairs.back().b;
    } else if (key == "gap" && !pairs.empty()) {
      pairs.back().gaps.emplace_back();
      s >> pairs.back().gaps.back().gap;
    } else if (key == "pose" && !pairs.empty() && !pairs.back().gaps.empty()) {
      Pose p{};
      double d = 0.0;
      s >> p.q[0] >> p.q[1] >> p.q[2] >> p.q[3] >> p.t[0] >> p.t[1] >> p.t[2] >> d;
      if (!s) throw std::runtime_error(path + ": bad pose line: " + line);
      quat_to_matrix(p.q, p.R);
      pairs.back().gaps.back().poses.push_back(p);
      pairs.back().gaps.back().distances.push_back(d);
    }
  }
  return pairs;
}

// The mesh with its vertices rounded to float, as colldet stores them (so every library
// measures the same triangles).
Mesh rounded(Mesh m) {
  for (Vec3& p : m.vertices)
    for (double& c : p) c = static_cast<double>(static_cast<float>(c));
  return m;
}

template <typename BV>
std::shared_ptr<fcl::BVHModel<BV>> fcl_model(const Mesh& mesh) {
  std::vector<fcl::Vector3d> vertices;
  for (const Vec3& p : mesh.vertices) vertices.emplace_back(p[0], p[1], p[2]);
  std::vector<fcl::Triangle> triangles;
  for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel();
  model->addSubModel(vertices, triangles);
  model->endModel();
  return model;
}

fcl::Transform3d fcl_pose(const Pose& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  fcl::Matrix3d R;
  R << p.R[0], p.R[1], p.R[2], p.R[3], p.R[4], p.R[5], p.R[6], p.R[7], p.R[8];
  tf.linear() = R;
  tf.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
  return tf;
}

// A column-major 4x4 matrix of the pose, as colSetTransformd takes it.
void col_matrix(const Pose& p, double m[16]) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) m[c * 4 + r] = p.R[r * 3 + c];
    m[c * 4 + 3] = 0.0;
  }
  for (int r = 0; r < 3; ++r) m[12 + r] = p.t[r];
  m[15] = 1.0;
}

void check(ColStatus s, ColWorld* w, const char* what) {
  if (s != COL_OK) {
    const char* msg = w ? colLastError(w) : "";
    throw std::runtime_error(std::string(what) + ": " + (msg ? msg : ""));
  }
}

// Two objects of a colldet world (b moves).
struct ColldetPair {
  ColWorld* world = nullptr;
  ColObjectId a = 0, b = 0;
  std::vector<float> va, vb;
  std::vector<uint32_t> ia, ib;

  ColldetPair(const Mesh& ma, const Mesh& mb) {
    ColConfig config = colDefaultConfig();
    config.flags = 0;
    check(colInit(&config, &world), nullptr, "colInit");
    a = add(ma, va, ia);
    b = add(mb, vb, ib);
    check(colStart(world), world, "colStart");
  }
  ~ColldetPair() { colExit(world); }
  ColldetPair(const ColldetPair&) = delete;
  ColldetPair& operator=(const ColldetPair&) = delete;

  ColObjectId add(const Mesh& m, std::vector<float>& v, std::vector<uint32_t>& idx) {
    for (const Vec3& p : m.vertices) v.insert(v.end(), {float(p[0]), float(p[1]), float(p[2])});
    for (const auto& t : m.triangles) idx.insert(idx.end(), {uint32_t(t[0]), uint32_t(t[1]), uint32_t(t[2])});
    ColMeshDesc desc{v.data(), m.vertices.size(), idx.data(), nullptr, m.triangles.size()};
    ColObjectId id = 0;
    check(colMakeCollidable(world, &desc, nullptr, &id), world, "colMakeCollidable");
    return id;
  }

  void place(const Pose& p) {
    double m[16];
    col_matrix(p, m);
    check(colSetTransformd(world, b, m), world, "colSetTransformd");
  }
};

// Median microseconds per query of `query(k)` over `repeats` rounds of every pose k (each
// round timed as a whole, divided by the pose count).
template <typename F>
double time_us(size_t poses, long repeats, F&& query) {
  std::vector<double> rounds;
  for (long r = 0; r < repeats; ++r) {
    auto start = Clock::now();
    for (size_t k = 0; k < poses; ++k) query(k);
    rounds.push_back(Us(Clock::now() - start).count() / double(poses));
  }
  return median(rounds);
}

}  // namespace

int main_distance(const std::string& poses_path, const std::string& mesh_dir, long repeats) {
  std::vector<PairPoses> pairs;
  try {
    pairs = read_poses(poses_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "peers: %s\n", e.what());
    return 1;
  }
  bool failed = false;
  std::vector<std::string> rows;
  for (const PairPoses& pair : pairs) {
    Mesh ma, mb;
    try {
      ma = rounded(load_off(mesh_dir + "/" + pair.a, false));
      mb = rounded(load_off(mesh_dir + "/" + pair.b, false));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "peers: %s\n", e.what());
      failed = true;
      continue;
    }
    ColldetPair col(ma, mb);
    auto rss_a = fcl_model<fcl::RSSd>(ma), rss_b = fcl_model<fcl::RSSd>(mb);
    auto obbrss_a = fcl_model<fcl::OBBRSSd>(ma), obbrss_b = fcl_model<fcl::OBBRSSd>(mb);
    std::string name = pair.a.substr(0, pair.a.find('.')) + "-" + pair.b.substr(0, pair.b.find('.'));
    std::printf("pair %s (%zu and %zu triangles): us per query (median of %ld rounds)\n",
                name.c_str(), ma.triangles.size(), mb.triangles.size(), repeats);
    std::printf("  %-8s %12s %12s %12s %12s %12s %10s %10s\n", "gap", "colldet", "within 0.5g",
                "within 2g", "FCL RSS", "FCL OBBRSS", "RSS/col", "max err");
    for (const GapPoses& g : pair.gaps) {
      size_t n = g.poses.size();
      double max_err = 0.0;
      auto note = [&](double got, size_t k) {
        max_err = std::max(max_err, std::fabs(got - g.distances[k]));
      };
      // Answers first (untimed): every library against the file's exact distance.
      fcl::DistanceRequestd request;
      request.enable_nearest_points = true;
      for (size_t k = 0; k < n; ++k) {
        col.place(g.poses[k]);
        ColProximity out;
        check(colDistance(col.world, col.a, col.b, &out), col.world, "colDistance");
        note(out.distance, k);
        for (int v = 0; v < 2; ++v) {
          fcl::DistanceResultd result;
          if (v == 0)
            fcl::distance(rss_a.get(), fcl::Transform3d::Identity(), rss_b.get(), fcl_pose(g.poses[k]), request, result);
          else
            fcl::distance(obbrss_a.get(), fcl::Transform3d::Identity(), obbrss_b.get(), fcl_pose(g.poses[k]), request, result);
          note(result.min_distance, k);
        }
      }
      // Poses are set outside the timed loop for FCL (a transform per call); colldet's
      // colSetTransformd is inside (it is part of a query through the C API).
      ColProximity out;
      double col_us = time_us(n, repeats, [&](size_t k) {
        col.place(g.poses[k]);
        colDistance(col.world, col.a, col.b, &out);
      });
      int32_t within = 0;
      double half_us = time_us(n, repeats, [&](size_t k) {
        col.place(g.poses[k]);
        colWithinDistance(col.world, col.a, col.b, 0.5 * g.gap, &within);
      });
      double twice_us = time_us(n, repeats, [&](size_t k) {
        col.place(g.poses[k]);
        colWithinDistance(col.world, col.a, col.b, 2.0 * g.gap, &within);
      });
      std::vector<fcl::Transform3d> tfs;
      for (const Pose& p : g.poses) tfs.push_back(fcl_pose(p));
      double rss_us = time_us(n, repeats, [&](size_t k) {
        fcl::DistanceResultd result;
        fcl::distance(rss_a.get(), fcl::Transform3d::Identity(), rss_b.get(), tfs[k], request, result);
      });
      double obbrss_us = time_us(n, repeats, [&](size_t k) {
        fcl::DistanceResultd result;
        fcl::distance(obbrss_a.get(), fcl::Transform3d::Identity(), obbrss_b.get(), tfs[k], request, result);
      });
      std::printf("  %-8g %12.1f %12.1f %12.1f %12.1f %12.1f %9.2fx %10.1e\n", g.gap, col_us,
                  half_us, twice_us, rss_us, obbrss_us, rss_us / col_us, max_err);
      std::fflush(stdout);
      if (max_err > 2e-6) {
        std::printf("  DISAGREE: a distance is %g off the exact one\n", max_err);
        failed = true;
      }
      char row[256];
      std::snprintf(row, sizeof row, "| %s | %g | %.1f | %.1f | %.1f | %.1f | %.1f | %.2fx |",
                    name.c_str(), g.gap, col_us, half_us, twice_us, rss_us, obbrss_us,
                    rss_us / col_us);
      rows.push_back(row);
    }
    std::printf("\n");
  }
  std::printf("| pair | gap | colldet distance us | within 0.5 gap us | within 2 gap us | FCL RSS us | FCL OBBRSS us | FCL RSS / colldet |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
  return failed ? 1 : 0;
}

}  // namespace peers
