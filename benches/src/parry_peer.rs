//! parry3d as a peer, in both precisions (`parry3d-f64`, and `parry3d` in `f32`, its fastest
//! configuration), used the way rapier uses it: a dynamic `Bvh` over the world boxes (leaves
//! updated in place, refitted and incrementally optimised every frame, then traversed against
//! itself), then `query::intersection_test` on each overlapping pair. The two peers are one
//! source (`parry_peer!`) instantiated per crate; the `f32` one gets the scene's `f64` poses and
//! vertices rounded to `f32`, so near-touching pairs may differ from the exact totals.
//!
//! Convex meshes become `ConvexPolyhedron`s (hull of the file's vertices). Other meshes become
//! oriented `TriMesh`es; parry tests their surfaces only, so for colldet's solid semantics a
//! pair whose surfaces are apart is also tested for containment: one object is inside the other
//! exactly when its box is inside the other's box and one of its vertices is inside the other
//! (pseudo-normal inside test).

/// One parry peer type `$peer` named `$name`, built on crate `$krate` with scalar `$real`;
/// `$exact` is false when `$real` rounds the scene ([`Peer::exact`](crate::Peer::exact)).
macro_rules! parry_peer {
    ($krate:ident, $real:ty, $peer:ident, $name:literal, $exact:literal) => {
        use std::time::Instant;

        use colldet_cli::scene::ScenePose;
        use $krate::bounding_volume::Aabb;
        use $krate::math::{Pose, Rotation, Vector};
        use $krate::partitioning::{Bvh, BvhWorkspace};
        use $krate::query;
        use $krate::shape::{ConvexPolyhedron, Shape, TriMesh, TriMeshFlags};

        use $crate::error::PeerError;
        use $crate::peer::{FrameFigures, Peer};
        use $crate::scene_data::{PeerMesh, PeerScene};

        /// One scene mesh as a parry shape.
        enum ParryShape {
            /// A convex polytope (solid).
            Convex(ConvexPolyhedron),
            /// A closed, outward-oriented triangle mesh (surface; containment tested separately).
            Mesh(TriMesh),
        }

        impl ParryShape {
            fn build(mesh: &PeerMesh) -> Result<Self, PeerError> {
                let points: Vec<Vector> = mesh
                    .positions
                    .iter()
                    .map(|p| Vector::new(p[0] as $real, p[1] as $real, p[2] as $real))
                    .collect();
                let error = |message: String| PeerError::ParryShape {
                    path: mesh.path.clone(),
                    message,
                };
                if mesh.convex {
                    ConvexPolyhedron::from_convex_hull(&points)
                        .map(Self::Convex)
                        .ok_or_else(|| error("degenerate convex hull".into()))
                } else {
                    TriMesh::with_flags(points, mesh.triangles.clone(), TriMeshFlags::ORIENTED)
                        .map(Self::Mesh)
                        .map_err(|e| error(format!("{e:?}")))
                }
            }

            fn shape(&self) -> &dyn Shape {
                match self {
                    Self::Convex(c) => c,
                    Self::Mesh(m) => m,
                }
            }

            /// A point of the shape's surface, in its local frame.
            fn surface_point(&self) -> Vector {
                match self {
                    Self::Convex(c) => c.points()[0],
                    Self::Mesh(m) => m.vertices()[0],
                }
            }
        }

        /// A parry collision setup holding a scene's objects.
        pub struct $peer {
            shapes: Vec<ParryShape>,
            /// Mesh index of each object.
            mesh_of: Vec<usize>,
            poses: Vec<Pose>,
            boxes: Vec<Aabb>,
            bvh: Bvh,
            workspace: BvhWorkspace,
            candidates: Vec<(u32, u32)>,
        }

        /// True when `inner` lies inside `outer` (closed boxes).
        fn box_inside(inner: &Aabb, outer: &Aabb) -> bool {
            inner.mins.cmpge(outer.mins).all() && inner.maxs.cmple(outer.maxs).all()
        }

        impl $peer {
            /// Builds one parry shape per scene mesh; objects share them.
            ///
            /// # Errors
            /// [`PeerError::ParryShape`] when parry rejects a mesh.
            pub fn new(scene: &PeerScene) -> Result<Self, PeerError> {
                let shapes = scene
                    .meshes
                    .iter()
                    .map(ParryShape::build)
                    .collect::<Result<Vec<_>, _>>()?;
                let n = scene.object_count();
                Ok(Self {
                    shapes,
                    mesh_of: scene.scene.objects.iter().map(|o| o.mesh).collect(),
                    poses: vec![Pose::IDENTITY; n],
                    boxes: Vec::with_capacity(n),
                    bvh: Bvh::new(),
                    workspace: BvhWorkspace::default(),
                    candidates: Vec::new(),
                })
            }

            /// True when the solids of objects `a` and `b` touch.
            fn solids_touch(&self, a: usize, b: usize) -> Result<bool, PeerError> {
                let (sa, sb) = (&self.shapes[self.mesh_of[a]], &self.shapes[self.mesh_of[b]]);
                let (pa, pb) = (&self.poses[a], &self.poses[b]);
                let surfaces = query::intersection_test(pa, sa.shape(), pb, sb.shape())
                    .map_err(|_| PeerError::ParryUnsupported)?
                    .intersecting;
                if surfaces
                    || (matches!(sa, ParryShape::Convex(_)) && matches!(sb, ParryShape::Convex(_)))
                {
                    return Ok(surfaces);
                }
                let inside = |inner: usize, si: &ParryShape, outer: &ParryShape, po: &Pose| {
                    box_inside(
                        &self.boxes[inner],
                        &self.boxes[if inner == a { b } else { a }],
                    ) && outer
                        .shape()
                        .contains_point(po, self.poses[inner] * si.surface_point())
                };
                Ok(inside(a, sa, sb, pb) || inside(b, sb, sa, pa))
            }

            /// The colliding pairs at the poses last set, `(a, b)` with `a < b`, sorted.
            ///
            /// # Errors
            /// [`PeerError::ParryUnsupported`].
            pub fn colliding_pairs(&mut self) -> Result<Vec<(usize, usize)>, PeerError> {
                let mut pairs = Vec::new();
                self.find(Some(&mut pairs))?;
                pairs.sort_unstable();
                Ok(pairs)
            }

            /// parry's distance between objects `a` and `b` at the poses last set (0 when they
            /// intersect; for triangle meshes, between their surfaces).
            ///
            /// # Errors
            /// [`PeerError::ParryUnsupported`].
            pub fn distance(&self, a: usize, b: usize) -> Result<f64, PeerError> {
                let (sa, sb) = (&self.shapes[self.mesh_of[a]], &self.shapes[self.mesh_of[b]]);
                query::distance(&self.poses[a], sa.shape(), &self.poses[b], sb.shape())
                    .map(|d| f64::from(d.distance))
                    .map_err(|_| PeerError::ParryUnsupported)
            }

            /// Updates the boxes and the BVH, then tests every overlapping pair; the colliding ones go
            /// to `found` when given.
            fn find(
                &mut self,
                mut found: Option<&mut Vec<(usize, usize)>>,
            ) -> Result<FrameFigures, PeerError> {
                let start = Instant::now();
                self.boxes.clear();
                for (k, pose) in self.poses.iter().enumerate() {
                    let aabb = self.shapes[self.mesh_of[k]].shape().compute_aabb(pose);
                    self.boxes.push(aabb);
                    self.bvh.insert_or_update_partially(aabb, k as u32, 0.0);
                }
                self.bvh.refit(&mut self.workspace);
                self.bvh.optimize_incremental(&mut self.workspace);
                self.candidates.clear();
                let candidates = &mut self.candidates;
                self.bvh
                    .traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
                        candidates.push((a, b));
                    });
                let broad_ms = start.elapsed().as_secs_f64() * 1e3;
                let start = Instant::now();
                let mut colliding_pairs = 0;
                for &(a, b) in &self.candidates {
                    let (a, b) = (a as usize, b as usize);
                    if self.solids_touch(a, b)? {
                        colliding_pairs += 1;
                        if let Some(found) = found.as_deref_mut() {
                            found.push((a.min(b), a.max(b)));
                        }
                    }
                }
                Ok(FrameFigures {
                    broad_ms: Some(broad_ms),
                    narrow_ms: Some(start.elapsed().as_secs_f64() * 1e3),
                    colliding_pairs,
                })
            }
        }

        impl Peer for $peer {
            fn name(&self) -> &'static str {
                $name
            }

            fn exact(&self) -> bool {
                $exact
            }

            fn set_poses(&mut self, poses: &[ScenePose]) -> Result<(), PeerError> {
                for (mine, pose) in self.poses.iter_mut().zip(poses) {
                    let [w, x, y, z] = pose.q;
                    *mine = Pose::from_parts(
                        Vector::new(pose.t[0] as $real, pose.t[1] as $real, pose.t[2] as $real),
                        Rotation::from_xyzw(x as $real, y as $real, z as $real, w as $real)
                            .normalize(),
                    );
                }
                Ok(())
            }

            fn step(&mut self) -> Result<FrameFigures, PeerError> {
                self.find(None)
            }
        }
    };
}

/// parry3d-f64 (the scene's poses and vertices as given).
pub mod parry_f64 {
    parry_peer!(parry3d_f64, f64, ParryPeer, "parry3d-f64", true);
}

/// parry3d in `f32` (poses and vertices rounded to `f32`), parry's fastest configuration.
pub mod parry_f32 {
    parry_peer!(parry3d, f32, ParryF32Peer, "parry3d-f32", false);
}
