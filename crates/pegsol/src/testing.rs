//! Helpers for the unit tests.

/// A fixed xorshift sequence: test data that is random-looking but the same on every run.
pub(crate) fn xorshift() -> impl FnMut() -> u64 {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
