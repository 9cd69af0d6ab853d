//! `pegsol verify CERT`: checks a certificate file with code of its own. It shares nothing
//! with the solver but the board parser: the jumps are made here from the holes' coordinates,
//! the symmetries are checked to be symmetries, and every total is summed in `i128`.
//! Boards of up to 256 holes: positions are kept in as few 64-bit words as the board needs.

use std::collections::{HashMap, HashSet};
use std::ops::{BitAnd, BitOr, BitXor};
use std::path::Path;

use anyhow::{bail, Context, Result};
use pegsol::WideBoard;
use serde_json::{json, Value};

use crate::certificate::{FORMAT, VERSION};
use crate::common::{print_json, IMPOSSIBLE};

/// The unit steps of each lattice, by the name board files use.
fn steps(lattice: &str) -> Option<&'static [(i64, i64)]> {
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

/// A position of up to `64 W` holes: bit `i % 64` of word `i / 64` is hole `i`. The
/// checker's own, so that it shares no position code with the solver.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Pos<const W: usize>([u64; W]);

impl<const W: usize> Pos<W> {
    const ZERO: Self = Pos([0; W]);

    fn bit(i: usize) -> Self {
        let mut w = [0; W];
        w[i / 64] = 1 << (i % 64);
        Pos(w)
    }

    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    fn holes(self) -> impl Iterator<Item = usize> {
        (0..64 * W).filter(move |&i| self.has(i))
    }

    /// The holes `0..n`.
    fn all(n: usize) -> Self {
        (0..n).fold(Self::ZERO, |p, i| p | Self::bit(i))
    }

    /// Reads a hexadecimal number of at most `n` bits.
    fn parse(text: &str, n: usize) -> std::result::Result<Self, String> {
        if text.is_empty() {
            return Err("an empty string is not hexadecimal".to_string());
        }
        let digits = text.trim_start_matches('0');
        if digits.len() > 16 * W {
            return Err(format!("{text} names a hole past the board's {n}"));
        }
        let mut w = [0; W];
        for (k, chunk) in digits.as_bytes().rchunks(16).enumerate() {
            let chunk =
                std::str::from_utf8(chunk).map_err(|_| format!("{text:?} is not hexadecimal"))?;
            w[k] = u64::from_str_radix(chunk, 16)
                .map_err(|_| format!("{text:?} is not hexadecimal"))?;
        }
        let p = Pos(w);
        match p.holes().last() {
            Some(top) if top >= n => Err(format!("{text} names a hole past the board's {n}")),
            _ => Ok(p),
        }
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

/// The finishes a certificate is about.
enum Finishes<const W: usize> {
    /// These positions.
    List(HashSet<Pos<W>>),
    /// Every position of this many pegs.
    Pegs(u32),
}

impl<const W: usize> Finishes<W> {
    fn contains(&self, p: Pos<W>) -> bool {
        match self {
            Finishes::List(set) => set.contains(&p),
            Finishes::Pegs(n) => p.count() == *n,
        }
    }

    fn pegs(&self) -> Option<u32> {
        match self {
            Finishes::List(set) => {
                let counts: HashSet<u32> = set.iter().map(Pos::count).collect();
                (counts.len() == 1).then(|| counts.into_iter().next().unwrap_or(0))
            }
            Finishes::Pegs(n) => Some(*n),
        }
    }

    /// The least total of `w` over the finishes.
    fn floor(&self, w: &[i128], n: usize) -> Option<i128> {
        match self {
            Finishes::List(set) => set.iter().map(|&p| total(w, p)).min(),
            Finishes::Pegs(k) => {
                // Any k holes: the k smallest weights.
                let mut sorted = w[..n].to_vec();
                sorted.sort_unstable();
                (*k as usize <= n).then(|| sorted[..*k as usize].iter().sum())
            }
        }
    }
}

/// `1 set`, `2 sets`: `n` with the word for one or for several.
fn many(n: usize, one: &str, several: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { several })
}

fn total<const W: usize>(w: &[i128], p: Pos<W>) -> i128 {
    p.holes().map(|i| w[i]).sum()
}

/// Everything the checks need, read from the file.
struct Game<const W: usize> {
    n: usize,
    /// Each jump as hole indices: from, over, to.
    jumps: Vec<(usize, usize, usize)>,
    /// Each jump's three holes as one mask, by the same index.
    masks: Vec<Pos<W>>,
    all: Pos<W>,
}

impl<const W: usize> Game<W> {
    fn children(&self, p: Pos<W>) -> impl Iterator<Item = Pos<W>> + '_ {
        self.jumps
            .iter()
            .zip(&self.masks)
            .filter(move |&(&(a, b, t), _)| p.has(a) && p.has(b) && !p.has(t))
            .map(move |(_, &m)| p ^ m)
    }
}

