//! The open-addressing table every engine's hot loop uses: a set of nonzero 64-bit keys
//! (positions, or canonical keys), growing by doubling up to a byte budget and then refusing,
//! so that a full table is a budget that ran out, never an out-of-memory kill.

/// The multiplier that spreads keys over the slots (Fibonacci hashing): the one mix every
/// hashed table here uses.
pub(crate) const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// A set of nonzero 64-bit keys with open addressing, growing by doubling up to a byte budget.
pub(crate) struct DeadSet {
    slots: Vec<u64>,
    len: usize,
    shift: u32,
    max_slots: usize,
}

impl DeadSet {
    pub(crate) fn new(budget_bytes: usize) -> DeadSet {
        let max_slots = (budget_bytes / 8).max(1024).next_power_of_two() / 2;
        let initial = (1usize << 14).min(max_slots);
        DeadSet {
            slots: vec![0; initial],
            len: 0,
            shift: 64 - initial.trailing_zeros(),
            max_slots,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(SPREAD) >> self.shift) as usize
    }

    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Inserts `key`; false when the budget is spent.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        // Grow at 3/4 full; at the largest size the budget allows, fill to 9/10 first.
        if (self.len + 1) * 4 > self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        if (self.len + 1) * 10 > self.slots.len() * 9 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i] != 0 {
            if self.slots[i] == key {
                return true;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = key;
        self.len += 1;
        true
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; old.len() * 2];
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = self.slot(key);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_set_grows_and_refuses_past_budget() {
        let mut d = DeadSet::new(64 * 1024);
        let mut n = 0u64;
        while d.insert(n + 1) {
            n += 1;
            assert!(n < 1_000_000);
        }
        assert!(n >= 2000 && (n as usize) * 8 <= 64 * 1024);
        assert!((1..=n).all(|k| d.contains(k)));
        assert!(!d.contains(n + 2));
    }
}
