//! Brute-force pair lists: the answers broad phases and worlds are checked against.

/// Every pair `(i, j)` with `i < j < n` for which `hit(i, j)` holds, in ascending order (by `i`,
/// then `j`): the brute-force answer, from one call of `hit` per pair, in that order.
pub fn brute_force_pairs(
    n: usize,
    mut hit: impl FnMut(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if hit(i, j) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_come_once_each_in_ascending_order() {
        let mut calls = Vec::new();
        let pairs = brute_force_pairs(5, |i, j| {
            calls.push((i, j));
            (i + j) % 2 == 1
        });
        assert_eq!(
            calls,
            [
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (1, 2),
                (1, 3),
                (1, 4),
                (2, 3),
                (2, 4),
                (3, 4)
            ]
        );
        assert_eq!(pairs, [(0, 1), (0, 3), (1, 2), (1, 4), (2, 3), (3, 4)]);
        assert!(brute_force_pairs(1, |_, _| true).is_empty());
        assert!(brute_force_pairs(0, |_, _| true).is_empty());
    }
}
