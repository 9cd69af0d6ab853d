//! One-dimensional peg solitaire (Moore and Eppstein): the regular language of configurations
//! that reduce to one peg, the linear-time minimum, and a constructive solution.
//!
//! ## The language
//!
//! Playing backwards from one peg ("unhopping": a peg moves two cells and leaves a peg on the
//! cell it crossed), every configuration of three or more pegs that reduces to one peg is made
//! by the stages of the paper, or their mirror images:
//!
//! 1. `10(10)*11`: from `1011`, unhop the rightmost peg any number of times;
//! 2. unhop the leftmost peg one or more times, leaving a pair of holes: `11(01)*00(10)*11`;
//! 3. move the `00` to the right by unhopping pegs into it: `11(01)*(11)*00(10)*11`
//!    (stage 2 is the case of no `11`);
//! 4. or move it all the way to the right: `11(01)*(11)*01`;
//! 5. or fill the pair by unhopping from the left: `11(01)*(11)*1011(10)*11`.
//!
//! With `1`, `011` and `110` (two pegs need a hole beside them, since the board is exactly the
//! given cells) and any holes on either side, this is [`REGEX`]: `0*L0*`. It is compiled here
//! to a DFA (Thompson construction, then subsets).
//!
//! ## The minimum
//!
//! The fewest pegs a string can be reduced to is the fewest pieces in a partition of it into
//! substrings of `0*L0*`, where a piece may also be a bare `11` (the paper: `11` is the only
//! configuration that needs a hole outside its own pegs; on a board that has a hole, it jumps
//! into one a neighbouring piece has vacated). A string with no hole cannot move at all. Both
//! facts are checked against exhaustive search for every string up to 16 cells. A left-to-right pass keeps, for each DFA state, the fewest finished
//! pieces before the current one (the paper's shortest path in the DAG of (state, position)
//! pairs, kept one column at a time), and records for each position the best partition of the
//! prefix ending there: O(n) time, one word per cell. The pieces are recovered backwards by
//! running the DFA on the reversed string (the language is closed under reversal).
//!
//! ## The solution
//!
//! Each piece's pegs match one stage pattern; its jumps are the stage's unhops reversed
//! (see [`reduce_piece`]).

use std::fmt;

/// The language `0*L0*` of configurations that reduce to one peg, as a regular expression.
pub const REGEX: &str = "0*(1|011|110\
|10(10)*11|11(01)*(11)*00(10)*11|11(01)*(11)*01|11(01)*(11)*1011(10)*11\
|11(01)*01|11(01)*00(11)*(10)*11|10(11)*(10)*11|11(01)*1101(11)*(10)*11)0*";

/// A bad configuration string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 0-based index of the offending character (0 for an empty string).
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for LineError {}

/// Reads a configuration of `1` (peg) and `0` (hole); surrounding whitespace is ignored.
pub fn parse_line(text: &str) -> Result<Vec<bool>, LineError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(LineError {
            position: 0,
            message: "empty configuration: give a string of 1 (peg) and 0 (hole), e.g. 1011".into(),
        });
    }
    trimmed
        .bytes()
        .enumerate()
        .map(|(i, b)| match b {
            b'1' => Ok(true),
            b'0' => Ok(false),
            _ => Err(LineError {
                position: i,
                message: format!(
                    "character {} (index {i}) is {:?}: use only 1 for a peg and 0 for a hole",
                    i + 1,
                    trimmed[i..].chars().next().unwrap_or('?')
                ),
            }),
        })
        .collect()
}

/// A deterministic automaton over `{0, 1}`.
#[derive(Clone, Debug)]
pub struct Dfa {
    next: Vec<[u16; 2]>,
    accepting: Vec<bool>,
}

impl Dfa {
    /// Compiles a regular expression over `0`, `1`, `|`, `*` and parentheses.
    ///
    /// # Panics
    /// On a malformed expression: only [`REGEX`] is compiled, and a test covers it.
    #[must_use]
    pub fn compile(regex: &str) -> Dfa {
        let mut nfa = Nfa::default();
        let mut parser = RegexParser {
            text: regex.as_bytes(),
            at: 0,
        };
        let (start, end) = parser.alternation(&mut nfa);
        assert!(parser.at == regex.len(), "bad regex at {}", parser.at);
        nfa.subsets(start, end).minimized()
    }

