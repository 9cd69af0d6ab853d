//! The game a certificate is about, made from the holes' coordinates: its jumps, and its
//! finishes.

use std::collections::{HashMap, HashSet};

use super::position::Pos;

/// The unit steps of each lattice, by the name board files use.
pub(super) fn steps(lattice: &str) -> Option<&'static [(i64, i64)]> {
    match lattice {
        "orthogonal" => Some(&[(0, 1), (0, -1), (1, 0), (-1, 0)]),
        "diagonal" => Some(&[
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ]),
        "triangular" => Some(&[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]),
        _ => None,
    }
}

/// The holes and jumps.
pub(super) struct Game<const W: usize> {
    pub(super) n: usize,
    /// Each jump as hole indices: from, over, to.
    pub(super) jumps: Vec<(usize, usize, usize)>,
    /// Each jump's three holes as one mask, by the same index.
    pub(super) masks: Vec<Pos<W>>,
    pub(super) all: Pos<W>,
    /// The holes' labels as the file gives them: for messages only, never for a check.
    pub(super) labels: Vec<String>,
}

impl<const W: usize> Game<W> {
    /// The game on holes at `coords` (hole `i` at `coords[i]`) with these unit steps: a jump
    /// for every hole `a` and step `d` with holes at `a + d` and `a + 2d`.
    pub(super) fn new(coords: &[(i64, i64)], dirs: &[(i64, i64)], labels: Vec<String>) -> Self {
        let n = coords.len();
        let index: HashMap<(i64, i64), usize> =
            coords.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut jumps = Vec::new();
        for (i, &(r, c)) in coords.iter().enumerate() {
            for &(dr, dc) in dirs {
                if let (Some(&b), Some(&t)) = (
                    index.get(&(r + dr, c + dc)),
                    index.get(&(r + 2 * dr, c + 2 * dc)),
                ) {
                    jumps.push((i, b, t));
                }
            }
        }
        let masks = jumps
            .iter()
            .map(|&(a, b, t)| Pos::<W>::bit(a) | Pos::bit(b) | Pos::bit(t))
            .collect();
        Game {
            n,
            jumps,
            masks,
            all: Pos::all(n),
            labels,
        }
    }

    /// A jump as `from-to`, by the holes' labels.
    pub(super) fn jump(&self, (a, _, t): (usize, usize, usize)) -> String {
        match (self.labels.get(a), self.labels.get(t)) {
            (Some(x), Some(y)) => format!("the jump {x}-{y} (holes {a} to {t})"),
            _ => format!("the jump from hole {a} to hole {t}"),
        }
    }

    /// A position by its pegs' labels when it has few, and in the file's hexadecimal.
    pub(super) fn position(&self, p: Pos<W>) -> String {
        let pegs: Vec<&str> = p
            .holes()
            .filter_map(|h| self.labels.get(h).map(String::as_str))
            .collect();
        if pegs.len() <= 12 {
            format!("{{{}}} ({p:x})", pegs.join(" "))
        } else {
            let empty: Vec<&str> = (self.all ^ p)
                .holes()
                .filter_map(|h| self.labels.get(h).map(String::as_str))
                .collect();
            if empty.len() <= 12 {
                format!("every hole but {{{}}} ({p:x})", empty.join(" "))
            } else {
                format!("{} pegs ({p:x})", p.count())
            }
        }
    }

    /// The positions one jump from `p`.
    pub(super) fn children(&self, p: Pos<W>) -> impl Iterator<Item = Pos<W>> + '_ {
        self.jumps
            .iter()
            .zip(&self.masks)
            .filter(move |&(&(a, b, t), _)| p.has(a) && p.has(b) && !p.has(t))
            .map(move |(_, &m)| p ^ m)
    }

    /// The first jump a weighting breaks (`w(from) + w(over) < w(to)`), if any.
    pub(super) fn broken(&self, w: &[i128]) -> Option<(usize, usize, usize)> {
        self.jumps
            .iter()
            .copied()
            .find(|&(a, b, t)| w[a] + w[b] < w[t])
    }
}

/// The finishes a certificate is about: never none.
pub(super) enum Finishes<const W: usize> {
    /// These positions (at least one).
    List(HashSet<Pos<W>>),
    /// Every position of this many pegs (at most the board's holes).
    Pegs(u32),
}

impl<const W: usize> Finishes<W> {
    pub(super) fn contains(&self, p: Pos<W>) -> bool {
        match self {
            Finishes::List(set) => set.contains(&p),
            Finishes::Pegs(n) => p.count() == *n,
        }
    }

    /// The fewest pegs of a finish: a position of no more pegs that is not a finish can
    /// reach none (a jump takes one peg away).
    pub(super) fn fewest_pegs(&self) -> u32 {
        match self {
            Finishes::List(set) => set.iter().map(Pos::count).min().unwrap_or(0),
            Finishes::Pegs(n) => *n,
        }
    }

    /// The least total of `w` over the finishes.
    pub(super) fn floor(&self, w: &[i128]) -> i128 {
        match self {
            Finishes::List(set) => set.iter().map(|&p| total(w, p)).min().unwrap_or(0),
            Finishes::Pegs(k) => {
                // Any k holes: the k lightest.
                let mut sorted = w.to_vec();
                sorted.sort_unstable();
                sorted.iter().take(*k as usize).sum()
            }
        }
    }
}

/// The total weight of the pegs of `p`.
pub(super) fn total<const W: usize>(w: &[i128], p: Pos<W>) -> i128 {
    p.holes().map(|i| w[i]).sum()
}
