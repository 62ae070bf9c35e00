// FCL 0.7 as a peer: DynamicAABBTreeCollisionManager, Convex for convex meshes,
// BVHModel<OBBRSS> for the others (surfaces; containment added by solid.hpp).
#pragma once

#include <memory>
#include <vector>

#include "peer.hpp"

namespace peers {

std::unique_ptr<Peer> make_fcl_peer(const Scene& scene);

}  // namespace peers
