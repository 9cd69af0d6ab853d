//! Cell labels (`d4`): columns lettered from `a` over the bounding box, left to right, going
//! on `aa`, `ab`, ... past `z`; rows numbered from 1 at the top. They need no board, so the
//! board is built on them; the notation of jumps and moves, which needs a board, is built on
//! the board, and gives these functions to library users too.

use crate::error::{Error, Result};

/// The letters of column `col` (0-based): `a`..`z`, then `aa`, `ab`, ...
#[must_use]
pub fn column_name(col: usize) -> String {
    let mut n = col + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The label of the cell at `(row, col)` (0-based), e.g. `(3, 3)` is `d4`.
#[must_use]
pub fn label(row: usize, col: usize) -> String {
    format!("{}{}", column_name(col), row + 1)
}

/// Reads a label into 0-based `(row, col)`.
pub fn parse_label(text: &str) -> Result<(usize, usize)> {
    let s = text.trim();
    let bad = || Error::BadLabel(s.to_string());
    let split = s.find(|c: char| !c.is_ascii_alphabetic()).ok_or_else(bad)?;
    let (letters, digits) = s.split_at(split);
    if letters.is_empty() || letters.len() > 3 || digits.is_empty() {
        return Err(bad());
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 4 {
        return Err(bad());
    }
    let mut col = 0usize;
    for b in letters.to_ascii_lowercase().bytes() {
        col = col * 26 + (b - b'a' + 1) as usize;
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if row == 0 {
        return Err(bad());
    }
    Ok((row - 1, col - 1))
}
