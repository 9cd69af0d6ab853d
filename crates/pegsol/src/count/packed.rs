//! The packed child tables a level is summed in: keys ranked by a fixed mix, so that a
//! level comes out sorted without a sort.

use std::ops::Range;

use crate::bitset::Word;
use crate::count::CountError;
use crate::key::CountKey;
use crate::key::Dense;
use crate::spill::Value;

/// Hash buckets of a level: children are grouped by bucket, and a level is stored in
/// [`rank`] order, whose top byte is the bucket.
pub(super) const BUCKETS: usize = 256;

/// The order levels are stored in memory: a bijection that spreads keys evenly (see
/// [`CountKey::spread`]), so that its leading word's top byte picks a bucket and the next bits
/// a hash slot.
#[inline(always)]
pub(super) fn rank<K: CountKey>(key: K) -> K::Rank {
    key.spread()
}

/// How a level is ordered: by [`rank`] in memory ([`Spread`]), by [`Dense`] index in files.
/// Both spread keys evenly: a rank's top byte picks a bucket, and the next bits a hash slot.
pub(super) trait Ranking<K: CountKey>: Copy + Send + Sync {
    fn rank(self, key: K) -> K::Rank;

    #[inline]
    fn bucket(self, key: K) -> usize {
        (self.rank(key).head() >> 56) as usize
    }
}

/// The order of levels in memory: [`rank`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Spread;

impl<K: CountKey> Ranking<K> for Spread {
    #[inline]
    fn rank(self, key: K) -> K::Rank {
        rank(key)
    }
}

impl<K: CountKey> Ranking<K> for Dense {
    /// The index, its leading word in the top bits of a word.
    #[inline]
    fn rank(self, key: K) -> K::Rank {
        key.dense_rank(self)
    }
}

/// A child position with the path count it inherits, packed in 24 bytes for one word (a
/// `u128` field would pad the pair to 32).
#[derive(Clone, Copy)]
pub(super) struct Child<K> {
    pub(super) key: K,
    pub(super) lo: u64,
    pub(super) hi: u64,
}

/// A child with its inherited path count, as stored in a bucket and summed in a [`Table`].
pub(super) trait Packed: Copy + Send + Sync {
    /// The child's key.
    type K: CountKey;
    /// A free table slot: no child has every bit set, since its jump left a hole empty.
    const FREE: Self;
    /// Whether the path counts are wanted: without them a table reads out its keys alone.
    const COUNTED: bool = true;
    /// Packs `count`, which must fit (see [`expand`]).
    fn new(key: Self::K, count: u128) -> Self;
    fn key(self) -> Self::K;
    fn count(self) -> u128;
    /// Adds the count of `other`, a child with the same key.
    fn absorb(&mut self, other: Self) -> Result<(), CountError>;
}

impl<K: CountKey> Packed for Child<K> {
    type K = K;
    const FREE: Child<K> = Child {
        key: K::FREE,
        lo: 0,
        hi: 0,
    };
    #[inline(always)]
    fn new(key: K, count: u128) -> Child<K> {
        Child {
            key,
            lo: count as u64,
            hi: (count >> 64) as u64,
        }
    }
    #[inline(always)]
    fn key(self) -> K {
        self.key
    }
    #[inline(always)]
    fn count(self) -> u128 {
        u128::from(self.hi) << 64 | u128::from(self.lo)
    }
    fn absorb(&mut self, other: Child<K>) -> Result<(), CountError> {
        let sum = self
            .count()
            .checked_add(other.count())
            .ok_or(CountError::Overflow)?;
        *self = Child::new(self.key, sum);
        Ok(())
    }
}

/// A child whose path count fits 64 bits: 16 bytes for one word. Used only where the sums
/// fit too.
#[derive(Clone, Copy)]
pub(super) struct Narrow<K> {
    pub(super) key: K,
    pub(super) count: u64,
}

