//! The three proofs, each checked from the file's own data: `Ok(what was checked)` or
//! `Err(the first thing that fails)`.

use std::collections::{HashMap, HashSet};

use super::game::{total, Finishes, Game};
use super::position::Pos;

/// `Ok(what was checked)` or `Err(what fails)`.
pub(super) type Verdict = Result<String, String>;

/// The most parity patterns the class check follows over any `k` pegs; a certificate that
/// needs more is rejected as too large to check (pegsol's have at most a few dozen).
const MAX_PATTERNS: usize = 1 << 16;

/// `1 set`, `2 sets`: `n` with the word for one or for several.
pub(super) fn many(n: usize, one: &str, several: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { several })
}

/// Class: every set meets every jump in 0 or 2 holes, and every finish has another parity
/// than the start on some set.
pub(super) fn class<const W: usize>(
    g: &Game<W>,
    sets: &[Pos<W>],
    start: Pos<W>,
    finishes: &Finishes<W>,
) -> Verdict {
    for (k, &s) in sets.iter().enumerate() {
        let odd = |(_, &m): &(&(usize, usize, usize), &Pos<W>)| (m & s).count() % 2 == 1;
        if let Some((&j, _)) = g.jumps.iter().zip(&g.masks).find(odd) {
            return Err(format!(
                "set {k} meets {} in an odd number of holes",
                g.jump(j)
            ));
        }
    }
    let parity = |p: Pos<W>, s: Pos<W>| (p & s).count() % 2;
    let finishes_text = match finishes {
        Finishes::List(list) => {
            let separated = |f: Pos<W>| sets.iter().any(|&s| parity(start, s) != parity(f, s));
            if let Some(f) = list.iter().find(|&&f| !separated(f)) {
                return Err(format!(
                    "no set separates the finish {} from the start",
                    g.position(*f)
                ));
            }
            many(list.len(), "finish", "finishes")
        }
        Finishes::Pegs(k) => {
            if k_pegs_match_the_start(g, sets, start, *k as usize)? {
                return Err(format!(
                    "some position of {} has the start's parity on every set",
                    many(*k as usize, "peg", "pegs")
                ));
            }
            format!("positions of {}", many(*k as usize, "peg", "pegs"))
        }
    };
    Ok(format!(
        "{} each meeting all {} in 0 or 2 holes, and on each of the {finishes_text} one of them has a different parity than on the start",
        many(sets.len(), "set", "sets"),
        many(g.jumps.len(), "jump", "jumps"),
    ))
}

/// Whether some position of exactly `k` pegs has the start's parity on every set. Exact,
/// without listing the positions: hole by hole, the parity patterns (one bit a set) that
/// the holes so far can give, each with the peg counts that give it.
fn k_pegs_match_the_start<const W: usize>(
    g: &Game<W>,
    sets: &[Pos<W>],
    start: Pos<W>,
    k: usize,
) -> Result<bool, String> {
    let words = sets.len().div_ceil(64).max(1);
    let pattern = |p: Pos<W>| {
        let mut v = vec![0u64; words];
        for (j, &s) in sets.iter().enumerate() {
            if (p & s).count() % 2 == 1 {
                v[j / 64] |= 1 << (j % 64);
            }
        }
        v
    };
    // Peg counts 0..=k as a bitset of 257 bits at most.
    type Counts = [u64; 5];
    let keep = |c: &mut Counts| {
        for (i, w) in c.iter_mut().enumerate() {
            let below = (k + 1).saturating_sub(64 * i).min(64);
            *w &= if below == 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
        }
    };
    let mut reach: HashMap<Vec<u64>, Counts> = HashMap::from([(vec![0; words], [1, 0, 0, 0, 0])]);
    for h in 0..g.n {
        let col = pattern(Pos::bit(h));
        let mut next = reach.clone();
        for (v, c) in &reach {
            let moved: Vec<u64> = v.iter().zip(&col).map(|(a, b)| a ^ b).collect();
            // One more peg: every count up by one.
            let mut up = [0u64; 5];
            for i in 0..5 {
                up[i] = c[i] << 1 | if i > 0 { c[i - 1] >> 63 } else { 0 };
            }
            keep(&mut up);
            let slot = next.entry(moved).or_insert([0; 5]);
            for i in 0..5 {
                slot[i] |= up[i];
            }
        }
        reach = next;
        if reach.len() > MAX_PATTERNS {
            return Err(format!(
                "the sets give more than {MAX_PATTERNS} parity patterns, too many to check"
            ));
        }
    }
    Ok(reach
        .get(&pattern(start))
        .is_some_and(|c| c[k / 64] >> (k % 64) & 1 == 1))
}

