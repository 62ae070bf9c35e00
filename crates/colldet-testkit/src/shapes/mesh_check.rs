//! Test-only structural checks for generated meshes: edge pairing, per-component Euler
//! characteristic, face planarity and the signed volume (divergence theorem, `f64`).

use colldet_geom::math::to_f64;
use colldet_geom::mesh_data::MeshData;
use std::collections::HashMap;

/// Asserts that every directed edge occurs exactly once and its reverse exactly once (closed,
/// edge-manifold, consistently oriented), that no face repeats a vertex, and that every index is
/// in range.
pub(crate) fn assert_closed_and_oriented(mesh: &MeshData) {
    mesh.validate().expect("valid mesh data");
    let mut directed: HashMap<(u32, u32), usize> = HashMap::new();
    for (f, face) in mesh.faces.iter().enumerate() {
        for (i, &a) in face.iter().enumerate() {
            assert!(!face[i + 1..].contains(&a), "face {f} repeats vertex {a}");
            let b = face[(i + 1) % face.len()];
            *directed.entry((a, b)).or_default() += 1;
        }
    }
    for (&(a, b), &count) in &directed {
        assert_eq!(count, 1, "directed edge {a}->{b} used {count} times");
        assert_eq!(
            directed.get(&(b, a)),
            Some(&1),
            "edge {a}->{b} has no opposite half"
        );
    }
}

/// `(V, E, F)` of each connected component (vertices joined by face edges), ordered by the
/// smallest vertex index of the component. Unused vertices are ignored.
pub(crate) fn component_counts(mesh: &MeshData) -> Vec<(usize, usize, usize)> {
    let n = mesh.vertices.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut used = vec![false; n];
    for face in mesh.faces.iter() {
        for (i, &a) in face.iter().enumerate() {
            let b = face[(i + 1) % face.len()] as usize;
            used[a as usize] = true;
            let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut counts: HashMap<usize, (usize, usize, usize)> = HashMap::new();
    for v in (0..n).filter(|&v| used[v]) {
        let root = find(&mut parent, v);
        counts.entry(root).or_default().0 += 1;
    }
    for face in mesh.faces.iter() {
        let root = find(&mut parent, face[0] as usize);
        let entry = counts.entry(root).or_default();
        entry.2 += 1;
        // Each undirected edge of a closed mesh is seen twice, once per direction.
        entry.1 += face
            .iter()
            .enumerate()
            .filter(|&(i, &a)| a < face[(i + 1) % face.len()])
            .count();
    }
    let mut list: Vec<_> = counts.into_iter().collect();
    list.sort_unstable_by_key(|&(root, _)| root);
    list.into_iter().map(|(_, c)| c).collect()
}

/// Asserts every component has Euler characteristic `chi`, and returns the number of components.
pub(crate) fn assert_euler(mesh: &MeshData, chi: i64) -> usize {
    let counts = component_counts(mesh);
    for &(v, e, f) in &counts {
        assert_eq!(v as i64 - e as i64 + f as i64, chi, "V={v} E={e} F={f}");
    }
    counts.len()
}

/// Signed volume by the divergence theorem, each face fanned from its first vertex, in `f64`.
/// Positive for outward-oriented closed meshes.
pub(crate) fn signed_volume(mesh: &MeshData) -> f64 {
    let mut six_v = 0.0;
    for face in mesh.faces.iter() {
        let p0 = to_f64(&mesh.vertices[face[0] as usize]).coords;
        for w in face[1..].windows(2) {
            let p1 = to_f64(&mesh.vertices[w[0] as usize]).coords;
            let p2 = to_f64(&mesh.vertices[w[1] as usize]).coords;
            six_v += p0.dot(&p1.cross(&p2));
        }
    }
    six_v / 6.0
}

/// Largest distance of a face vertex from the plane of its face's first three vertices, divided
/// by `scale`.
pub(crate) fn max_relative_nonplanarity(mesh: &MeshData, scale: f64) -> f64 {
    let mut worst: f64 = 0.0;
    for face in mesh.faces.iter().filter(|f| f.len() > 3) {
        let p: Vec<_> = face
            .iter()
            .map(|&v| to_f64(&mesh.vertices[v as usize]))
            .collect();
        let normal = (p[1] - p[0]).cross(&(p[2] - p[0])).normalize();
        for q in &p[3..] {
            worst = worst.max((q - p[0]).dot(&normal).abs() / scale);
        }
    }
    worst
}

/// Largest vertex distance from the origin.
pub(crate) fn max_radius(mesh: &MeshData) -> f64 {
    mesh.vertices
        .iter()
        .map(|p| to_f64(p).coords.norm())
        .fold(0.0, f64::max)
}
