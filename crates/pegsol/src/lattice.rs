//! Lattices: the directions a peg may jump in. A new lattice is a table entry here.

use std::fmt;
use std::str::FromStr;

/// A lattice is the set of steps `(drow, dcol)` a jump may take; a jump moves two steps.
///
/// Every direction set is closed under negation, so every jump can be played both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lattice {
    /// The square grid with jumps along rows and columns (the classic game).
    #[default]
    Orthogonal,
    /// The square grid with the two diagonals as well: eight directions.
    Diagonal,
    /// The triangular grid drawn as a left-justified staircase: rows, columns and the
    /// `(+1, +1)` diagonal, both ways: six directions.
    Triangular,
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];
const TRIANGULAR: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

impl Lattice {
    /// All lattices, for listings.
    pub const ALL: [Lattice; 3] = [Lattice::Orthogonal, Lattice::Diagonal, Lattice::Triangular];

    /// The unit steps `(drow, dcol)` of this lattice.
    #[must_use]
    pub const fn directions(self) -> &'static [(i32, i32)] {
        match self {
            Lattice::Orthogonal => &ORTHOGONAL,
            Lattice::Diagonal => &DIAGONAL,
            Lattice::Triangular => &TRIANGULAR,
        }
    }

    /// The name used in board files (`lattice: NAME`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Lattice::Orthogonal => "orthogonal",
            Lattice::Diagonal => "diagonal",
            Lattice::Triangular => "triangular",
        }
    }

    /// Whether `(dr, dc)` is one of this lattice's unit steps.
    #[must_use]
    pub fn has_direction(self, dr: i32, dc: i32) -> bool {
        self.directions().contains(&(dr, dc))
    }

    /// The integer linear maps `(r, c) -> (a r + b c, c' r + d c)` that permute this lattice's
    /// directions: its point group. A board's symmetries are the ones of these that map its
    /// holes onto themselves up to a translation.
    #[must_use]
    pub fn point_group(self) -> Vec<[i32; 4]> {
        let dirs = self.directions();
        let mut maps = Vec::new();
        for m in 0..81 {
            let e = [m % 3 - 1, m / 3 % 3 - 1, m / 9 % 3 - 1, m / 27 % 3 - 1];
            if e[0] * e[3] - e[1] * e[2] == 0 {
                continue;
            }
            let maps_all = dirs.iter().all(|&(r, c)| {
                let image = (e[0] * r + e[1] * c, e[2] * r + e[3] * c);
                dirs.contains(&image)
            });
            if maps_all {
                maps.push(e);
            }
        }
        maps
    }
}

impl fmt::Display for Lattice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Lattice {
    type Err = ();
    fn from_str(s: &str) -> Result<Lattice, ()> {
        Lattice::ALL
            .into_iter()
            .find(|l| l.name() == s.trim().to_ascii_lowercase())
            .ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_groups_have_the_expected_orders() {
        assert_eq!(Lattice::Orthogonal.point_group().len(), 8);
        assert_eq!(Lattice::Diagonal.point_group().len(), 8);
        assert_eq!(Lattice::Triangular.point_group().len(), 12);
    }

    #[test]
    fn directions_are_closed_under_negation() {
        for l in Lattice::ALL {
            for &(r, c) in l.directions() {
                assert!(l.has_direction(-r, -c));
            }
            assert_eq!(l.name().parse::<Lattice>(), Ok(l));
        }
    }
}
