//! The runs a cluster's workers exchange: which worker owns a key, and the sorted runs a
//! worker receives in a round merged into its share of a level.

use super::packed::rank;
use super::CountError;
use crate::key::CountKey;
use crate::spill::Value;

/// The worker that owns `key` among `peers`: the workers split the range of [`rank`]'s
/// leading word into equal parts (ranks are spread evenly), so that a level in rank order
/// falls into one slice per worker, in worker order.
pub(super) fn owner<K: CountKey>(key: K, peers: usize) -> usize {
    ((u128::from(rank(key).head()) * peers as u128) >> 64) as usize
}

/// A batch of keys received in a round, with its place among the round's batches.
pub(super) struct Piece<K> {
    /// (sender, piece): a sender's pieces in piece order make one sorted run.
    pub(super) order: (u32, u32),
    pub(super) keys: Vec<K>,
    /// The keys' path counts; empty for parents.
    pub(super) paths: Vec<u128>,
}

/// The keys of a round, merged: this worker's own run (`own`, keys and paths) and the
/// pieces received, into distinct keys in [`rank`] order with the paths of equal keys summed
/// (no paths for parents, whose pieces have none). Each piece is in [`rank`] order and a
/// sender's pieces follow each other in piece order, so each sender's pieces, put together,
/// make one sorted run; the runs are merged two by two, in rounds, so that each key is copied
/// about log2 of the number of runs times.
pub(super) fn merge_round<K: CountKey>(
    own: (&[K], &[u128]),
    mut pieces: Vec<Piece<K>>,
) -> Result<(Vec<K>, Vec<u128>), CountError> {
    pieces.sort_unstable_by_key(|p| p.order);
    let counted = !own.1.is_empty() || pieces.iter().any(|p| !p.paths.is_empty());
    let paths_of = |n: usize| if counted { n } else { 0 };
    if pieces
        .iter()
        .any(|p| p.paths.len() != paths_of(p.keys.len()))
        || own.1.len() != paths_of(own.0.len())
    {
        return Err(CountError::Internal(
            "a piece of children without its paths",
        ));
    }
    let mut runs: Vec<(Vec<K>, Vec<u128>)> = Vec::new();
    let mut last = None;
    for Piece { order, keys, paths } in pieces {
        match runs.last_mut() {
            Some(r) if last == Some(order.0) => {
                r.0.extend_from_slice(&keys);
                r.1.extend_from_slice(&paths);
            }
            _ => runs.push((keys, paths)),
        }
        last = Some(order.0);
    }
    // The own run is borrowed: it is merged with a received one (or copied) first.
    let mut level = match runs.pop() {
        Some(r) => vec![merge_two(own, (&r.0, &r.1), counted)?],
        None => vec![(own.0.to_vec(), own.1.to_vec())],
    };
    level.extend(runs);
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        let mut pairs = level.into_iter();
        while let Some(a) = pairs.next() {
            match pairs.next() {
                Some(b) => next.push(merge_two((&a.0, &a.1), (&b.0, &b.1), counted)?),
                None => next.push(a),
            }
        }
        level = next;
    }
    Ok(level.pop().unwrap_or_default())
}