    /// The minimal equivalent automaton (Moore's partition refinement), start state 0.
    fn minimized(&self) -> Dfa {
        let q = self.states();
        let mut class: Vec<usize> = self.accepting.iter().map(|&a| usize::from(a)).collect();
        loop {
            let mut signatures: Vec<(usize, usize, usize)> = Vec::new();
            let next_class: Vec<usize> = (0..q)
                .map(|s| {
                    let sig = (
                        class[s],
                        class[self.next[s][0] as usize],
                        class[self.next[s][1] as usize],
                    );
                    signatures
                        .iter()
                        .position(|&x| x == sig)
                        .unwrap_or_else(|| {
                            signatures.push(sig);
                            signatures.len() - 1
                        })
                })
                .collect();
            // Refinement only splits classes: no new class means it is stable.
            let before = class.iter().max().map_or(0, |m| m + 1);
            class = next_class;
            if signatures.len() == before {
                break;
            }
        }
        // Renumber so that the start state's class is 0.
        let count = class.iter().max().map_or(0, |m| m + 1);
        let mut order: Vec<usize> = vec![usize::MAX; count];
        let mut fresh = 0;
        let mut visit = |c: usize, order: &mut Vec<usize>| {
            if order[c] == usize::MAX {
                order[c] = fresh;
                fresh += 1;
            }
        };
        visit(class[0], &mut order);
        for &c in &class {
            visit(c, &mut order);
        }
        let mut next = vec![[0u16; 2]; count];
        let mut accepting = vec![false; count];
        for s in 0..q {
            let c = order[class[s]];
            next[c] = [
                order[class[self.next[s][0] as usize]] as u16,
                order[class[self.next[s][1] as usize]] as u16,
            ];
            accepting[c] = self.accepting[s];
        }
        Dfa { next, accepting }
    }

    /// The DFA for [`REGEX`].
    #[must_use]
    pub fn language() -> Dfa {
        Dfa::compile(REGEX)
    }

    /// For each state, whether no accepting state can be reached from it.
    fn hopeless(&self) -> Vec<bool> {
        let mut good = self.accepting.clone();
        loop {
            let mut changed = false;
            for s in 0..self.states() {
                if !good[s] && self.next[s].iter().any(|&t| good[t as usize]) {
                    good[s] = true;
                    changed = true;
                }
            }
            if !changed {
                return good.iter().map(|g| !g).collect();
            }
        }
    }

    /// Number of states (state 0 is the start).
    #[must_use]
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// Whether the automaton accepts `cells`.
    #[must_use]
    pub fn accepts(&self, cells: &[bool]) -> bool {
        let end = cells
            .iter()
            .fold(0usize, |s, &c| self.next[s][c as usize] as usize);
        self.accepting[end]
    }
}

#[derive(Default)]
struct Nfa {
    /// Per state: epsilon moves and moves on 0 and on 1.
    eps: Vec<Vec<usize>>,
    on: Vec<[Option<usize>; 2]>,
}

impl Nfa {
    fn state(&mut self) -> usize {
        self.eps.push(Vec::new());
        self.on.push([None, None]);
        self.eps.len() - 1
    }

    fn closure(&self, set: &mut Vec<usize>) {
        let mut stack = set.clone();
        while let Some(s) = stack.pop() {
            for &t in &self.eps[s] {
                if !set.contains(&t) {
                    set.push(t);
                    stack.push(t);
                }
            }
        }
        set.sort_unstable();
    }

    fn subsets(&self, start: usize, end: usize) -> Dfa {
        let mut first = vec![start];
        self.closure(&mut first);
        let mut sets = vec![first];
        let mut next = Vec::new();
        let mut i = 0;
        while i < sets.len() {
            let mut row = [0u16; 2];
            for (bit, slot) in row.iter_mut().enumerate() {
                let mut to: Vec<usize> = sets[i].iter().filter_map(|&s| self.on[s][bit]).collect();
                self.closure(&mut to);
                to.dedup();
                let k = sets.iter().position(|s| *s == to).unwrap_or_else(|| {
                    sets.push(to);
                    sets.len() - 1
                });
                *slot = k as u16;
            }
            next.push(row);
            i += 1;
        }
        let accepting = sets.iter().map(|s| s.contains(&end)).collect();
        Dfa { next, accepting }
    }
}

struct RegexParser<'a> {
    text: &'a [u8],
    at: usize,
}

