// Bullet 3 as a peer: btCollisionWorld over btDbvtBroadphase, btConvexHullShape for convex
// meshes, btGImpactMeshShape for the others (surfaces; containment added by solid.hpp). Shapes
// have zero margin; a pair collides when its contact manifold has a point at distance <= 0.
#pragma once

#include <memory>

#include "peer.hpp"

namespace peers {

std::unique_ptr<Peer> make_bullet_peer(const Scene& scene);

}  // namespace peers