impl<K: CountKey> Packed for Narrow<K> {
    type K = K;
    const FREE: Narrow<K> = Narrow {
        key: K::FREE,
        count: 0,
    };
    #[inline(always)]
    fn new(key: K, count: u128) -> Narrow<K> {
        debug_assert!(count <= u128::from(u64::MAX));
        Narrow {
            key,
            count: count as u64,
        }
    }
    #[inline(always)]
    fn key(self) -> K {
        self.key
    }
    #[inline(always)]
    fn count(self) -> u128 {
        u128::from(self.count)
    }
    fn absorb(&mut self, other: Narrow<K>) -> Result<(), CountError> {
        self.count = self
            .count
            .checked_add(other.count)
            .ok_or(CountError::Overflow)?;
        Ok(())
    }
}

/// A key alone, for gathers whose path counts are not wanted (the parents of winners, the
/// complements of a level): no count is stored, summed or read out.
#[derive(Clone, Copy)]
pub(super) struct Bare<K> {
    pub(super) key: K,
}

impl<K: CountKey> Packed for Bare<K> {
    type K = K;
    const FREE: Bare<K> = Bare { key: K::FREE };
    const COUNTED: bool = false;
    #[inline(always)]
    fn new(key: K, _: u128) -> Bare<K> {
        Bare { key }
    }
    #[inline(always)]
    fn key(self) -> K {
        self.key
    }
    #[inline(always)]
    fn count(self) -> u128 {
        0
    }
    #[inline(always)]
    fn absorb(&mut self, _: Bare<K>) -> Result<(), CountError> {
        Ok(())
    }
}

/// What one chunk of a level produces.
pub(super) struct Part<C, R> {
    pub(super) ranking: R,
    /// Children as generated, before they go to their buckets (see [`Part::settle`]).
    pub(super) stage: Vec<C>,
    pub(super) buckets: Vec<Vec<C>>,
    /// Positions the parents stand for (orbit sizes).
    pub(super) positions: u64,
    pub(super) dead_ends: u64,
    /// `None` after an overflow.
    pub(super) games: Option<u128>,
}

/// Children a [`Part`] stages before scattering them: 16 KB of narrow ones, which stay in
/// the first level of cache.
pub(super) const STAGE: usize = 1024;

impl<C: Packed, R: Ranking<C::K>> Part<C, R> {
    /// A part whose buckets in `range` have room for `each` children (the forecast), so
    /// that they rarely grow; the others have none, since nothing is forecast for them.
    pub(super) fn new(each: usize, range: Range<usize>, ranking: R) -> Part<C, R> {
        Part {
            ranking,
            // Room for one parent's children past the threshold.
            stage: Vec::with_capacity(STAGE + 256),
            buckets: (0..BUCKETS)
                .map(|b| Vec::with_capacity(if range.contains(&b) { each } else { 0 }))
                .collect(),
            positions: 0,
            dead_ends: 0,
            games: Some(0),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, key: C::K, count: u128) {
        self.stage.push(C::new(key, count));
    }

    /// Scatters the staged children into their buckets once there are enough of them
    /// (`all`: whatever there is). Stores into 256 buckets, mixed into the generating loop,
    /// stall it on their cache misses; written in order to a small buffer and scattered
    /// from there in a loop of their own, they cost less (English: generating and
    /// scattering 1.57 s against 1.81 s, best of 5 alternating runs).
    #[inline]
    pub(super) fn settle(&mut self, all: bool) {
        if self.stage.len() >= STAGE || all {
            for &c in &self.stage {
                let bucket = &mut self.buckets[self.ranking.bucket(c.key())];
                if bucket.len() == bucket.capacity() {
                    // Past its forecast a bucket grows by a quarter, not by doubling: a
                    // level's buckets together are most of its memory.
                    bucket.reserve_exact(bucket.capacity() / 4 + 64);
                }
                bucket.push(c);
            }
            self.stage.clear();
        }
    }
}

/// Open-addressing sum of counts by key, for one bucket of a level. [`CountKey::FREE`] (all ones)
/// marks a free slot: a child always has an empty hole (the one its jump left), so no key is
/// all ones.
///
/// A key's home slot grows with its [`rank`] and probing never wraps around (a short tail
/// past the last home takes the overflow), so the slots end up in rank order but for a few
/// keys pushed just past their neighbours: reading them out needs no sort, only a pass of
/// insertion that moves those few back.
pub(super) struct Table<C, R> {
    /// Key and count side by side: one cache line per probe.
    pub(super) slots: Vec<C>,
    pub(super) ranking: R,
    pub(super) len: usize,
    /// Home slots: `1 << (64 - shift)`.
    pub(super) shift: u32,
}

/// Slots past the last home slot, for probes that run off its end.
pub(super) const TAIL: usize = 64;

impl<C: Packed, R: Ranking<C::K>> Table<C, R> {
    pub(super) fn with_capacity(n: usize, ranking: R) -> Table<C, R> {
        let slots = (n.max(8) * 2).next_power_of_two();
        Table {
            slots: vec![C::FREE; slots + TAIL],
            ranking,
            len: 0,
            shift: 64 - slots.trailing_zeros(),
        }
    }

