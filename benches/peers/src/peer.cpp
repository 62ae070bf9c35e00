#include "peer.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace peers {

long Run::total() const { return std::accumulate(colliding.begin(), colliding.end(), 0L); }

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<Pose> poses_at(const Scene& scene, long frame) {
  std::vector<Pose> poses;
  poses.reserve(scene.objects.size());
  for (const Object& o : scene.objects)
    poses.push_back(
        pose_at(o, scene.meshes[o.mesh].radius, scene.box_min, scene.box_max, frame));
  return poses;
}

Run play(Peer& peer, const Scene& scene, long frames) {
  Run run;
  run.name = peer.name();
  for (long f = 0; f < frames; ++f) {
    peer.set_poses(poses_at(scene, f));
    auto start = std::chrono::steady_clock::now();
    FrameFigures figures = peer.step();
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    run.frame_ms.push_back(elapsed.count());
    if (figures.broad_ms >= 0) run.broad_ms.push_back(figures.broad_ms);
    if (figures.narrow_ms >= 0) run.narrow_ms.push_back(figures.narrow_ms);
    run.colliding.push_back(figures.colliding);
  }
  return run;
}

}  // namespace peers
