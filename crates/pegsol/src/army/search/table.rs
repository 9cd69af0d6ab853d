//! The table of failed positions, shared by the search's threads.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use super::cells::CellSet;

/// The hash of the table of failed positions: the words of a position mixed by the one
/// multiplier the project's tables use ([`crate::table::SPREAD`]); the keys are positions, not
/// input from anyone who could choose them to collide.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(crate::table::SPREAD);
    }
    #[inline]
    fn write_u128(&mut self, w: u128) {
        self.write_u64(w as u64);
        self.write_u64((w >> 64) as u64);
    }
}

type Failed<S> = HashMap<S, u32, BuildHasherDefault<Spread>>;

/// The table of failed positions (up to the mirror), each with the most men it was allowed,
/// shared by the threads in shards behind locks.
pub(super) struct Table<S> {
    shards: Vec<Mutex<Failed<S>>>,
    max_per_shard: usize,
}

impl<S: CellSet> Table<S> {
    const SHARDS: usize = 64;

    pub(super) fn new(max_memory: usize) -> Table<S> {
        // A bucket holds the key, the limit and a control byte; a shard's buckets come in
        // powers of two at most 7/8 full. Each shard may fill the largest power of two of
        // buckets that fits its share of the budget (a shard that grows holds its old
        // buckets beside the new ones for a moment: one shard's share, not the budget's).
        let bucket = std::mem::size_of::<(S, u32)>() + 1;
        let share = max_memory / Self::SHARDS / bucket;
        let buckets = if share == 0 { 1 } else { 1 << share.ilog2() };
        Table {
            shards: (0..Self::SHARDS).map(|_| Mutex::default()).collect(),
            max_per_shard: (buckets / 8 * 7).max(1024),
        }
    }

    fn shard(&self, key: &S) -> std::sync::MutexGuard<'_, Failed<S>> {
        let mut h = Spread::default();
        key.hash(&mut h);
        let i = (h.finish() >> 58) as usize % Self::SHARDS;
        // A worker that panicked left no half-written entry: the map is still sound.
        self.shards[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn failed(&self, key: &S, limit: u32) -> bool {
        self.shard(key).get(key).is_some_and(|&l| l >= limit)
    }

    pub(super) fn record(&self, key: S, limit: u32) {
        let mut shard = self.shard(&key);
        if shard.len() >= self.max_per_shard {
            // The table is a cache: dropping a shard costs time, never an answer.
            shard.clear();
        }
        shard.insert(key, limit);
    }
}