impl RegexParser<'_> {
    fn alternation(&mut self, nfa: &mut Nfa) -> (usize, usize) {
        let (start, end) = (nfa.state(), nfa.state());
        loop {
            let (s, e) = self.concatenation(nfa);
            nfa.eps[start].push(s);
            nfa.eps[e].push(end);
            if self.text.get(self.at) == Some(&b'|') {
                self.at += 1;
            } else {
                return (start, end);
            }
        }
    }

    fn concatenation(&mut self, nfa: &mut Nfa) -> (usize, usize) {
        let start = nfa.state();
        let mut end = start;
        while let Some(&c) = self.text.get(self.at) {
            let (s, e) = match c {
                b'0' | b'1' => {
                    self.at += 1;
                    let (s, e) = (nfa.state(), nfa.state());
                    nfa.on[s][(c - b'0') as usize] = Some(e);
                    (s, e)
                }
                b'(' => {
                    self.at += 1;
                    let inner = self.alternation(nfa);
                    assert_eq!(self.text.get(self.at), Some(&b')'), "unclosed group");
                    self.at += 1;
                    inner
                }
                _ => break,
            };
            let (s, e) = if self.text.get(self.at) == Some(&b'*') {
                self.at += 1;
                let (ls, le) = (nfa.state(), nfa.state());
                nfa.eps[ls].extend([s, le]);
                nfa.eps[e].extend([s, le]);
                (ls, le)
            } else {
                (s, e)
            };
            nfa.eps[end].push(s);
            end = e;
        }
        (start, end)
    }
}

/// The answer for one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSolution {
    /// The fewest pegs the configuration reduces to.
    pub min_pegs: usize,
    /// The partition into pieces, each reducing to one peg: `[start, end)` cell ranges.
    pub pieces: Vec<(usize, usize)>,
    /// Jumps `(from, to)` that reach `min_pegs` pegs (the jumped cell is between).
    pub jumps: Vec<(usize, usize)>,
}

/// Solves a configuration in linear time.
///
/// ```
/// let cells = pegsol::one_dimensional::parse_line("1011").unwrap();
/// let s = pegsol::one_dimensional::solve_line(&cells, true);
/// assert_eq!(s.min_pegs, 1);
/// assert_eq!(s.jumps.len(), 2);
/// ```
#[must_use]
pub fn solve_line(cells: &[bool], with_jumps: bool) -> LineSolution {
    let n = cells.len();
    if cells.iter().all(|&c| c) {
        // No hole: no jump is possible; each peg is its own piece.
        return LineSolution {
            min_pegs: n,
            pieces: (0..n).map(|i| (i, i + 1)).collect(),
            jumps: Vec::new(),
        };
    }
    let dfa = Dfa::language();
    let q = dfa.states();
    // Costs are (pieces, bare pairs) packed lexicographically: a bare `11` is used only when
    // no partition of as many pieces avoids it, since it needs a neighbour's hole.
    const PIECE: u64 = 1 << 32;
    const BARE: u64 = PIECE + 1;
    const NONE: u64 = u64::MAX;
    // best[i]: cheapest partition of cells[..i] into pieces, NONE if there is none.
    let mut best = vec![NONE; n + 1];
    best[0] = 0;
    // States from which no piece can be completed are never kept.
    let hopeless = dfa.hopeless();
    // The column of the DAG: the cost of each live state, and the list of live states.
    let mut cur = vec![NONE; q];
    let mut nxt = vec![NONE; q];
    let mut live: Vec<usize> = vec![0];
    let mut next_live: Vec<usize> = Vec::with_capacity(q);
    cur[0] = 0;
    for i in 0..n {
        let c = cells[i] as usize;
        next_live.clear();
        for &a in &live {
            let cur_cost = cur[a];
            let b = dfa.next[a][c] as usize;
            cur[a] = NONE;
            if hopeless[b] {
                continue;
            }
            if nxt[b] == NONE {
                next_live.push(b);
            }
            nxt[b] = nxt[b].min(cur_cost);
        }
        std::mem::swap(&mut cur, &mut nxt);
        std::mem::swap(&mut live, &mut next_live);
        let mut done = NONE;
        for &a in &live {
            if dfa.accepting[a] {
                done = done.min(cur[a] + PIECE);
            }
        }
        if i >= 1 && cells[i] && cells[i - 1] && best[i - 1] != NONE {
            done = done.min(best[i - 1] + BARE);
        }
        best[i + 1] = done;
        if done != NONE {
            if cur[0] == NONE {
                live.push(0);
            }
            cur[0] = cur[0].min(done);
        }
    }
    if best[n] == NONE {
        // No pegs at all: nothing to partition.
        return LineSolution {
            min_pegs: 0,
            pieces: Vec::new(),
            jumps: Vec::new(),
        };
    }
    // Recover the pieces from the right: the language is its own mirror image, so the DFA
    // read right to left recognises each last piece.
    let mut pieces = Vec::with_capacity((best[n] >> 32) as usize);
    let mut end = n;
    while end > 0 {
        if end >= 2
            && cells[end - 1]
            && cells[end - 2]
            && best[end - 2] != NONE
            && best[end - 2] + BARE == best[end]
        {
            pieces.push((end - 2, end));
            end -= 2;
            continue;
        }
        let mut state = 0usize;
        let mut start = end;
        loop {
            start -= 1;
            state = dfa.next[state][cells[start] as usize] as usize;
            if dfa.accepting[state] && best[start] != NONE && best[start] + PIECE == best[end] {
                break;
            }
        }
        pieces.push((start, end));
        end = start;
    }
    pieces.reverse();
    let jumps = if with_jumps {
        play_pieces(cells, &pieces)
    } else {
        Vec::new()
    };
    LineSolution {
        min_pegs: pieces.len(),
        pieces,
        jumps,
    }
}

