use rayon::prelude::*;

use crate::bitset::Bits;
use crate::layout::Layout;
use crate::problem::Problem;
use crate::symmetry::{Canonicalizer, WIDE};
use crate::table::{SPREAD, UNSPREAD};

/// The positions of a count as keys of the board's [`Layout`], with the symmetry group and
/// each jump's images in that layout, so that a child's canonical form comes from its
/// parent's images without any table lookup.
pub(crate) struct Space {
    pub(crate) layout: Layout,
    pub(crate) canon: Canonicalizer,
    pub(crate) dense: Dense,
    /// The images of each jump slot's holes under the group (empty without wide tables),
    /// [folded](Space::fold).
    pub(crate) images: Vec<[u64; WIDE]>,
    /// The layout's holes where keys are folded (see [`Space::folded`]), else 0.
    pub(crate) fold: u64,
    /// The layout's highest hole where keys are folded, else 0.
    pub(crate) top: u64,
}

impl Space {
    /// The space of `problem`, under the symmetries that fix its start and its finishes, in
    /// the grid layout where the board fits one (and `grid` is set).
    pub(crate) fn new(problem: &Problem, grid: bool) -> Space {
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
            fold: 0,
            top: 0,
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
    pub(crate) fn folded(problem: &Problem, grid: bool) -> Space {
        let mut space = Space::new(problem, grid);
        let holes = space.layout.holes();
        let self_dual = space.self_dual_finish(problem).is_some();
        if self_dual && holes.count_ones() % 2 == 1 && !space.images.is_empty() {
            space.fold = holes;
            space.top = 1 << (63 - holes.leading_zeros());
            for i in 0..space.images.len() {
                space.images[i] = space.images[i].map(|y| space.fold(y));
            }
        }
        space
    }

    /// The finish of `problem` when the game is its own dual: one finish position, whose
    /// complement is the start up to symmetry.
    pub(crate) fn self_dual_finish(&self, problem: &Problem) -> Option<Bits> {
        let [finish] = problem.targets::<u64>()[..] else {
            return None;
        };
        let complement = self.layout.holes() ^ self.layout.key(finish);
        (self.canonical(complement) == self.key(problem.start())).then_some(finish)
    }

    /// A set, complemented if it holds the highest hole (where keys are folded).
    #[inline]
    pub(crate) const fn fold(&self, set: u64) -> u64 {
        if set & self.top != 0 {
            set ^ self.fold
        } else {
            set
        }
    }

    /// The position with `pegs` pegs that `key` stands for: the key, or its complement where
    /// keys are [folded](Space::folded).
    #[inline]
    pub(crate) const fn unfold(&self, key: u64, pegs: u32) -> u64 {
        if self.fold != 0 && key.count_ones() != pegs {
            key ^ self.fold
        } else {
            key
        }
    }

    /// The [folded](Space::fold) images of a position (see [`Canonicalizer::images`]).
    #[inline]
    pub(crate) fn images_of(&self, pegs: u64) -> Option<[u64; WIDE]> {
        let images = self.canon.images(Bits(pegs))?;
        Some(if self.fold == 0 {
            images
        } else {
            images.map(|y| self.fold(y))
        })
    }

    /// A board position as a canonical key.
    pub(crate) fn key(&self, set: Bits) -> u64 {
        self.canonical(self.layout.key(set))
    }

    /// The key of a position: its least image, [folded](Space::folded) where keys are.
    pub(crate) fn canonical(&self, pegs: u64) -> u64 {
        if self.fold != 0 {
            if let Some(images) = self.images_of(pegs) {
                return images.into_iter().min().unwrap_or(pegs);
            }
        }
        self.canon.canonical(Bits(pegs)).raw()
    }

    /// The number of positions `key` stands for.
    pub(crate) fn orbit(&self, key: u64) -> u64 {
        u64::from(self.canon.canonical_and_orbit(Bits(key)).1)
    }

    /// The canonical form of every child of `pegs`: `f(holes of the jump, canonical child)`,
    /// with the parent's [images](Space::images_of) at hand: a symmetry permutes bits, so the
    /// child's images are the parent's xor the jump's.
    #[inline]
    pub(crate) fn for_each_child_of(
        &self,
        pegs: u64,
        parent: Option<&[u64; WIDE]>,
        mut f: impl FnMut(u64, u64),
    ) {
        match parent {
            Some(parent) => self.layout.for_each_jump(
                pegs,
                // Left to itself, the compiler calls this once per child: 2.96 s against
                // 2.81 s for the English count (best of 6 alternating runs).
                #[inline(always)]
                |holes, i| {
                    f(holes, Canonicalizer::least_of(parent, &self.images[i]));
                },
            ),
            None => self
                .layout
                .for_each_jump(pegs, |holes, _| f(holes, self.canonical(pegs ^ holes))),
        }
    }

    /// The canonical form of every parent of `pegs` (one jump before it), with repeats.
    #[inline]
    pub(crate) fn for_each_parent(&self, pegs: u64, mut f: impl FnMut(u64)) {
        match self.images_of(pegs) {
            Some(own) => self.layout.for_each_undo(pegs, |_, i| {
                f(Canonicalizer::least_of(&own, &self.images[i]));
            }),
            None => self
                .layout
                .for_each_undo(pegs, |holes, _| f(self.canonical(pegs ^ holes))),
        }
    }

    /// Keys of positions with `pegs` pegs as canonical board positions under `canon`,
    /// sorted.
    pub(crate) fn to_board(&self, keys: &[u64], pegs: u32, canon: &Canonicalizer) -> Vec<u64> {
        let mut out: Vec<u64> = keys
            .par_iter()
            .map(|&k| {
                canon
                    .canonical(self.layout.bits(self.unfold(k, pegs)))
                    .raw()
            })
            .collect();
        out.par_sort_unstable();
        out
    }
}

/// The symmetries a count may use: those fixing both the start and the set of finishes.
pub(crate) fn group_of(problem: &Problem) -> Canonicalizer {
    problem
        .board()
        .symmetries()
        .canonicalizer(&group_elements(problem))
}

/// The elements of [`group_of`].
pub(crate) fn group_elements(problem: &Problem) -> Vec<usize> {
    let sym = problem.board().symmetries();
    let mut group = sym.stabilizer(&problem.targets::<u64>());
    let start: Bits = problem.start();
    group.retain(|&g| sym.apply(g, start) == start);
    group
}

/// The order of levels on disk. A layout's keys fit its lowest `w` bits, and a key's index
/// is a bijection on `w`-bit numbers: the key with its high half folded onto its low half,
/// times an odd constant, modulo `2^w`. Indices are spread evenly, so that cutting their
/// range in equal parts cuts a level in equal parts, and dense, so that the gaps between a
/// sorted level's indices take few bytes in a file (see `spill`), where `count`'s rank would
/// spread `w` bits over 64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dense {
    /// `64 - w`.
    pub(crate) shift: u32,
    /// `w / 2`, rounded up.
    pub(crate) half: u32,
}

impl Dense {
    /// The order of keys made of the bits of `holes`.
    pub(crate) const fn new(holes: u64) -> Dense {
        let width = 64 - (holes | 1).leading_zeros();
        Dense {
            shift: 64 - width,
            half: width.div_ceil(2),
        }
    }

    /// The index of a key: at most [`last`](Self::last).
    #[inline]
    pub(crate) const fn index(self, key: u64) -> u64 {
        (key ^ key >> self.half).wrapping_mul(SPREAD) & self.last()
    }

    /// The key of an index.
    #[inline]
    pub(crate) const fn key(self, index: u64) -> u64 {
        // Folding twice restores a key: its high half, shifted down, lands below `half`.
        let folded = index.wrapping_mul(UNSPREAD) & self.last();
        folded ^ folded >> self.half
    }

    /// The largest index.
    pub(crate) const fn last(self) -> u64 {
        u64::MAX >> self.shift
    }
}
