//! `pegsol verify CERT`: checks a certificate file with code of its own. It shares nothing
//! with the solver but the board parser: the jumps are made here from the holes' coordinates,
//! the symmetries are checked to be symmetries, and every total is summed in `i128`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::{bail, Context, Result};
use pegsol::{Board, Hole};
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

/// The finishes a certificate is about.
enum Finishes {
    /// These positions.
    List(HashSet<u64>),
    /// Every position of this many pegs.
    Pegs(u32),
}

impl Finishes {
    fn contains(&self, p: u64) -> bool {
        match self {
            Finishes::List(set) => set.contains(&p),
            Finishes::Pegs(n) => p.count_ones() == *n,
        }
    }

    fn pegs(&self) -> Option<u32> {
        match self {
            Finishes::List(set) => {
                let counts: HashSet<u32> = set.iter().map(|p| p.count_ones()).collect();
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

fn total(w: &[i128], p: u64) -> i128 {
    (0..w.len())
        .filter(|&i| p >> i & 1 == 1)
        .map(|i| w[i])
        .sum()
}

/// Everything the checks need, read from the file.
struct Game {
    n: usize,
    /// Each jump as bit masks: from, over, to.
    jumps: Vec<(u64, u64, u64)>,
    all: u64,
}

impl Game {
    fn children(&self, p: u64) -> impl Iterator<Item = u64> + '_ {
        self.jumps
            .iter()
            .filter(move |&&(a, b, t)| p & a != 0 && p & b != 0 && p & t == 0)
            .map(move |&(a, b, t)| p ^ a ^ b ^ t)
    }
}

fn field<'v>(v: &'v Value, name: &str) -> Result<&'v Value> {
    v.get(name)
        .with_context(|| format!("the certificate has no \"{name}\" field"))
}

fn position(v: &Value, n: usize, what: &str) -> Result<u64> {
    let text = v
        .as_str()
        .with_context(|| format!("{what} must be a hexadecimal string, got {v}"))?;
    let p = u64::from_str_radix(text, 16)
        .with_context(|| format!("{what}: {text:?} is not hexadecimal"))?;
    if n < 64 && p >> n != 0 {
        bail!("{what}: {text} names a hole past the board's {n}");
    }
    Ok(p)
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
    let board = Board::parse("certificate", picture).context("the certificate's board")?;
    let n = board.hole_count();
    let lattice = board.lattice().name();
    let dirs = steps(lattice).with_context(|| format!("unknown lattice {lattice}"))?;
    let coords: Vec<(i64, i64)> = (0..n)
        .filter_map(Hole::new)
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
                jumps.push((1u64 << i, 1u64 << b, 1u64 << t));
            }
        }
    }
    let all = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    let game = Game { n, jumps, all };
    let start = position(field(&v, "start")?, n, "\"start\"")?;
    let finishes = match field(&v, "finishes")? {
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
    let kind = field(&v, "kind")?.as_str().unwrap_or("");
    let verdict = match kind {
        "class" => check_class(&v, &game, start, &finishes),
        "pagoda" => check_pagoda(&v, &game, start, &finishes),
        "search" => check_search(&v, &game, start, finishes),
        other => {
            bail!("unknown certificate kind {other:?}; the kinds are class, pagoda and search")
        }
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

/// `Ok(what was checked)` or `Err(what fails)`.
type Verdict = std::result::Result<String, String>;

fn check_class(v: &Value, g: &Game, start: u64, finishes: &Finishes) -> Result<Verdict> {
    let sets: Vec<u64> = field(v, "sets")?
        .as_array()
        .context("\"sets\" must be a list of positions")?
        .iter()
        .map(|s| position(s, g.n, "a set"))
        .collect::<Result<_>>()?;
    for (k, &s) in sets.iter().enumerate() {
        let odd = |&&(a, b, t): &&(u64, u64, u64)| ((a | b | t) & s).count_ones() % 2 == 1;
        if let Some(&(a, _, t)) = g.jumps.iter().find(odd) {
            return Ok(Err(format!(
                "set {k} meets the jump from hole {} to hole {} in an odd number of holes",
                a.trailing_zeros(),
                t.trailing_zeros()
            )));
        }
    }
    let parity = |p: u64, s: u64| (p & s).count_ones() % 2;
    let separated = |f: u64| sets.iter().any(|&s| parity(start, s) != parity(f, s));
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
fn subsets(n: usize, k: usize, f: &mut dyn FnMut(u64) -> bool) {
    fn go(at: usize, n: usize, k: usize, mask: u64, f: &mut dyn FnMut(u64) -> bool) -> bool {
        if k == 0 {
            return f(mask);
        }
        for i in at..=n - k {
            if !go(i + 1, n, k - 1, mask | 1 << i, f) {
                return false;
            }
        }
        true
    }
    if k <= n {
        go(0, n, k, 0, f);
    }
}

/// The first jump a weighting breaks, if any.
fn broken(g: &Game, w: &[i128]) -> Option<(u64, u64, u64)> {
    let at = |m: u64| w[m.trailing_zeros() as usize];
    g.jumps
        .iter()
        .copied()
        .find(|&(a, b, t)| at(a) + at(b) < at(t))
}

fn check_pagoda(v: &Value, g: &Game, start: u64, finishes: &Finishes) -> Result<Verdict> {
    let list = field(v, "pagodas")?
        .as_array()
        .context("\"pagodas\" must be a list")?;
    let [one] = list.as_slice() else {
        bail!("a pagoda certificate has exactly one function");
    };
    let w = weights(one, g.n, "the pagoda function")?;
    if let Some((a, _, t)) = broken(g, &w) {
        return Ok(Err(format!(
            "the weights break the jump from hole {} to hole {}",
            a.trailing_zeros(),
            t.trailing_zeros()
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

fn check_search(v: &Value, g: &Game, start: u64, finishes: Finishes) -> Result<Verdict> {
    let dual = field(v, "dual")?
        .as_bool()
        .context("\"dual\" must be true or false")?;
    // The dual game: from the complement of the one finish to the complement of the start.
    let (start, finishes) = if dual {
        match &finishes {
            Finishes::List(list) if list.len() == 1 => {
                let f = list.iter().next().copied().unwrap_or(0);
                (g.all & !f, Finishes::List(HashSet::from([g.all & !start])))
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
    let triples: HashSet<(u64, u64, u64)> = g.jumps.iter().copied().collect();
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
        let map = |m: u64| 1u64 << perm[m.trailing_zeros() as usize];
        if !g
            .jumps
            .iter()
            .all(|&(a, b, t)| triples.contains(&(map(a), map(b), map(t))))
        {
            return Ok(Err("a symmetry does not map jumps to jumps".to_string()));
        }
        if let Finishes::List(list) = &finishes {
            let image = |p: u64| {
                (0..g.n)
                    .filter(|&i| p >> i & 1 == 1)
                    .fold(0u64, |m, i| m | 1 << perm[i])
            };
            if !list.iter().all(|&f| list.contains(&image(f))) {
                return Ok(Err(
                    "a symmetry does not map the finishes onto themselves".to_string()
                ));
            }
        }
        perms.push(perm);
    }
    // Images under a permutation, a byte at a time.
    let tables: Vec<Vec<[u64; 256]>> = perms
        .iter()
        .map(|perm| {
            (0..8)
                .map(|byte| {
                    let mut t = [0u64; 256];
                    for (value, out) in t.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let hole = 8 * byte + bit;
                            if value >> bit & 1 == 1 && hole < g.n {
                                *out |= 1 << perm[hole];
                            }
                        }
                    }
                    t
                })
                .collect()
        })
        .collect();
    let image = |t: &Vec<[u64; 256]>, p: u64| {
        (0..8).fold(0u64, |m, b| m | t[b][(p >> (8 * b)) as usize & 255])
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
    let cut = |p: u64| functions.iter().any(|(w, floor)| total(w, p) < *floor);
    let members: Vec<u64> = field(v, "positions")?
        .as_array()
        .context("\"positions\" must be a list")?
        .iter()
        .map(|p| position(p, g.n, "a position"))
        .collect::<Result<_>>()?;
    let set: HashSet<u64> = members.iter().copied().collect();
    let member = |p: u64| set.contains(&p) || tables.iter().any(|t| set.contains(&image(t, p)));
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
            let done = (c.count_ones() <= goal && !finishes.contains(c)) || cut(c) || member(c);
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