/// Reduces every piece to one peg: first every piece that can be played within its own
/// cells, then the bare `11` pieces, each into a hole a reduced neighbour has left, or over
/// the neighbour's last peg (repeating while some bare pair can move, since each move frees a
/// hole for the next).
fn play_pieces(cells: &[bool], pieces: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut jumps = Vec::new();
    let mut bare = Vec::new();
    for &(a, b) in pieces {
        if cells[a..b] == [true, true] {
            bare.push(a);
        } else {
            reduce_piece(&cells[a..b], a, &mut jumps);
        }
    }
    if bare.is_empty() {
        return jumps;
    }
    let mut board = cells.to_vec();
    for &(from, to) in &jumps {
        board[from] = false;
        board[(from + to) / 2] = false;
        board[to] = true;
    }
    while !bare.is_empty() {
        let before = bare.len();
        bare.retain(|&a| {
            let n = board.len();
            let empty = |i: usize| i < n && !board[i];
            let peg = |i: usize| i < n && board[i];
            // Into a hole beside the pair; or, where a neighbour's last peg sits beside it,
            // over that peg into the hole beyond (three pegs become two, as two pieces should).
            let jump = if empty(a + 2) {
                (a, a + 2)
            } else if a >= 1 && empty(a - 1) {
                (a + 1, a - 1)
            } else if a >= 2 && peg(a - 1) && empty(a - 2) {
                (a, a - 2)
            } else if peg(a + 2) && empty(a + 3) {
                (a + 1, a + 3)
            } else {
                return true;
            };
            board[jump.0] = false;
            board[(jump.0 + jump.1) / 2] = false;
            board[jump.1] = true;
            jumps.push(jump);
            false
        });
        if bare.len() == before {
            // Cannot happen for a partition of a board with a hole (checked exhaustively).
            break;
        }
    }
    jumps
}

/// Appends the jumps that reduce one piece (a string of `0*L0*` starting at cell `offset`) to
/// one peg: the reverse of the stage's unhops.
///
/// Stage by stage, forwards (positions within the pegs' span `x`):
/// - `10(10)^k11`: the last peg jumps left over its neighbour, `k + 1` times, then
///   `1100 -> 0010`;
/// - `11(01)^a(11)^b00(10)^c11`: the pair of holes moves left (`1100 -> 0010`, `b` times), the
///   front `11` jumps right (`a` times), then `1100 -> 0010` leaves `10(10)^(b+c)11`;
/// - `11(01)^a(11)^b01` with `b >= 1`: `1101 -> 0011` at the end leaves the previous form;
/// - `11(01)^a(11)^b1011(10)^c11`: `1011 -> 1100` in the middle leaves the `00` form;
/// - mirror images are solved mirrored; `1` needs nothing; `11` jumps into the hole beside it.
///
/// # Panics
/// If the piece is not in the language (the partition guarantees it is).
pub fn reduce_piece(piece: &[bool], offset: usize, jumps: &mut Vec<(usize, usize)>) {
    let first = piece.iter().position(|&c| c).expect("a piece has a peg");
    let last = piece.iter().rposition(|&c| c).expect("a piece has a peg");
    let core = &piece[first..=last];
    let base = offset + first;
    if core.len() == 1 {
        return;
    }
    if core == [true, true] {
        if last + 1 < piece.len() {
            jumps.push((base, base + 2));
        } else {
            assert!(first > 0, "11 needs a hole beside it");
            jumps.push((base + 1, base - 1));
        }
        return;
    }
    let mut local = Vec::new();
    if reduce_core(core, &mut local) {
        jumps.extend(local.iter().map(|&(f, t)| (base + f, base + t)));
        return;
    }
    let mirrored: Vec<bool> = core.iter().rev().copied().collect();
    local.clear();
    assert!(
        reduce_core(&mirrored, &mut local),
        "piece is not in the language"
    );
    let m = core.len() - 1;
    jumps.extend(local.iter().map(|&(f, t)| (base + m - f, base + m - t)));
}