/// Pagoda: the weights satisfy every jump, and the start totals less than every finish.
pub(super) fn pagoda<const W: usize>(
    g: &Game<W>,
    w: &[i128],
    start: Pos<W>,
    finishes: &Finishes<W>,
) -> Verdict {
    if let Some((a, b, t)) = g.broken(w) {
        return Err(format!(
            "the weights break {}: w(from) + w(over) = {} + {} < {} = w(to)",
            g.jump((a, b, t)),
            w[a],
            w[b],
            w[t]
        ));
    }
    let (s, f) = (total(w, start), finishes.floor(w));
    if s < f {
        Ok(format!(
            "w(from) + w(over) >= w(to) for all {} jumps, so totals never rise, and the start totals {s} < {f}, the least a finish totals",
            g.jumps.len()
        ))
    } else {
        Err(format!(
            "the start totals {s}, not less than the finishes' {f}"
        ))
    }
}

/// A search certificate's data, read and in range.
pub(super) struct Search<const W: usize> {
    pub(super) dual: bool,
    pub(super) perms: Vec<Vec<u32>>,
    pub(super) pagodas: Vec<Vec<i128>>,
    pub(super) members: Vec<Pos<W>>,
    /// The bytes the image tables may take (a small multiple of the file's size).
    pub(super) table_budget: usize,
}

/// Images under one permutation: by byte tables where the budget allows, else hole by hole.
enum Image<'p, const W: usize> {
    Tables(Vec<[Pos<W>; 256]>),
    /// The permutation as read, borrowed: the symmetries are not held twice.
    Holes(&'p [u32]),
}

impl<'p, const W: usize> Image<'p, W> {
    const TABLE_BYTES: usize = 8 * W * 256 * std::mem::size_of::<Pos<W>>();

    fn new(perm: &'p [u32], tables: bool) -> Self {
        if !tables {
            return Image::Holes(perm);
        }
        Image::Tables(
            (0..8 * W)
                .map(|byte| {
                    let mut t = [Pos::ZERO; 256];
                    for (value, out) in t.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let hole = 8 * byte + bit;
                            if value >> bit & 1 == 1 && hole < perm.len() {
                                *out = *out | Pos::bit(perm[hole] as usize);
                            }
                        }
                    }
                    t
                })
                .collect(),
        )
    }

    fn of(&self, p: Pos<W>) -> Pos<W> {
        match self {
            Image::Tables(t) => (0..8 * W).fold(Pos::ZERO, |m, b| {
                m | t[b][(p.0[b / 8] >> (8 * (b % 8))) as usize & 255]
            }),
            Image::Holes(perm) => p
                .holes()
                .fold(Pos::ZERO, |m, i| m | Pos::bit(perm[i] as usize)),
        }
    }
}

