// colldet through its C API (include/colldet.h, libcolldet.a): default configuration
// (sweep-and-prune, automatic method) on the calling thread, one object per scene object, a
// general callback counting the collisions of each check.
#pragma once

#include <memory>

#include "peer.hpp"

namespace peers {

// Throws std::runtime_error with colldet's message when the world rejects the scene.
std::unique_ptr<Peer> make_colldet_peer(const Scene& scene);

}  // namespace peers
