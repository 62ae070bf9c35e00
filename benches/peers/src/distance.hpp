// --distance: mesh-mesh distance per query, colldet (C API colDistance, colWithinDistance)
// against FCL's fcl::distance on BVHModel<RSS> and BVHModel<OBBRSS>, on the zoo mesh pairs and
// poses of a poses file (test/zoo-distance.poses, written by colldet-narrow's
// zoo_distance_poses example; the Rust benches read the same file).
#pragma once

#include <string>

namespace peers {

// Prints, per pair and gap, the median microseconds per query of each library and the largest
// relative difference of their distances from the file's exact one; then a Markdown table.
// Returns 1 when a file cannot be read or a library's distance is off by more than 1e-6 of
// the pair's size (2), else 0.
int main_distance(const std::string& poses_path, const std::string& mesh_dir, long repeats);

}  // namespace peers
