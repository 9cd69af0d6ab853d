//! The members of a search certificate, stored flat in as many 64-bit words a position as the
//! board needs: a certificate of millions of positions on 33 holes costs 8 bytes each, as it
//! did before boards grew past one word.

use crate::bitset::{Bits, Pegs, Word};

/// Positions of one board, each `words` 64-bit words long, in the order they were added.
///
/// Invariant: `data.len()` is a multiple of `words`, and `words` is 1, 2 or 4.
#[derive(Clone, PartialEq, Eq)]
pub struct Positions {
    words: usize,
    data: Vec<u64>,
}

impl Positions {
    /// No positions, each to be stored in `W`'s words.
    #[must_use]
    pub(crate) fn new<W: Word>() -> Positions {
        Positions {
            words: W::WORDS,
            data: Vec::new(),
        }
    }

    /// Adds `p` at the end (`W` must be the width the list was made for).
    pub(crate) fn push<W: Word>(&mut self, p: Bits<W>) {
        debug_assert_eq!(W::WORDS, self.words);
        self.data.extend((0..W::WORDS).map(|k| p.0.word(k)));
    }

    /// How many positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len() / self.words
    }

    /// The words a position takes.
    #[must_use]
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The positions in order, in sets of any width that holds them (a set narrower than
    /// the words stored drops the holes past it, so read them at the board's width).
    pub fn iter<W: Word>(&self) -> impl ExactSizeIterator<Item = Bits<W>> + '_ {
        self.data.chunks_exact(self.words).map(|chunk| {
            let mut w = W::ZERO;
            for (k, &x) in chunk.iter().enumerate().take(W::WORDS) {
                *w.word_mut(k) = x;
            }
            Bits(w)
        })
    }

    /// The first position, the start, if any.
    #[must_use]
    pub fn first(&self) -> Option<Pegs> {
        self.iter().next()
    }
}

impl std::fmt::Debug for Positions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Positions({} of {} words)", self.len(), self.words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::Hole;

    #[test]
    fn positions_come_back_as_they_went_in() {
        let mut one = Positions::new::<u64>();
        one.push(Bits(0b101u64));
        one.push(Bits(u64::MAX));
        assert_eq!(one.len(), 2);
        assert_eq!(
            one.iter::<u64>().collect::<Vec<_>>(),
            [Bits(5), Bits(u64::MAX)]
        );
        assert_eq!(
            one.first(),
            Some(Pegs::first(0).with(Hole::at(0)).with(Hole::at(2)))
        );
        let mut four = Positions::new::<[u64; 4]>();
        let p = Pegs::single(Hole::at(200)).with(Hole::at(3));
        four.push(p);
        assert_eq!(four.iter::<[u64; 4]>().next(), Some(p));
        assert_eq!(four.first(), Some(p));
        assert!(!four.is_empty() && Positions::new::<[u64; 2]>().is_empty());
    }
}
