// What every library under test provides, and the loop that plays a scene through one of them.
#pragma once

#include <string>
#include <vector>

#include "pose.hpp"
#include "scene.hpp"

namespace peers {

struct FrameFigures {
  double broad_ms = -1.0;  // < 0: the library does not split its time
  double narrow_ms = -1.0;
  long colliding = 0;  // unordered pairs of objects whose solids touch
};

class Peer {
 public:
  virtual ~Peer() = default;
  virtual const char* name() const = 0;
  // Sets every object's pose (not timed: the motion is not the library's work).
  virtual void set_poses(const std::vector<Pose>& poses) = 0;
  // Finds the colliding pairs at the poses last set (timed).
  virtual FrameFigures step() = 0;
};

struct Run {
  std::string name;
  std::vector<double> frame_ms, broad_ms, narrow_ms;
  std::vector<long> colliding;
  long total() const;
};

double median(std::vector<double> values);  // 0 when empty

// Every object's pose at `frame`. Peers start from frame 0's poses: objects left at the origin
// until the first frame would all overlap (Bullet's broad phase then makes n^2/2 pairs).
std::vector<Pose> poses_at(const Scene& scene, long frame);

// Plays the first `frames` frames of `scene` through `peer`.
Run play(Peer& peer, const Scene& scene, long frames);

}  // namespace peers
