//! A line of few moves, not proven fewest: a beam over moves, for the upper bound where the
//! meeting's proof runs out of budget.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::chains::{Build, Chains};
use super::meet::{ends_of, group_of_ends, MeetSolution};
use super::moves::move_count;
use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::{Jump, JumpTable};
use crate::problem::{Limits, Problem};
use crate::replay::replay;
use crate::stop::Stop;
use crate::symmetry::Canonicalizer;
use crate::width::with_width;

/// A line with few moves (not proven fewest) from one of the problem's starts to its finish,
/// by a beam over moves: each level holds the `width` best positions one more move from a
/// start (merged by symmetry), best meaning the least `2 * pegs + 3 * regions`, with
/// `regions` the Merson-region bound on the moves still needed ([`super::MoveBound`]), then
/// most legal jumps, then fewest pegs on the holes few jumps clear. Widths grow fourfold from
/// 256 while `limits.timeout` allows (one beam without a timeout); the line with the fewest
/// moves is returned, replayed by the independent checker and its moves recounted.
///
/// ```
/// use pegsol::{Board, Finish, Limits, Problem};
/// use pegsol::fewest::{few_moves, single_vacancies};
/// let board = Board::builtin("triangle:6")?;
/// let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne)?;
/// let line = few_moves(&basic, &Limits::default())?.expect("the basic game is solvable");
/// assert!(line.moves >= 9); // the proven fewest
/// # Ok::<(), pegsol::Error>(())
/// ```
///
/// # Errors
///
/// A line that fails its independent check (a bug, [`Error::Internal`]).
pub fn few_moves(problem: &Problem, limits: &Limits) -> Result<Option<MeetSolution>> {
    let began = Instant::now();
    let board = problem.board();
    let (starts, targets) = ends_of(problem);
    if starts.is_empty() {
        return Ok(None);
    }
    let group = group_of_ends(board, &starts, &targets);
    let sym = board.symmetries();
    let found = with_width!(board, W => {
        let narrow = |list: &[crate::Pegs]| list.iter().map(|s| s.resize()).collect::<Vec<Bits<W>>>();
        let (starts, targets) = (narrow(&starts), narrow(&targets));
        let beam = Beam {
            chains: Chains::new(board, &starts, &targets),
            legal: JumpTable::new(board.jumps()),
            hard: hard_holes(board),
            bound: super::MoveBound::new(board),
            finish: problem.finish(),
            canon: sym.canonicalizer(&group),
            // Half, as for the meeting: the process holds more than the beam counts.
            max_memory: limits.max_memory / 2,
            halt: limits.stop(began),
        };
        beam.run(&starts, &targets.into_iter().collect())
    });
    if let Some(s) = &found {
        let end = replay(board, s.start, &s.jumps)?;
        let ok = end == s.finish
            && targets.contains(&end)
            && starts.contains(&s.start)
            && move_count(&s.jumps) == s.moves;
        if !ok {
            return Err(Error::Internal("a line of few moves failed its replay"));
        }
    }
    Ok(found)
}

/// The holes few jumps clear (at most half as many as the hole most cleared): pegs left
/// there are hard to remove later, so the beam prefers positions with fewer of them.
fn hard_holes<W: Word>(board: &Board) -> Bits<W> {
    let mut clearing = vec![0u32; board.hole_count()];
    for j in board.jumps() {
        clearing[j.from().index()] += 1;
        clearing[j.over().index()] += 1;
    }
    let most = clearing.iter().copied().max().unwrap_or(0);
    (0..board.hole_count())
        .filter(|&h| 2 * clearing[h] <= most)
        .fold(Bits::EMPTY, |s, h| s.with(Hole::at(h)))
}

/// How a beam ranks a position, least first: pegs and moves still needed (the Merson-region
/// bound) weighed together, legal jumps (negated), pegs on hard holes, and a hash to break
/// ties alike on every run.
///
/// Why the weights: pegs alone (fewest first) fill the beam with positions that cleared many
/// pegs but left many regions full, each a move of its own later. Measured on the basic
/// games, one beam of 16,384: triangle:9 17 moves (18 by pegs alone), triangle:10 19 (20),
/// and on triangle:11 pegs alone found none; a beam of 65,536 finds 23 there, and a beam of
/// 4,096 finds lines on hexagon:5 and the English board's basic game where pegs alone find
/// none. `pegs + 2 * regions` did as well, `pegs + 3 * regions` worse on triangle:10 (20).
/// On triangle:12 this ranking's beams up to 65,536 found no line (the beam dies out in
/// stuck positions), where pegs alone found the 28-move line of docs/solutions.
type Score = (u32, i64, u32, u64);

/// One entry of a level: the position, its parent in the level before, and the jumps of the
/// move that led to it.
struct Step<W: Word> {
    pos: Bits<W>,
    parent: u32,
    jumps: Vec<u32>,
}

struct Beam<'l, W: Word> {
    chains: Chains<W>,
    legal: JumpTable<W>,
    hard: Bits<W>,
    bound: super::MoveBound<W>,
    finish: crate::Finish,
    canon: Canonicalizer<W>,
    max_memory: usize,
    /// The budget's deadline and cancel flag.
    halt: Stop<'l>,
}