/// Two runs of distinct keys in [`rank`] order (with their paths where `counted`) merged
/// into one, the paths of a key in both summed.
fn merge_two<K: CountKey>(
    a: (&[K], &[u128]),
    b: (&[K], &[u128]),
    counted: bool,
) -> Result<(Vec<K>, Vec<u128>), CountError> {
    let n = a.0.len() + b.0.len();
    let mut keys = Vec::with_capacity(n);
    let mut paths = Vec::with_capacity(if counted { n } else { 0 });
    let (mut i, mut j) = (0, 0);
    while i < a.0.len() && j < b.0.len() {
        let (x, y) = (a.0[i], b.0[j]);
        match rank(x).cmp(&rank(y)) {
            std::cmp::Ordering::Less => {
                keys.push(x);
                if counted {
                    paths.push(a.1[i]);
                }
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                keys.push(y);
                if counted {
                    paths.push(b.1[j]);
                }
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                keys.push(x);
                if counted {
                    paths.push(a.1[i].checked_add(b.1[j]).ok_or(CountError::Overflow)?);
                }
                i += 1;
                j += 1;
            }
        }
    }
    keys.extend_from_slice(&a.0[i..]);
    keys.extend_from_slice(&b.0[j..]);
    if counted {
        paths.extend_from_slice(&a.1[i..]);
        paths.extend_from_slice(&b.1[j..]);
    }
    Ok((keys, paths))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// Pieces of runs from several senders, each run distinct keys in rank order cut into
    /// pieces, given in any order: the merge sums each key's paths over the runs, as a map
    /// does, and keeps rank order.
    fn check(runs: Vec<BTreeMap<u64, u64>>, own: BTreeMap<u64, u64>, cut: usize, counted: bool) {
        let sorted = |m: &BTreeMap<u64, u64>| -> (Vec<u64>, Vec<u128>) {
            let mut v: Vec<(u64, u128)> = m.iter().map(|(&k, &p)| (k, u128::from(p))).collect();
            v.sort_by_key(|&(k, _)| rank(k));
            let paths = if counted {
                v.iter().map(|x| x.1).collect()
            } else {
                Vec::new()
            };
            (v.iter().map(|x| x.0).collect(), paths)
        };
        let mut pieces = Vec::new();
        let mut want: BTreeMap<u64, u128> = BTreeMap::new();
        for (from, run) in runs.iter().enumerate() {
            let (keys, paths) = sorted(run);
            for (piece, at) in (0..keys.len()).step_by(cut.max(1)).enumerate() {
                let end = keys.len().min(at + cut.max(1));
                let p = if counted {
                    paths[at..end].to_vec()
                } else {
                    Vec::new()
                };
                pieces.push(Piece {
                    order: (from as u32, piece as u32),
                    keys: keys[at..end].to_vec(),
                    paths: p,
                });
            }
        }
        for run in runs.iter().chain([&own]) {
            for (&k, &p) in run {
                *want.entry(k).or_default() += if counted { u128::from(p) } else { 0 };
            }
        }
        // Pieces arrive in any order.
        pieces.reverse();
        let (keys, paths) = sorted(&own);
        let (got_keys, got_paths) = merge_round((&keys, &paths), pieces).unwrap();
        let mut expect: Vec<(u64, u128)> = want.into_iter().collect();
        expect.sort_by_key(|&(k, _)| rank(k));
        assert_eq!(got_keys, expect.iter().map(|x| x.0).collect::<Vec<_>>());
        if counted {
            assert_eq!(got_paths, expect.iter().map(|x| x.1).collect::<Vec<_>>());
        } else {
            assert!(got_paths.is_empty());
        }
    }

    proptest! {
        #[test]
        fn merged_runs_sum_as_a_map_does(
            runs in proptest::collection::vec(
                proptest::collection::btree_map(0u64..200, 1u64..1000, 0..60), 0..7),
            own in proptest::collection::btree_map(0u64..200, 1u64..1000, 0..60),
            cut in 1usize..20,
            counted: bool,
        ) {
            check(runs, own, cut, counted);
        }
    }

    #[test]
    fn a_sum_past_u128_is_an_overflow() {
        let own = (vec![7u64], vec![u128::MAX]);
        let pieces = vec![Piece {
            order: (1, 0),
            keys: vec![7u64],
            paths: vec![1u128],
        }];
        assert_eq!(
            merge_round((&own.0, &own.1), pieces),
            Err(CountError::Overflow)
        );
    }

    #[test]
    fn a_piece_without_its_paths_is_refused() {
        let pieces = vec![Piece {
            order: (1, 0),
            keys: vec![7u64, 9],
            paths: vec![1u128],
        }];
        assert!(matches!(
            merge_round((&[3u64][..], &[1u128][..]), pieces),
            Err(CountError::Internal(_))
        ));
    }

    #[test]
    fn owners_split_the_ranks_in_order() {
        let mut keys: Vec<u64> = (0..10_000).collect();
        keys.sort_by_key(|&k| rank(k));
        for peers in 1..6 {
            let owners: Vec<usize> = keys.iter().map(|&k| owner(k, peers)).collect();
            assert!(owners.windows(2).all(|w| w[0] <= w[1]));
            for w in 0..peers {
                let n = owners.iter().filter(|&&o| o == w).count();
                assert!(n > 10_000 / peers / 2, "worker {w} of {peers}: {n}");
            }
        }
    }
}
