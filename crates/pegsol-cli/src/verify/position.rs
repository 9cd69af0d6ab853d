//! The checker's own positions: up to `64 W` holes in `W` words, so that it shares no
//! position code with the solver.

use std::ops::{BitAnd, BitOr, BitXor};

/// A position of up to `64 W` holes: bit `i % 64` of word `i / 64` is hole `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Pos<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> Pos<W> {
    pub(super) const ZERO: Self = Pos([0; W]);

    pub(super) fn bit(i: usize) -> Self {
        let mut w = [0; W];
        w[i / 64] = 1 << (i % 64);
        Pos(w)
    }

    pub(super) fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    pub(super) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub(super) fn holes(self) -> impl Iterator<Item = usize> {
        (0..64 * W).filter(move |&i| self.has(i))
    }

    /// The holes `0..n`.
    pub(super) fn all(n: usize) -> Self {
        (0..n).fold(Self::ZERO, |p, i| p | Self::bit(i))
    }

    /// Reads a hexadecimal number (digits `0-9`, `a-f`, `A-F` only, at least one) that names
    /// holes below `n` only.
    pub(super) fn parse(text: &str, n: usize) -> Result<Self, String> {
        if text.is_empty() {
            return Err("an empty string is not hexadecimal".to_string());
        }
        if let Some(c) = text.chars().find(|c| !c.is_ascii_hexdigit()) {
            return Err(format!(
                "{:?} is not hexadecimal (it has {c:?}; write digits 0-9 and a-f only)",
                short(text)
            ));
        }
        let digits = text.trim_start_matches('0');
        if digits.len() > 16 * W {
            return Err(format!("{} names a hole past the board's {n}", short(text)));
        }
        let mut w = [0; W];
        for (k, chunk) in digits.as_bytes().rchunks(16).enumerate() {
            // Only ASCII hexadecimal digits are left: both conversions succeed.
            let chunk = std::str::from_utf8(chunk).unwrap_or("0");
            w[k] = u64::from_str_radix(chunk, 16).unwrap_or(0);
        }
        let p = Pos(w);
        match p.holes().last() {
            Some(top) if top >= n => Err(format!(
                "{} names hole {top}, past the board's {n} (holes 0 to {})",
                short(text),
                n - 1
            )),
            _ => Ok(p),
        }
    }
}

/// A long text cut for a message.
fn short(text: &str) -> String {
    if text.chars().count() > 70 {
        format!("{}...", text.chars().take(64).collect::<String>())
    } else {
        text.to_string()
    }
}

impl<const W: usize> std::fmt::LowerHex for Pos<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        write!(f, "{:x}", self.0[top])?;
        for w in self.0[..top].iter().rev() {
            write!(f, "{w:016x}")?;
        }
        Ok(())
    }
}

impl<const W: usize> BitAnd for Pos<W> {
    type Output = Self;
    fn bitand(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
        self
    }
}

impl<const W: usize> BitOr for Pos<W> {
    type Output = Self;
    fn bitor(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
        self
    }
}

impl<const W: usize> BitXor for Pos<W> {
    type Output = Self;
    fn bitxor(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a ^= b;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_and_write_as_one_hexadecimal_number() {
        let p = Pos::<4>::bit(0) | Pos::bit(70) | Pos::bit(255);
        let text = format!("{p:x}");
        assert_eq!(text.len(), 64);
        assert!(Pos::<4>::parse(&text, 256) == Ok(p));
        assert!(
            Pos::<4>::parse(&text, 255).is_err(),
            "hole 255 on a 255-hole board"
        );
        assert!(
            Pos::<2>::parse(&text, 128).is_err(),
            "too many digits for two words"
        );
        assert!(Pos::<1>::parse("00ff", 8) == Ok(Pos([255])));
        assert!(Pos::<1>::parse("00FF", 8) == Ok(Pos([255])));
        assert!(Pos::<1>::parse("0".repeat(300).as_str(), 8) == Ok(Pos([0])));
        for bad in ["", "xyz", "+1", "-1", "0x1", " 1", "1 ", "f_f", "\u{663}"] {
            assert!(Pos::<1>::parse(bad, 8).is_err(), "{bad:?}");
        }
        // A sign inside a later chunk of 16 digits is no digit either.
        assert!(Pos::<2>::parse("1+000000000000001", 128).is_err());
        assert_eq!(
            format!("{:x}", Pos::<2>::bit(64)),
            format!("1{}", "0".repeat(16))
        );
    }
}