impl<W: Word> Beam<'_, W> {
    fn halted(&self) -> bool {
        self.halt.passed()
    }

    fn run(&self, starts: &[Bits<W>], targets: &HashSet<Bits<W>, Build>) -> Option<MeetSolution> {
        if let Some(&s) = starts.iter().find(|s| targets.contains(s)) {
            return Some(MeetSolution {
                start: s.resize(),
                jumps: Vec::new(),
                moves: 0,
                finish: s.resize(),
            });
        }
        let mut best: Option<MeetSolution> = None;
        let mut width = 256usize;
        loop {
            let limit = best.as_ref().map_or(u32::MAX, |b| b.moves);
            let (found, cut) = self.once(starts, targets, width, limit);
            let Some(cut) = cut else {
                // The next level did not fit the memory budget: no wider beam will.
                return best.or(found);
            };
            if let Some(f) = found {
                if best.as_ref().is_none_or(|b| f.moves < b.moves) {
                    best = Some(f);
                }
            }
            // A beam that never cut a level searched every line: nothing shorter exists.
            if !cut || self.halted() || !self.halt.timed() {
                return best;
            }
            width = width.saturating_mul(4);
        }
    }

    /// One beam of `width`, looking for lines of fewer than `limit` moves; the line found,
    /// and whether a level was cut (`None`: a level would not fit in the memory budget).
    fn once(
        &self,
        starts: &[Bits<W>],
        targets: &HashSet<Bits<W>, Build>,
        width: usize,
        limit: u32,
    ) -> (Option<MeetSolution>, Option<bool>) {
        // A child: its key and entry in the table (twice over while it grows), and its move's
        // jumps' own allocation.
        let child_bytes = 3 * std::mem::size_of::<(Bits<W>, Step<W>)>() + 64;
        let mut held = 0usize;
        let mut levels: Vec<Vec<Step<W>>> = vec![starts
            .iter()
            .map(|&pos| Step {
                pos,
                parent: 0,
                jumps: Vec::new(),
            })
            .collect()];
        let mut cut = false;
        let mut children = Vec::new();
        while (levels.len() as u32) < limit {
            if self.halted() {
                return (None, Some(true));
            }
            let level = levels.last().expect("level 0");
            let mut next: HashMap<Bits<W>, Step<W>, Build> = HashMap::default();
            for (i, step) in level.iter().enumerate() {
                // A wide level takes seconds: the clock is read within it too.
                if i % 1024 == 1023 && self.halted() {
                    return (None, Some(true));
                }
                children.clear();
                self.chains.moves_traced(step.pos, &mut children);
                for (c, jumps) in children.drain(..) {
                    if targets.contains(&c) {
                        return (Some(self.line(&levels, i, jumps, c)), Some(cut));
                    }
                    next.entry(self.canon.canonical(c)).or_insert(Step {
                        pos: c,
                        parent: i as u32,
                        jumps,
                    });
                }
                if held + next.capacity() * child_bytes > self.max_memory {
                    return (None, None);
                }
            }
            if next.is_empty() {
                return (None, Some(cut));
            }
            // The bound costs a microsecond a child and a wide level has millions: the clock
            // is read while they are ranked too.
            let mut stopped = false;
            let mut scored: Vec<(Score, Step<W>)> = next
                .into_values()
                .enumerate()
                .map(|(i, s)| {
                    if i % 4096 == 4095 && !stopped {
                        stopped = self.halted();
                    }
                    let regions = if stopped {
                        0
                    } else {
                        self.bound.moves_needed(s.pos, &self.finish)
                    };
                    let key = (
                        2 * s.pos.count() + 3 * regions,
                        -(self.legal.legal_count(s.pos) as i64),
                        s.pos.intersect(self.hard).count(),
                        s.pos.hash64(),
                    );
                    (key, s)
                })
                .collect();
            if stopped {
                return (None, Some(true));
            }
            if scored.len() > width {
                cut = true;
                scored.select_nth_unstable_by(width, |a, b| a.0.cmp(&b.0));
                scored.truncate(width);
            }
            held += scored.len() * (std::mem::size_of::<Step<W>>() + 64);
            levels.push(scored.into_iter().map(|s| s.1).collect());
        }
        (None, Some(cut))
    }

    /// The line ending with the move `last` (to `finish`) from entry `i` of the last level,
    /// walked back to its start through the parents.
    fn line(
        &self,
        levels: &[Vec<Step<W>>],
        i: usize,
        last: Vec<u32>,
        finish: Bits<W>,
    ) -> MeetSolution {
        let mut moves = vec![last];
        let mut index = i;
        let mut start = finish;
        for l in levels.iter().rev() {
            let s = &l[index];
            moves.push(s.jumps.clone());
            start = s.pos;
            index = s.parent as usize;
        }
        let jumps: Vec<Jump> = moves
            .into_iter()
            .rev()
            .flatten()
            .map(|k| self.chains.jump(k))
            .collect();
        MeetSolution {
            start: start.resize(),
            moves: levels.len() as u32,
            finish: finish.resize(),
            jumps,
        }
    }
}