    /// Home slot of a key: the rank's bits below the ones that chose the bucket.
    #[inline]
    pub(super) fn home(&self, key: C::K) -> usize {
        ((self.ranking.rank(key).head() << 8) >> self.shift) as usize
    }

    /// Starts loading the home slot of `key` into the cache (see [`Table::add_all`]).
    #[inline]
    pub(super) fn prefetch(&self, key: C::K) {
        crate::table::prefetch(self.slots.as_ptr().wrapping_add(self.home(key)));
    }

    /// [`Table::add`] of every child of `children`, each one's home slot prefetched a few
    /// children ahead: a bucket of the largest levels has a table of megabytes, past the
    /// second-level cache, whose misses then overlap instead of stalling each add.
    #[inline]
    pub(super) fn add_all(&mut self, children: &[C]) -> Result<(), CountError> {
        const AHEAD: usize = 16;
        for (i, &c) in children.iter().enumerate() {
            if let Some(next) = children.get(i + AHEAD) {
                self.prefetch(next.key());
            }
            self.add(c)?;
        }
        Ok(())
    }

    #[inline]
    pub(super) fn add(&mut self, child: C) -> Result<(), CountError> {
        let key = child.key();
        loop {
            let mut i = self.home(key);
            while let Some(slot) = self.slots.get_mut(i) {
                if slot.key() == key {
                    return slot.absorb(child);
                }
                if slot.key() == C::K::FREE {
                    *slot = child;
                    self.len += 1;
                    if self.len * 10 > (self.slots.len() - TAIL) * 7 {
                        self.grow()?;
                    }
                    return Ok(());
                }
                i += 1;
            }
            // The probe ran past the tail: a bigger table spreads the keys out again.
            self.grow()?;
        }
    }

    #[cold]
    pub(super) fn grow(&mut self) -> Result<(), CountError> {
        let mut bigger = Table::with_capacity(self.slots.len(), self.ranking);
        for &s in &self.slots {
            if s.key() != C::K::FREE {
                bigger.add(s)?;
            }
        }
        *self = bigger;
        Ok(())
    }

    /// The keys in the order of the ranking, with their counts (none where they are not
    /// [wanted](Packed::COUNTED)).
    pub(super) fn into_sorted(self) -> (Vec<C::K>, Vec<u128>) {
        // Every slot is copied to the next place, which advances only past a key: no branch
        // on whether a slot is free, which the table's load leaves hard to predict.
        let mut keys = vec![C::K::ZERO; self.len + 1];
        let mut counts = vec![0u128; if C::COUNTED { self.len + 1 } else { 0 }];
        let mut n = 0;
        for &s in &self.slots {
            keys[n] = s.key();
            if C::COUNTED {
                counts[n] = s.count();
            }
            n += usize::from(s.key() != C::K::FREE);
            if n == self.len {
                break;
            }
        }
        keys.truncate(n);
        if C::COUNTED {
            counts.truncate(n);
        }
        // Insertion: only keys that probing pushed past a later home move, and not far.
        let Some(&first) = keys.first() else {
            return (keys, counts);
        };
        let mut last = self.ranking.rank(first);
        for i in 1..n {
            let r = self.ranking.rank(keys[i]);
            if r >= last {
                last = r;
                continue;
            }
            let mut at = i;
            while at > 0 && self.ranking.rank(keys[at - 1]) > r {
                keys.swap(at - 1, at);
                if C::COUNTED {
                    counts.swap(at - 1, at);
                }
                at -= 1;
            }
        }
        (keys, counts)
    }
}
