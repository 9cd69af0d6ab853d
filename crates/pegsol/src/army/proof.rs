//! Why no finite army reaches a row: Conway's pagoda argument on every lattice.
//!
//! Weight each cell `sigma^d`, `d` its distance from the target in the lattice's own steps
//! ([`distance`]). The three cells of a jump are consecutive on a line of the lattice, and one
//! step changes `d` by at most one, so for a jump `a` over `b` into `c` (at distance `d`),
//! `w(a) + w(b) >= sigma^(d+2) + sigma^(d+1) = sigma^d = w(c)`: the total never rises. The
//! target alone totals 1. If every cell on or below the line together totals at most 1, a
//! finite army, a finite part of them, totals less than 1 and can never put a man on the
//! target. The half plane's total is exact here ([`half_plane_total`], in `Z[sigma]`), so the
//! comparison with 1 involves no rounding.

use std::fmt::Write;

use super::geometry::{across, distance, half_plane_total, ring, Golden, SIGMA};
use crate::Lattice;

/// The proof that no finite army reaches `row` on `lattice`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PagodaProof {
    /// The lattice.
    pub lattice: Lattice,
    /// The row out of reach.
    pub row: u32,
    /// `(a, b)`: on or below the line, `a (k - row) + b row + 1` cells lie at distance `k`.
    pub ring: (i64, i64),
    /// The whole half plane's total, exactly `p + q sigma`: at most 1.
    pub total: Golden,
}

/// The proof that `row` is out of reach on `lattice`, if the pagoda argument gives one (the
/// half plane totals at most 1): from row 5 on the orthogonal lattice, row 9 on the
/// diagonal one, row 8 on the triangular one.
#[must_use]
pub fn impossibility(lattice: Lattice, row: u32) -> Option<PagodaProof> {
    let total = half_plane_total(lattice, row as i32);
    total.at_most_one().then_some(PagodaProof {
        lattice,
        row,
        ring: ring(lattice),
        total,
    })
}

/// The lattice's distance as a formula in the offsets `dx`, `dy` from the target.
#[must_use]
pub const fn distance_formula(lattice: Lattice) -> &'static str {
    match lattice {
        Lattice::Orthogonal => "|dx| + |dy|",
        Lattice::Diagonal => "max(|dx|, |dy|)",
        Lattice::Triangular => "max(|dx|, |dy|, |dx - dy|)",
    }
}

impl PagodaProof {
    /// The weights around the target, each cell drawn as its distance `d` (its weight is
    /// `sigma^d`), from the target's row down to two rows below the line, with the line
    /// marked.
    #[must_use]
    pub fn weights_picture(&self) -> String {
        let row = self.row as i32;
        let half = row + 3;
        // Two characters per half cell: a cell is four wide, room for two digits.
        let width = (4 * half + 1) as usize * 2;
        let mut out = String::new();
        for y in (-2..=row).rev() {
            let mut line = vec![' '; width + 2];
            for x in -2 * half - row - 2..=2 * half + row + 2 {
                let at = across(self.lattice, (x, y), row);
                if at.abs() > 2 * half {
                    continue;
                }
                let d = distance(self.lattice, x, y - row);
                let text = if (x, y) == (0, row) {
                    "X".to_string()
                } else {
                    d.to_string()
                };
                // Right-aligned in the cell's four characters.
                let end = 2 * (2 * half + at) as usize + 2;
                for (k, ch) in text.chars().rev().enumerate() {
                    line[end - k] = ch;
                }
            }
            let _ = writeln!(out, "{y:>4} {}", line.iter().collect::<String>().trim_end());
            if y == 1 {
                let _ = writeln!(out, "     {}", "-".repeat(width + 2));
            }
        }
        out
    }

    /// The argument in words, with the figures.
    #[must_use]
    pub fn text(&self) -> String {
        let (a, b) = self.ring;
        let n = self.row;
        let exact = self.total == Golden { p: 1, q: 0 };
        let mut t = String::new();
        let _ = writeln!(
            t,
            "Weight each cell sigma^d, where d = {} is its distance in {} steps from the target \
             (dx, dy its offsets from it) and sigma = (sqrt 5 - 1)/2 = {SIGMA:.6}, so \
             sigma^2 + sigma = 1.",
            distance_formula(self.lattice),
            self.lattice,
        );
        let _ = writeln!(
            t,
            "The three cells of a jump a over b into c are consecutive on a line of the \
             lattice and one step changes d by at most 1, so with d = d(c): w(a) + w(b) >= \
             sigma^(d+2) + sigma^(d+1) = sigma^d = w(c). The total never rises."
        );
        let _ = writeln!(t, "The target alone totals sigma^0 = 1.");
        let _ = writeln!(
            t,
            "On or below the line no cell is nearer than {n}, and {a}(k - {n}) + {} cells lie \
             at distance k >= {n}, so the whole half plane totals sum over j >= 0 of \
             ({a} j + {}) sigma^({n} + j) = {a} sigma^{} + {} sigma^{} = {} = {:.6}{}.",
            i64::from(n) * b + 1,
            i64::from(n) * b + 1,
            i64::from(n) - 3,
            i64::from(n) * b + 1,
            i64::from(n) - 2,
            self.total,
            self.total.approx(),
            if exact {
                " (exactly 1)"
            } else {
                ", less than 1 (exactly: with m = 2(1 - p) + q, q sqrt 5 < m)"
            }
        );
        let _ = write!(
            t,
            "A finite army is a finite part of the half plane, so it totals strictly less than \
             that, which is at most 1: no finite army can put a man on row {n}.\n\
             The distances d near the target X (weights sigma^d; the line is marked):\n{}",
            self.weights_picture()
        );
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_starts_where_the_published_rows_end() {
        for (lattice, first) in [
            (Lattice::Orthogonal, 5),
            (Lattice::Diagonal, 9),
            (Lattice::Triangular, 8),
        ] {
            assert!(impossibility(lattice, first - 1).is_none(), "{lattice}");
            for row in first..first + 4 {
                let proof = impossibility(lattice, row).expect("out of reach");
                assert!(proof.total.approx() <= 1.0 + 1e-12);
                assert!(proof.text().contains("no finite army"));
            }
        }
        let conway = impossibility(Lattice::Orthogonal, 5).unwrap();
        assert!(conway.text().contains("exactly 1"));
        assert_eq!(conway.total, Golden { p: 1, q: 0 });
    }

    #[test]
    fn the_picture_shows_the_distances() {
        let p = impossibility(Lattice::Diagonal, 9)
            .unwrap()
            .weights_picture();
        let target_row = p.lines().next().unwrap();
        assert!(target_row.contains('X'), "{p}");
        // On the line, the cell under the target is at distance 9.
        assert!(p.contains(" 9"), "{p}");
    }
}
