//! External memory for `count`: levels and sorted runs of children as files.
//!
//! A file holds records in increasing order of a `u64` value (a position's index in the
//! order levels are kept in on disk, `count::Dense`), each with its path count (`u128`), or
//! without it in a level kept for the backward pass. A value is stored as its gap from the
//! one before: a sorted level's indices are dense, so that the gaps are small. A record is a
//! tag byte with the lengths of its gap and count, then both in as few bytes as they need; a
//! value alone is its gap as a LEB128 varint (seven bits a byte). Against fixed fields (24
//! and 8 bytes), the English count's scratch files peak at a third of the room.
//!
//! After the records come an index, one entry per [`BLOCK`] records (the block's first value,
//! the value before it and its byte offset), so that a merge can cut a file by value with a
//! binary search instead of reading it, and a trailer: the records' length in bytes, their
//! number, the index's length, whether counts are present, and a magic number.

mod merge;
mod read;
mod write;

#[cfg(test)]
mod tests;

pub(crate) use merge::merge;
pub(crate) use read::Records;
pub(crate) use write::{write, KeyWriter};

use std::path::{Path, PathBuf};

/// Records per index entry.
const BLOCK: u64 = 4096;
/// Ends every file: "pegsolv1" read as a little-endian word.
const MAGIC: u64 = u64::from_le_bytes(*b"pegsolv1");
/// Bytes of the trailer: five words.
const TRAILER: u64 = 40;
/// The most bytes a record takes: a tag, an 8-byte gap and a 16-byte count.
const MAX_RECORD: usize = 25;
/// `LOW_BYTES[n]`: the low `n` bytes of a word set.
const LOW_BYTES: [u64; 9] = {
    let mut m = [0u64; 9];
    let mut n = 1;
    while n <= 8 {
        m[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    m
};

/// What every scratch directory's name starts with; then the owner's process id, a dash and
/// the time it was made, e.g. `pegsol-count-4242-1733000000000000000`.
pub const SCRATCH_PREFIX: &str = "pegsol-count-";

/// The process that made a scratch directory called `name`, if it is one.
fn scratch_owner(name: &str) -> Option<u32> {
    name.strip_prefix(SCRATCH_PREFIX)?
        .split('-')
        .next()?
        .parse()
        .ok()
}

/// Removes the scratch directories under `parent` whose owner `gone` says is gone; how many.
fn remove_scratch_where(parent: &Path, gone: impl Fn(u32) -> bool) -> usize {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .and_then(scratch_owner)
                .is_some_and(&gone)
        })
        .filter(|e| std::fs::remove_dir_all(e.path()).is_ok())
        .count()
}

/// Removes the scratch directories that process `pid` made under `parent` (for a signal
/// handler: the count is cut short and its files must not stay behind); how many.
pub fn remove_scratch_of(parent: &Path, pid: u32) -> usize {
    remove_scratch_where(parent, |owner| owner == pid)
}

/// Removes the scratch directories under `parent` left by processes that have ended.
pub(crate) fn remove_stale_scratch(parent: &Path) -> usize {
    remove_scratch_where(parent, process_gone)
}

/// Whether process `pid` has ended, as far as this system can tell (never, where it cannot).
fn process_gone(pid: u32) -> bool {
    cfg!(target_os = "linux") && !Path::new("/proc").join(pid.to_string()).exists()
}

/// A scratch directory of its own under a user-chosen one, removed when dropped. Making one
/// first removes those left under the same parent by processes that have ended (killed
/// before they could clean up).
pub(crate) struct SpillDir {
    dir: PathBuf,
    next: usize,
}

impl SpillDir {
    pub(crate) fn new(parent: &Path) -> std::io::Result<SpillDir> {
        remove_stale_scratch(parent);
        let dir = parent.join(format!(
            "{SCRATCH_PREFIX}{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(SpillDir { dir, next: 0 })
    }

    /// A fresh file name in the directory.
    pub(crate) fn file(&mut self, what: &str) -> PathBuf {
        self.next += 1;
        self.dir.join(format!("{what}-{}.bin", self.next))
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