fn field<'v>(v: &'v Value, name: &str) -> Result<&'v Value> {
    v.get(name)
        .with_context(|| format!("the certificate has no \"{name}\" field"))
}

fn position<const W: usize>(v: &Value, n: usize, what: &str) -> Result<Pos<W>> {
    let text = v
        .as_str()
        .with_context(|| format!("{what} must be a hexadecimal string, got {v}"))?;
    Pos::parse(text, n).map_err(|why| anyhow::anyhow!("{what}: {why}"))
}

fn weights(v: &Value, n: usize, what: &str) -> Result<Vec<i128>> {
    let list = v
        .as_array()
        .with_context(|| format!("{what} must be a list of integers"))?;
    if list.len() != n {
        bail!("{what} has {} weights for {n} holes", list.len());
    }
    list.iter()
        .map(|w| {
            w.as_i64()
                .map(i128::from)
                .with_context(|| format!("{what}: {w} is not an integer"))
        })
        .collect()
}

/// Checks the certificate at `path`; exit 0 when it proves its claim, 1 when it does not.
pub(crate) fn run(path: &Path, json_out: bool) -> Result<u8> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the certificate {}", path.display()))?;
    let v: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    if field(&v, "format")? != FORMAT || field(&v, "version")?.as_u64() != Some(VERSION) {
        bail!(
            "{} is not a \"{FORMAT}\" of version {VERSION}",
            path.display()
        );
    }
    let picture = field(&v, "board")?
        .as_str()
        .context("\"board\" must be the board's picture as a string")?;
    let board = WideBoard::parse("certificate", picture).context("the certificate's board")?;
    let kind = field(&v, "kind")?.as_str().unwrap_or("").to_string();
    let verdict = match board.hole_count() {
        0..=64 => check::<1>(&v, &board, &kind),
        65..=128 => check::<2>(&v, &board, &kind),
        _ => check::<4>(&v, &board, &kind),
    }?;
    let (ok, what) = match &verdict {
        Ok(what) => (true, what.clone()),
        Err(why) => (false, why.clone()),
    };
    if json_out {
        print_json(&json!({
            "file": path.display().to_string(),
            "kind": kind,
            "status": if ok { "verified" } else { "rejected" },
            "checked": what,
        }));
    } else if ok {
        println!("verified ({kind}): {what}");
        println!("so no line of play leads from the start to a finish");
    } else {
        println!("rejected ({kind}): {what}");
    }
    Ok(if ok { 0 } else { IMPOSSIBLE })
}

/// The checks on positions of `W` words.
fn check<const W: usize>(v: &Value, board: &WideBoard, kind: &str) -> Result<Verdict> {
    let n = board.hole_count();
    let lattice = board.lattice().name();
    let dirs = steps(lattice).with_context(|| format!("unknown lattice {lattice}"))?;
    let coords: Vec<(i64, i64)> = (0..n)
        .map(|h| {
            let (r, c) = board.coords(h);
            (r as i64, c as i64)
        })
        .collect();
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
    let game = Game {
        n,
        jumps,
        masks,
        all: Pos::all(n),
    };
    let start = position(field(v, "start")?, n, "\"start\"")?;
    let finishes = match field(v, "finishes")? {
        Value::Array(list) => Finishes::List(
            list.iter()
                .map(|f| position(f, n, "a finish"))
                .collect::<Result<_>>()?,
        ),
        other => Finishes::Pegs(
            other
                .get("pegs")
                .and_then(Value::as_u64)
                .and_then(|k| u32::try_from(k).ok())
                .context("\"finishes\" must be a list of positions or {\"pegs\": N}")?,
        ),
    };
    match kind {
        "class" => check_class(v, &game, start, &finishes),
        "pagoda" => check_pagoda(v, &game, start, &finishes),
        "search" => check_search(v, &game, start, finishes),
        other => {
            bail!("unknown certificate kind {other:?}; the kinds are class, pagoda and search")
        }
    }
}

/// `Ok(what was checked)` or `Err(what fails)`.
type Verdict = std::result::Result<String, String>;