/// Search: a set of positions closed under jumps, up to symmetry, pagoda cuts and too few
/// pegs, that holds the start and no finish.
pub(super) fn search<const W: usize>(
    g: &Game<W>,
    data: Search<W>,
    start: Pos<W>,
    finishes: Finishes<W>,
) -> Verdict {
    let dual = data.dual;
    // The dual game: from the complement of the one finish to the complement of the start.
    let (start, finishes) = if dual {
        match &finishes {
            Finishes::List(list) if list.len() == 1 => {
                let f = list.iter().next().copied().unwrap_or(Pos::ZERO);
                (g.all ^ f, Finishes::List(HashSet::from([g.all ^ start])))
            }
            _ => return Err("a dual certificate needs exactly one finish".to_string()),
        }
    } else {
        (start, finishes)
    };
    let goal = finishes.fewest_pegs();
    // Symmetries: permutations mapping jumps to jumps and the finishes onto themselves.
    let triples: HashSet<(usize, usize, usize)> = g.jumps.iter().copied().collect();
    let tables = data.perms.len().saturating_mul(Image::<W>::TABLE_BYTES) <= data.table_budget;
    let mut images: Vec<Image<'_, W>> = Vec::with_capacity(data.perms.len());
    for (k, perm) in data.perms.iter().enumerate() {
        let mut seen = vec![false; g.n];
        if perm.len() != g.n
            || perm
                .iter()
                .any(|&i| i as usize >= g.n || std::mem::replace(&mut seen[i as usize], true))
        {
            return Err(format!("symmetry {k} is not a permutation of the holes"));
        }
        let p = |i: usize| perm[i] as usize;
        if let Some(&j) = g
            .jumps
            .iter()
            .find(|&&(a, b, t)| !triples.contains(&(p(a), p(b), p(t))))
        {
            return Err(format!("symmetry {k} does not map {} to a jump", g.jump(j)));
        }
        let image = Image::new(perm, tables);
        if let Finishes::List(list) = &finishes {
            if let Some(f) = list.iter().find(|&&f| !list.contains(&image.of(f))) {
                return Err(format!(
                    "symmetry {k} maps the finish {} off the finishes",
                    g.position(*f)
                ));
            }
        }
        images.push(image);
    }
    // Pagoda functions: valid, each with its floor.
    let mut functions: Vec<(&[i128], i128)> = Vec::new();
    for (k, w) in data.pagodas.iter().enumerate() {
        if let Some((a, b, t)) = g.broken(w) {
            return Err(format!(
                "pagoda function {k} breaks {}: w(from) + w(over) = {} + {} < {} = w(to)",
                g.jump((a, b, t)),
                w[a],
                w[b],
                w[t]
            ));
        }
        functions.push((w, finishes.floor(w)));
    }
    let cut = |p: Pos<W>| functions.iter().any(|(w, floor)| total(w, p) < *floor);
    let members = &data.members;
    let set: HashSet<Pos<W>> = members.iter().copied().collect();
    let member = |p: Pos<W>| set.contains(&p) || images.iter().any(|i| set.contains(&i.of(p)));
    if members.first() != Some(&start) && !cut(start) {
        return Err(
            "the first position is not the start, and no function cuts the start".to_string(),
        );
    }
    let mut children = 0u64;
    for &p in members {
        if finishes.contains(p) {
            return Err(format!("the member {} is a finish", g.position(p)));
        }
        for c in g.children(p) {
            children += 1;
            let done = (c.count() <= goal && !finishes.contains(c)) || cut(c) || member(c);
            if !done {
                return Err(format!(
                    "the set is not closed: the member {} has a child {} that is neither a member (up to symmetry), nor cut, nor short of pegs",
                    g.position(p),
                    g.position(c)
                ));
            }
        }
    }
    Ok(format!(
        "{}{}, none a finish, the start first; each of their {} is a member up to one of {} (the identity and {}, each mapping jumps to jumps and the finishes onto themselves), has no more pegs than the smallest finish ({goal}) and is not one, or totals less than every finish under one of {} (each valid for all {})",
        many(members.len(), "position", "positions"),
        if dual { " of the dual game (from the complement of the finish to the complement of the start)" } else { "" },
        many(children as usize, "child", "children"),
        many(data.perms.len() + 1, "symmetry", "symmetries"),
        data.perms.len(),
        many(functions.len(), "pagoda function", "pagoda functions"),
        many(g.jumps.len(), "jump", "jumps")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parity patterns' count of `k` pegs against listing every `k`-subset, on random
    /// sets of up to 12 holes (no jumps are needed: the count reads the holes alone).
    #[test]
    fn any_k_pegs_agrees_with_listing_the_positions() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut matched, mut separated) = (0, 0);
        for _ in 0..400 {
            let n = 1 + (next() % 12) as usize;
            let g = Game::<1>::new(
                &(0..n as i64).map(|i| (0, 3 * i)).collect::<Vec<_>>(),
                &[],
                Vec::new(),
            );
            let sets: Vec<Pos<1>> = (0..next() % 4).map(|_| Pos([next() % (1 << n)])).collect();
            let start = Pos([next() % (1 << n)]);
            for k in 0..=n {
                let listed = (0u64..1 << n)
                    .filter(|p| p.count_ones() as usize == k)
                    .any(|p| {
                        sets.iter()
                            .all(|&s| (Pos([p]) & s).count() % 2 == (start & s).count() % 2)
                    });
                assert_eq!(
                    k_pegs_match_the_start(&g, &sets, start, k),
                    Ok(listed),
                    "n {n}, k {k}"
                );
                if listed {
                    matched += 1;
                } else {
                    separated += 1;
                }
            }
        }
        assert!(matched > 100 && separated > 100, "{matched} {separated}");
    }
}