/// Reduces a core (first and last cells pegs) of one of the stage forms, unmirrored.
fn reduce_core(core: &[bool], out: &mut Vec<(usize, usize)>) -> bool {
    if core.len() % 2 == 1 {
        return false;
    }
    let chunk = |i: usize| (core[2 * i], core[2 * i + 1]);
    let m = core.len() / 2;
    const C11: (bool, bool) = (true, true);
    const C10: (bool, bool) = (true, false);
    const C01: (bool, bool) = (false, true);
    const C00: (bool, bool) = (false, false);
    // Form A: 10 (10)^k 11.
    if chunk(0) == C10 {
        if chunk(m - 1) != C11 || (1..m - 1).any(|i| chunk(i) != C10) {
            return false;
        }
        stage_one(2 * m - 1, out);
        return true;
    }
    if chunk(0) != C11 {
        return false;
    }
    let mut i = 1;
    while i < m && chunk(i) == C01 {
        i += 1;
    }
    let a = i - 1;
    while i < m && chunk(i) == C11 {
        i += 1;
    }
    let b = i - 1 - a;
    let hole_pair = |pair: usize, out: &mut Vec<(usize, usize)>| {
        // 11(01)^a(11)^b 00 ... with the 00 at chunk `pair`.
        let mut p = pair;
        for _ in 0..b {
            // 1100 -> 0010 just before the holes: the holes move left.
            out.push((2 * p - 2, 2 * p));
            p -= 1;
        }
        // 11(01)^a 00 ...: the front pair jumps right, a times, then once more into the holes.
        let mut q = 0;
        for _ in 0..a {
            out.push((q, q + 2));
            q += 2;
        }
        out.push((q, q + 2));
        // Now 10(10)^(...)11 from cell q + 2 to the end.
        stage_one_from(q + 2, core.len() - 1, out);
    };
    if i == m {
        // 11(01)^a with a >= 1 is the mirror image of form A: solved mirrored.
        return false;
    }
    match chunk(i) {
        C00 => {
            if chunk(m - 1) != C11 || i + 1 >= m || (i + 1..m - 1).any(|k| chunk(k) != C10) {
                return false;
            }
            hole_pair(i, out);
            true
        }
        C01 if i == m - 1 && b >= 1 => {
            // ...11 01 -> ...00 11: the holes move in from the right end.
            out.push((2 * i - 2, 2 * i));
            let mut rest = core.to_vec();
            rest[2 * i - 2] = false;
            rest[2 * i - 1] = false;
            rest[2 * i] = true;
            let mut tail = Vec::new();
            if !reduce_core(&rest, &mut tail) {
                return false;
            }
            out.extend(tail);
            true
        }
        C10 => {
            // 11(01)^a(11)^b 10 11 (10)^c 11: 1011 -> 1100 leaves the 00 form.
            if i + 2 >= m || chunk(i + 1) != C11 || chunk(m - 1) != C11 {
                return false;
            }
            if (i + 2..m - 1).any(|k| chunk(k) != C10) {
                return false;
            }
            out.push((2 * i + 3, 2 * i + 1));
            let mut rest = core.to_vec();
            rest[2 * i + 1] = true;
            rest[2 * i + 2] = false;
            rest[2 * i + 3] = false;
            let mut tail = Vec::new();
            if !reduce_core(&rest, &mut tail) {
                return false;
            }
            out.extend(tail);
            true
        }
        _ => false,
    }
}

/// `10(10)^k11` on cells `0..=last`.
fn stage_one(last: usize, out: &mut Vec<(usize, usize)>) {
    stage_one_from(0, last, out);
}

