//! The lineage bound against breadth-first search on small windows.

use super::*;
use crate::Lattice;

/// The fewest men on or below the line that reach `position` inside the window, by the
/// breadth-first search the bound's own tests use (the small windows here have at most 32
/// cells); `None` if none does.
fn fewest_men(l: &Layout<u128>, position: u128) -> Option<u32> {
    let position = u32::try_from(position).expect("a window of at most 32 cells");
    crate::army::bound::tests::fewest_men(&l.jumps, &l.low, position)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// The lineage bound with every lone man's fitted bound never exceeds the true
    /// fewest men, on random positions of small windows of the three lattices.
    #[test]
    fn the_lineage_bound_never_exceeds_the_fewest_men(
        position in proptest::prelude::any::<u64>(),
        lattice in proptest::sample::select(vec![
            Lattice::Orthogonal, Lattice::Diagonal, Lattice::Triangular,
        ]),
        row in 2i32..4,
    ) {
        let window = Window { half_width: 1, below: 1 };
        let l = Layout::<u128>::new(lattice, row, window).expect("a small window");
        let search = Search::new(&l, Stop::new(None, None), 1 << 20);
        search.fit_alone();
        // At most four men, one of them above the line.
        let mut p: u128 = (0..l.cells.len())
            .filter(|&c| position >> (c % 64) & 1 == 1)
            .take(4)
            .fold(0, |p, c| p.flip(c));
        if p & l.above == 0 {
            p = p.flip(l.above.lowest().expect("cells above the line"));
            if p.count() > 4 {
                p = p.flip(p.lowest().expect("men"));
            }
        }
        let men = p.count();
        let up = (p & l.above).count();
        let bound = search.lineage_bound(p, men, up);
        if let Some(fewest) = fewest_men(&l, p) {
            proptest::prop_assert!(
                bound <= fewest,
                "bound {} above the true {} for {:#x}",
                bound,
                fewest,
                p
            );
        }
    }
}

#[test]
fn a_lone_man_is_often_bounded_exactly() {
    // One man per cell above the line of a small window: the fitted bound meets the
    // breadth-first fewest men for most of them.
    let l = Layout::<u128>::new(
        Lattice::Diagonal,
        3,
        Window {
            half_width: 1,
            below: 1,
        },
    )
    .expect("a small window");
    let search = Search::new(&l, Stop::new(None, None), 1 << 20);
    search.fit_alone();
    let (mut exact, mut all) = (0, 0);
    for c in l.above.members() {
        let p = u128::single(c);
        let bound = search.lineage_bound(p, 1, 1);
        if let Some(fewest) = fewest_men(&l, p) {
            assert!(bound <= fewest);
            all += 1;
            exact += u32::from(bound == fewest);
        }
    }
    assert!(all > 0 && 2 * exact >= all, "{exact} of {all} exact");
}