fn check_class<const W: usize>(
    v: &Value,
    g: &Game<W>,
    start: Pos<W>,
    finishes: &Finishes<W>,
) -> Result<Verdict> {
    let sets: Vec<Pos<W>> = field(v, "sets")?
        .as_array()
        .context("\"sets\" must be a list of positions")?
        .iter()
        .map(|s| position(s, g.n, "a set"))
        .collect::<Result<_>>()?;
    for (k, &s) in sets.iter().enumerate() {
        let odd = |(_, &m): &(&(usize, usize, usize), &Pos<W>)| (m & s).count() % 2 == 1;
        if let Some((&(a, _, t), _)) = g.jumps.iter().zip(&g.masks).find(odd) {
            return Ok(Err(format!(
                "set {k} meets the jump from hole {a} to hole {t} in an odd number of holes"
            )));
        }
    }
    let parity = |p: Pos<W>, s: Pos<W>| (p & s).count() % 2;
    let separated = |f: Pos<W>| sets.iter().any(|&s| parity(start, s) != parity(f, s));
    let count = match finishes {
        Finishes::List(list) => {
            if let Some(f) = list.iter().find(|&&f| !separated(f)) {
                return Ok(Err(format!(
                    "no set separates the finish {f:x} from the start"
                )));
            }
            list.len()
        }
        Finishes::Pegs(k) => {
            let mut checked = 0usize;
            let mut bad = None;
            subsets(g.n, *k as usize, &mut |f| {
                checked += 1;
                if bad.is_none() && !separated(f) {
                    bad = Some(f);
                }
                checked < 2_000_000
            });
            if checked >= 2_000_000 {
                return Ok(Err("too many finishes to check".to_string()));
            }
            if let Some(f) = bad {
                return Ok(Err(format!(
                    "no set separates the finish {f:x} from the start"
                )));
            }
            checked
        }
    };
    Ok(Ok(format!(
        "{} each meeting all {} in 0 or 2 holes, and on each of the {} one of them has a different parity than on the start",
        many(sets.len(), "set", "sets"),
        many(g.jumps.len(), "jump", "jumps"),
        many(count, "finish", "finishes")
    )))
}

/// Calls `f` on every `k`-subset of `0..n` as a mask, while it returns true.
fn subsets<const W: usize>(n: usize, k: usize, f: &mut dyn FnMut(Pos<W>) -> bool) {
    fn go<const W: usize>(
        at: usize,
        n: usize,
        k: usize,
        mask: Pos<W>,
        f: &mut dyn FnMut(Pos<W>) -> bool,
    ) -> bool {
        if k == 0 {
            return f(mask);
        }
        for i in at..=n - k {
            if !go(i + 1, n, k - 1, mask | Pos::bit(i), f) {
                return false;
            }
        }
        true
    }
    if k <= n {
        go(0, n, k, Pos::ZERO, f);
    }
}

/// The first jump a weighting breaks, if any.
fn broken<const W: usize>(g: &Game<W>, w: &[i128]) -> Option<(usize, usize, usize)> {
    g.jumps
        .iter()
        .copied()
        .find(|&(a, b, t)| w[a] + w[b] < w[t])
}

fn check_pagoda<const W: usize>(
    v: &Value,
    g: &Game<W>,
    start: Pos<W>,
    finishes: &Finishes<W>,
) -> Result<Verdict> {
    let list = field(v, "pagodas")?
        .as_array()
        .context("\"pagodas\" must be a list")?;
    let [one] = list.as_slice() else {
        bail!("a pagoda certificate has exactly one function");
    };
    let w = weights(one, g.n, "the pagoda function")?;
    if let Some((a, _, t)) = broken(g, &w) {
        return Ok(Err(format!(
            "the weights break the jump from hole {a} to hole {t}"
        )));
    }
    let (s, floor) = (total(&w, start), finishes.floor(&w, g.n));
    Ok(match floor {
        Some(f) if s < f => Ok(format!(
            "w(from) + w(over) >= w(to) for all {} jumps, so totals never rise, and the start totals {s} < {f}, the least a finish totals",
            g.jumps.len()
        )),
        Some(f) => Err(format!("the start totals {s}, not less than the finishes' {f}")),
        None => Err("there are no finishes".to_string()),
    })
}

