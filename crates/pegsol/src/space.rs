use rayon::prelude::*;

use crate::bitset::{Bits, Word};
use crate::key::{CountKey, Dense};
use crate::layout::Layout;
use crate::problem::Problem;
use crate::symmetry::{Canonicalizer, WIDE};

/// The positions of a count as keys of the board's [`Layout`] (one word up to 64 holes, two
/// or four past them), with the symmetry group and each jump's images in that layout, so
/// that a child's canonical form comes from its parent's images without any table lookup
/// (one word, groups of order up to 8).
pub(crate) struct Space<K: CountKey = u64> {
    pub(crate) layout: Layout<K>,
    pub(crate) canon: Canonicalizer<K>,
    pub(crate) dense: Dense,
    /// The images of each jump slot's holes under the group (empty without wide tables),
    /// [folded](Space::fold).
    pub(crate) images: Vec<[u64; WIDE]>,
    /// The layout's holes where keys are folded (see [`Space::folded`]), else empty.
    pub(crate) fold: K,
    /// The layout's highest hole where keys are folded, else empty.
    pub(crate) top: K,
}

impl<K: CountKey> Space<K> {
    /// The space of `problem`, under the symmetries that fix its start and its finishes, in
    /// the grid layout where the board fits one (and `grid` is set).
    pub(crate) fn new(problem: &Problem, grid: bool) -> Space<K> {
        let board = problem.board();
        let layout = if grid {
            Layout::of(board)
        } else {
            Layout::dense(board)
        };
        let canon = board
            .symmetries()
            .canonicalizer_placed(&group_elements(problem), layout.place());
        let images = if canon.images(Bits::EMPTY).is_some() {
            (0..layout.slots())
                .map(|i| {
                    canon
                        .images(Bits(layout.slot_holes(i)))
                        .unwrap_or([0; WIDE])
                })
                .collect()
        } else {
            Vec::new()
        };
        Space {
            dense: Dense::new(layout.holes()),
            layout,
            canon,
            images,
            fold: K::ZERO,
            top: K::ZERO,
        }
    }

    /// [`Space::new`] where a position's orbit and its complement's share one key, when the
    /// game is its own dual (one finish, whose complement is the start up to symmetry; see
    /// [`self_dual_winners`]) on a board with an odd number of holes. Then the winners of
    /// levels `k` and `L - k` are the keys the two levels share, with nothing to
    /// canonicalise.
    ///
    /// A key is the least *folded* image of a position, folding a set by complementing it
    /// when it holds the layout's highest hole. A set and its complement fold alike, and two
    /// sets with as many pegs fold alike only if they are equal, so within a level a key
    /// still stands for one orbit. With an odd number of holes a position and its complement
    /// never have as many pegs, so a key is unfolded by its number of pegs
    /// ([`Space::unfold`]). Symmetries permute holes, so they commute with complements: a
    /// position's complement has the position's key. Folding is linear over xor
    /// (`fold(a ^ b) = fold(a) ^ fold(b)`), so a child's folded images are still its parent's
    /// xor its jump's, and generating costs the same.
    pub(crate) fn folded(problem: &Problem, grid: bool) -> Space<K> {
        let mut space = Space::new(problem, grid);
        let holes: K = space.layout.holes();
        let self_dual = space.self_dual_finish(problem).is_some();
        // Folded images live in the wide tables, which only one-word keys have.
        if self_dual && holes.count_ones() % 2 == 1 && !space.images.is_empty() {
            let holes = holes.word(0);
            space.fold = K::from_low(holes);
            space.top = K::from_low(1 << (63 - holes.leading_zeros()));
            for i in 0..space.images.len() {
                space.images[i] = space.images[i].map(|y| space.fold(K::from_low(y)).word(0));
            }
        }
        space
    }

    /// The finish of `problem` when the game is its own dual: one finish position, whose
    /// complement is the start up to symmetry.
    pub(crate) fn self_dual_finish(&self, problem: &Problem) -> Option<Bits<K>> {
        let [finish] = problem.targets::<K>()[..] else {
            return None;
        };
        let complement = self.layout.holes().xor(self.layout.key(finish));
        (self.canonical(complement) == self.key(problem.start())).then_some(finish)
    }

    /// A set, complemented if it holds the highest hole (where keys are folded).
    #[inline]
    pub(crate) fn fold(&self, set: K) -> K {
        if set.and(self.top).is_zero() {
            set
        } else {
            set.xor(self.fold)
        }
    }

    /// The position with `pegs` pegs that `key` stands for: the key, or its complement where
    /// keys are [folded](Space::folded).
    #[inline]
    pub(crate) fn unfold(&self, key: K, pegs: u32) -> K {
        if !self.fold.is_zero() && key.count_ones() != pegs {
            key.xor(self.fold)
        } else {
            key
        }
    }

    /// Whether the group is the identity alone: a key is then the (folded) position itself,
    /// with no images to compute (most problems with a vacancy and a finish off the board's
    /// axes, such as the diamond's d2 -> f8).
    #[inline]
    fn trivial(&self) -> bool {
        self.canon.order() == 1
    }