/// `10(10)^k11` on cells `first..=last`: the last peg jumps left over its neighbour until
/// `1100` remains at `first`, which jumps right.
fn stage_one_from(first: usize, last: usize, out: &mut Vec<(usize, usize)>) {
    let mut p = last;
    while p >= first + 3 {
        out.push((p, p - 2));
        p -= 2;
    }
    out.push((first, first + 2));
}

/// The fewest pegs by exhaustive search, for tests and small inputs (at most 24 cells).
#[must_use]
pub fn brute_force_min(cells: &[bool]) -> usize {
    assert!(cells.len() <= 24);
    let n = cells.len();
    let start: u32 = cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &c)| acc | (u32::from(c) << i));
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start];
    let mut best = start.count_ones() as usize;
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        best = best.min(p.count_ones() as usize);
        for i in 0..n.saturating_sub(2) {
            let (a, b, c) = (1 << i, 1 << (i + 1), 1 << (i + 2));
            if p & a != 0 && p & b != 0 && p & c == 0 {
                stack.push(p ^ a ^ b ^ c);
            }
            if p & c != 0 && p & b != 0 && p & a == 0 {
                stack.push(p ^ a ^ b ^ c);
            }
        }
    }
    best
}

/// Plays `jumps` on `cells`, checking each; the number of pegs left.
pub fn replay_line(cells: &[bool], jumps: &[(usize, usize)]) -> Result<usize, String> {
    let mut cells = cells.to_vec();
    for (k, &(from, to)) in jumps.iter().enumerate() {
        let ok = from.abs_diff(to) == 2
            && from.max(to) < cells.len()
            && cells[from]
            && cells[(from + to) / 2]
            && !cells[to];
        if !ok {
            return Err(format!("jump {} ({from}-{to}) is illegal", k + 1));
        }
        cells[from] = false;
        cells[(from + to) / 2] = false;
        cells[to] = true;
    }
    Ok(cells.iter().filter(|&&c| c).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(s: &str) -> Vec<bool> {
        parse_line(s).unwrap()
    }

    #[test]
    fn small_cases() {
        let dfa = Dfa::language();
        for yes in [
            "1",
            "011",
            "110",
            "1011",
            "1101",
            "101011",
            "0010110",
            "1100101011",
        ] {
            assert!(dfa.accepts(&bits(yes)), "{yes}");
        }
        for no in ["0", "11", "111", "11011", "1001", "10101"] {
            assert!(!dfa.accepts(&bits(no)), "{no}");
        }
        assert_eq!(solve_line(&bits("000"), true).min_pegs, 0);
        assert_eq!(solve_line(&bits("11"), true).min_pegs, 2);
        assert!(parse_line("10a1").unwrap_err().message.contains("index 2"));
        assert!(parse_line("  ").is_err());
    }

    /// Every string of 1 to `max` cells.
    fn all_strings(max: usize) -> impl Iterator<Item = Vec<bool>> {
        (1..=max)
            .flat_map(|n| (0u32..(1 << n)).map(move |x| (0..n).map(|i| x >> i & 1 == 1).collect()))
    }

    #[test]
    fn language_is_its_own_mirror_image() {
        let dfa = Dfa::language();
        for s in all_strings(14) {
            let r: Vec<bool> = s.iter().rev().copied().collect();
            assert_eq!(dfa.accepts(&s), dfa.accepts(&r));
        }
    }

    #[test]
    fn language_minimum_and_jumps_match_brute_force() {
        // One brute-force pass over every string of up to 16 cells checks three things: the
        // language is exactly the strings that reduce to one peg, the linear-time minimum is
        // the true minimum, and the printed jumps replay to exactly that many pegs.
        let dfa = Dfa::language();
        for s in all_strings(16) {
            let truth = brute_force_min(&s);
            assert_eq!(dfa.accepts(&s), truth == 1 && s.contains(&true), "{s:?}");
            let sol = solve_line(&s, true);
            assert_eq!(sol.min_pegs, truth, "{s:?}");
            assert_eq!(replay_line(&s, &sol.jumps), Ok(sol.min_pegs), "{s:?}");
            // The pieces tile the string.
            let mut at = 0;
            for &(a, b) in &sol.pieces {
                assert_eq!(a, at);
                at = b;
            }
            assert!(sol.pieces.is_empty() || at == s.len());
        }
    }
}