fn check_search<const W: usize>(
    v: &Value,
    g: &Game<W>,
    start: Pos<W>,
    finishes: Finishes<W>,
) -> Result<Verdict> {
    let dual = field(v, "dual")?
        .as_bool()
        .context("\"dual\" must be true or false")?;
    // The dual game: from the complement of the one finish to the complement of the start.
    let (start, finishes) = if dual {
        match &finishes {
            Finishes::List(list) if list.len() == 1 => {
                let f = list.iter().next().copied().unwrap_or(Pos::ZERO);
                (
                    g.all ^ (g.all & f),
                    Finishes::List(HashSet::from([g.all ^ (g.all & start)])),
                )
            }
            _ => {
                return Ok(Err(
                    "a dual certificate needs exactly one finish".to_string()
                ))
            }
        }
    } else {
        (start, finishes)
    };
    let Some(goal) = finishes.pegs() else {
        return Ok(Err(
            "the finishes must all have one number of pegs".to_string()
        ));
    };
    // Symmetries: permutations mapping jumps to jumps and the finishes onto themselves.
    let triples: HashSet<(usize, usize, usize)> = g.jumps.iter().copied().collect();
    let mut perms: Vec<Vec<usize>> = Vec::new();
    for s in field(v, "symmetries")?
        .as_array()
        .context("\"symmetries\" must be a list")?
    {
        let perm: Vec<usize> = s
            .as_array()
            .context("a symmetry must be a list of hole indices")?
            .iter()
            .map(|x| x.as_u64().map(|x| x as usize).context("a hole index"))
            .collect::<Result<_>>()?;
        let mut seen = vec![false; g.n];
        if perm.len() != g.n
            || perm
                .iter()
                .any(|&i| i >= g.n || std::mem::replace(&mut seen[i], true))
        {
            return Ok(Err(
                "a symmetry is not a permutation of the holes".to_string()
            ));
        }
        if !g
            .jumps
            .iter()
            .all(|&(a, b, t)| triples.contains(&(perm[a], perm[b], perm[t])))
        {
            return Ok(Err("a symmetry does not map jumps to jumps".to_string()));
        }
        if let Finishes::List(list) = &finishes {
            let image = |p: Pos<W>| p.holes().fold(Pos::ZERO, |m, i| m | Pos::bit(perm[i]));
            if !list.iter().all(|&f| list.contains(&image(f))) {
                return Ok(Err(
                    "a symmetry does not map the finishes onto themselves".to_string()
                ));
            }
        }
        perms.push(perm);
    }
    // Images under a permutation, a byte at a time.
    let tables: Vec<Vec<[Pos<W>; 256]>> = perms
        .iter()
        .map(|perm| {
            (0..8 * W)
                .map(|byte| {
                    let mut t = [Pos::ZERO; 256];
                    for (value, out) in t.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let hole = 8 * byte + bit;
                            if value >> bit & 1 == 1 && hole < g.n {
                                *out = *out | Pos::bit(perm[hole]);
                            }
                        }
                    }
                    t
                })
                .collect()
        })
        .collect();
    let image = |t: &Vec<[Pos<W>; 256]>, p: Pos<W>| {
        (0..8 * W).fold(Pos::ZERO, |m, b| {
            m | t[b][(p.0[b / 8] >> (8 * (b % 8))) as usize & 255]
        })
    };
    // Pagoda functions: valid, each with its floor.
    let mut functions: Vec<(Vec<i128>, i128)> = Vec::new();
    for (k, p) in field(v, "pagodas")?
        .as_array()
        .context("\"pagodas\" must be a list")?
        .iter()
        .enumerate()
    {
        let w = weights(p, g.n, &format!("pagoda function {k}"))?;
        if broken(g, &w).is_some() {
            return Ok(Err(format!("pagoda function {k} breaks a jump")));
        }
        let Some(floor) = finishes.floor(&w, g.n) else {
            return Ok(Err("there are no finishes".to_string()));
        };
        functions.push((w, floor));
    }
    let cut = |p: Pos<W>| functions.iter().any(|(w, floor)| total(w, p) < *floor);
    let members: Vec<Pos<W>> = field(v, "positions")?
        .as_array()
        .context("\"positions\" must be a list")?
        .iter()
        .map(|p| position(p, g.n, "a position"))
        .collect::<Result<_>>()?;
    let set: HashSet<Pos<W>> = members.iter().copied().collect();
    let member = |p: Pos<W>| set.contains(&p) || tables.iter().any(|t| set.contains(&image(t, p)));
    if members.first() != Some(&start) && !cut(start) {
        return Ok(Err(
            "the first position is not the start, and no function cuts the start".to_string(),
        ));
    }
    let mut children = 0u64;
    for &p in &members {
        if finishes.contains(p) {
            return Ok(Err(format!("the position {p:x} is a finish")));
        }
        for c in g.children(p) {
            children += 1;
            let done = (c.count() <= goal && !finishes.contains(c)) || cut(c) || member(c);
            if !done {
                return Ok(Err(format!(
                    "the set is not closed: position {p:x} has a child {c:x} that is neither a member (up to symmetry) nor cut"
                )));
            }
        }
    }
    Ok(Ok(format!(
        "{}{}, none a finish, the start first; each of their {} is a member up to one of {} (the identity and {}, each mapping jumps to jumps and the finishes onto themselves), has as few pegs as a finish, or totals less than every finish under one of {} (each valid for all {})",
        many(members.len(), "position", "positions"),
        if dual { " of the dual game (from the complement of the finish to the complement of the start)" } else { "" },
        many(children as usize, "child", "children"),
        many(perms.len() + 1, "symmetry", "symmetries"),
        perms.len(),
        many(functions.len(), "pagoda function", "pagoda functions"),
        many(g.jumps.len(), "jump", "jumps")
    )))
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
        assert!(Pos::<1>::parse("", 8).is_err());
        assert!(Pos::<1>::parse("xyz", 8).is_err());
        assert_eq!(
            format!("{:x}", Pos::<2>::bit(64)),
            format!("1{}", "0".repeat(16))
        );
    }
}
