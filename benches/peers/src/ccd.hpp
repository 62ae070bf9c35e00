// Continuous collision detection on the CCD scenes (ccd-bullets, ccd-spinners; FORMAT.md,
// "Continuous motion"): every frame interval [f, f+1] through FCL's continuousCollide and
// Bullet's btContinuousConvexCollision, scored against the certified <scene>.ccd-expected.txt
// like the Rust `peers --ccd` (colldet and parry3d-f64): hits found, missed, false, ms/interval.
#pragma once

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "scene.hpp"

namespace peers {

using Hit = std::tuple<long, int, int>;  // interval start frame, mover, static object

struct CcdExpected {
  std::set<Hit> hits;       // certified hits
  std::set<Hit> ambiguous;  // `A` lines: either answer accepted
};

// Reads `path`. Throws SceneError.
CcdExpected load_ccd_expected(const std::string& path);

struct CcdRun {
  std::string name;
  std::vector<double> frame_ms;
  std::set<Hit> hits;
};

struct CcdScore {
  long found = 0, missed = 0, false_hits = 0, ambiguous = 0;
};

CcdScore score(const CcdRun& run, const CcdExpected& expected);

// The CCD methods: "FCL-naive" (continuousCollide's default solver, 10 samples),
// "FCL-CA" (conservative advancement), "Bullet" (btContinuousConvexCollision).
std::vector<std::string> ccd_methods();

// Plays intervals [f, f+1] for f < frames - 1 through `method`. Throws on an unknown method.
CcdRun play_ccd(const std::string& method, const Scene& scene, long frames);

}  // namespace peers