    /// The [folded](Space::fold) images of a position (see [`Canonicalizer::images`]);
    /// `None` also where the group is the identity alone, whose one image is the position.
    #[inline]
    pub(crate) fn images_of(&self, pegs: K) -> Option<[u64; WIDE]> {
        if self.trivial() {
            return None;
        }
        let images = self.canon.images(Bits(pegs))?;
        Some(if self.fold.is_zero() {
            images
        } else {
            images.map(|y| self.fold(K::from_low(y)).word(0))
        })
    }

    /// A board position as a canonical key.
    pub(crate) fn key(&self, set: Bits<K>) -> K {
        self.canonical(self.layout.key(set))
    }

    /// The key of a position: its least image, [folded](Space::folded) where keys are.
    #[inline]
    pub(crate) fn canonical(&self, pegs: K) -> K {
        if self.trivial() {
            return self.fold(pegs);
        }
        if !self.fold.is_zero() {
            if let Some(images) = self.images_of(pegs) {
                return images
                    .into_iter()
                    .min()
                    .map_or(pegs, |least| K::from_low(least));
            }
        }
        self.canon.canonical(Bits(pegs)).0
    }

    /// The number of positions `key` stands for (a key, or a position, folded or not).
    pub(crate) fn orbit(&self, key: K) -> u64 {
        if self.trivial() {
            return 1;
        }
        // From the images where there are: a folded image equals the fold of the position
        // only where the symmetry fixes the position (a position and its complement never
        // have as many pegs where keys fold).
        if let Some(images) = self.images_of(key) {
            return u64::from(self.canon.orbit_of(&images, Bits(self.fold(key))));
        }
        u64::from(self.canon.canonical_and_orbit(Bits(key)).1)
    }

    /// The canonical form of every child of `pegs`: `f(holes of the jump, its slot in the
    /// layout, canonical child)`, with the parent's [images](Space::images_of) at hand: a
    /// symmetry permutes bits, so the child's images are the parent's xor the jump's.
    #[inline]
    pub(crate) fn for_each_child_of(
        &self,
        pegs: K,
        parent: Option<&[u64; WIDE]>,
        mut f: impl FnMut(K, usize, K),
    ) {
        match parent {
            Some(parent) => self.layout.for_each_jump(
                pegs,
                // Left to itself, the compiler calls this once per child: 2.96 s against
                // 2.81 s for the English count (best of 6 alternating runs).
                #[inline(always)]
                |holes, i| {
                    f(
                        holes,
                        i,
                        K::from_low(Canonicalizer::<K>::least_of(parent, &self.images[i])),
                    );
                },
            ),
            None => self.layout.for_each_jump(pegs, |holes, i| {
                f(holes, i, self.canonical(pegs.xor(holes)));
            }),
        }
    }

    /// The key of the complement of every child of `pegs` (each jump's, with repeats where
    /// two children are alike up to symmetry). Where keys are [folded](Space::folded) that is
    /// the child's own key; else the least image of the complement, which is the holes xor
    /// the child's image under the same symmetry (symmetries fix the set of holes), so it
    /// comes from the parent's images as the child's key does.
    #[inline]
    pub(crate) fn for_each_child_complement(&self, pegs: K, mut f: impl FnMut(K)) {
        let holes = self.layout.holes();
        match self.images_of(pegs) {
            Some(own) => {
                // Unfolded, the parent's images complemented: each child's are then its
                // complement's.
                let parent = if self.fold.is_zero() {
                    own.map(|y| y ^ holes.word(0))
                } else {
                    own
                };
                self.for_each_child_of(pegs, Some(&parent), |_, _, key| f(key));
            }
            None => self.layout.for_each_jump(pegs, |jump, _| {
                f(self.canonical(holes.xor(pegs.xor(jump))));
            }),
        }
    }

    /// The canonical form of every parent of `pegs` (one jump before it), with repeats.
    #[inline]
    pub(crate) fn for_each_parent(&self, pegs: K, mut f: impl FnMut(K)) {
        match self.images_of(pegs) {
            Some(own) => self.layout.for_each_undo(pegs, |_, i| {
                f(K::from_low(Canonicalizer::<K>::least_of(
                    &own,
                    &self.images[i],
                )));
            }),
            None => self
                .layout
                .for_each_undo(pegs, |holes, _| f(self.canonical(pegs.xor(holes)))),
        }
    }

    /// Keys of positions with `pegs` pegs as canonical board positions under `canon`,
    /// sorted.
    pub(crate) fn to_board(&self, keys: &[K], pegs: u32, canon: &Canonicalizer<K>) -> Vec<K> {
        let mut out: Vec<K> = keys
            .par_iter()
            .map(|&k| canon.canonical(self.layout.bits(self.unfold(k, pegs))).0)
            .collect();
        out.par_sort_unstable();
        out
    }
}

/// The symmetries a count may use: those fixing both the start and the set of finishes.
pub(crate) fn group_of<W: Word>(problem: &Problem) -> Canonicalizer<W> {
    problem
        .board()
        .symmetries()
        .canonicalizer(&group_elements(problem))
}

/// The elements of [`group_of`].
pub(crate) fn group_elements(problem: &Problem) -> Vec<usize> {
    let sym = problem.board().symmetries();
    let mut group = sym.stabilizer(&problem.targets::<[u64; 4]>());
    let start: crate::Pegs = problem.start();
    group.retain(|&g| sym.apply(g, start) == start);
    group
}
