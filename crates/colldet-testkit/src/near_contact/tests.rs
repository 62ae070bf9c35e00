use super::*;

#[test]
fn f64_input_is_not_f32_and_f32_input_is() {
    for kind in ShapeKind::ALL {
        let wide = scaled_shape(kind, false);
        let narrow = scaled_shape(kind, true);
        let is_f32 = |c: f64| f64::from(c as f32) == c;
        assert!(narrow.vertices.iter().flatten().all(|&c| is_f32(c)));
        assert!(
            mesh_data(&wide, false).precise_vertices().is_some(),
            "{kind:?}"
        );
        assert!(
            mesh_data(&narrow, true).precise_vertices().is_none(),
            "{kind:?}"
        );
        assert!(crate::exact_oracle::is_closed(&wide.triangles), "{kind:?}");
    }
}

#[test]
fn cases_are_deterministic() {
    let a = near_contact_cases(7, 3);
    let b = near_contact_cases(7, 3);
    assert_eq!(a.len(), 3 * 2 * GAPS.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((x.pose_a, x.pose_b, x.gap), (y.pose_a, y.pose_b, y.gap));
        assert_eq!(x.mesh_b, y.mesh_b);
    }
}

#[test]
fn the_oracle_agrees_with_the_generator_at_every_gap() {
    // The contact travel is bisected on the oracle to f64 resolution, far below the smallest
    // gap, so the generator's sign is right for every case.
    for case in near_contact_cases(11, 6) {
        assert_eq!(
            case.oracle().collides(),
            case.generator_expects_collision(),
            "{}",
            case.describe()
        );
    }
}
