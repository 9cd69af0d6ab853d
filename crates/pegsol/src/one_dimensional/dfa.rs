//! The automaton of the language `0*L0*`: a regular expression compiled by Thompson's
//! construction and the subset construction, then minimised.

use super::REGEX;

/// A deterministic automaton over `{0, 1}`.
#[derive(Clone, Debug)]
pub struct Dfa {
    pub(super) next: Vec<[u16; 2]>,
    pub(super) accepting: Vec<bool>,
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
    pub(super) fn hopeless(&self) -> Vec<bool> {
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
