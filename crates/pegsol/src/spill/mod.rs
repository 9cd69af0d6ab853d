//! External memory for `count`: levels and sorted runs of children as files.
//!
//! A file holds records in increasing order of a [`Value`] (a position's index in the
//! order levels are kept in on disk, `space::Dense`), each with its path count (`u128`), or
//! without it in a level kept for the backward pass. A value is a leading `u64` word, its
//! *head*, and on boards past 64 holes one or three more words that break ties between equal
//! heads. The head is stored as its gap from the one before: a sorted level's indices are
//! dense, so that the gaps are small; the other words follow whole. A record is a tag byte
//! with the lengths of its gap and count, then the gap, the other words and the count, the
//! gap and the count in as few bytes as they need; a value alone is its gap as a LEB128
//! varint (seven bits a byte), then its other words. Against fixed fields (24 and 8 bytes),
//! the English count's scratch files peak at a third of the room.
//!
//! After the records come an index, one entry per [`BLOCK`] records (the block's first head,
//! the head before it and its byte offset), so that a merge can cut a file by head with a
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
use std::sync::{Mutex, PoisonError};

/// Records per index entry.
const BLOCK: u64 = 4096;
/// Ends every file: "pegsolv1" read as a little-endian word.
const MAGIC: u64 = u64::from_le_bytes(*b"pegsolv1");
/// Bytes of the trailer: five words.
const TRAILER: u64 = 40;
/// The most bytes a record takes: a tag, an 8-byte gap, three more words of a value and a
/// 16-byte count.
const MAX_RECORD: usize = 49;
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

/// What a spill file is sorted by: a leading word, the *head* (gap-coded, and what files are
/// cut by), then [`TAIL`](Value::TAIL) words stored whole. Values compare as their head,
/// then their tail in order.
pub(crate) trait Value: Copy + Ord + Send + Sync + std::fmt::Debug + 'static {
    /// Words after the head: 0 for one word, at most 3.
    const TAIL: usize;
    /// The leading word.
    fn head(self) -> u64;
    /// Word `i` after the head (`i < TAIL`).
    fn tail(self, i: usize) -> u64;
    /// The value of a head and the words after it.
    fn of_words(head: u64, tail: impl Fn(usize) -> u64) -> Self;
}

impl Value for u64 {
    const TAIL: usize = 0;
    #[inline(always)]
    fn head(self) -> u64 {
        self
    }
    #[inline(always)]
    fn tail(self, _: usize) -> u64 {
        0
    }
    #[inline(always)]
    fn of_words(head: u64, _: impl Fn(usize) -> u64) -> u64 {
        head
    }
}

impl<const N: usize> Value for [u64; N] {
    const TAIL: usize = {
        assert!(N >= 1 && N <= 4, "a value of one to four words");
        N - 1
    };
    #[inline(always)]
    fn head(self) -> u64 {
        self[0]
    }
    #[inline(always)]
    fn tail(self, i: usize) -> u64 {
        self[1 + i]
    }
    #[inline(always)]
    fn of_words(head: u64, tail: impl Fn(usize) -> u64) -> [u64; N] {
        std::array::from_fn(|i| if i == 0 { head } else { tail(i - 1) })
    }
}

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

/// The directories under which this process may no longer make scratch files, closed for
/// good by [`remove_scratch_of`]. Locked while a scratch file or directory is made: so the
/// remover and the writers agree on every file. One made before the close is in the
/// directory when the remover lists it; after the close none can be made there (a writer
/// gets an error, and a file it still has open is already unlinked).
static CLOSED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Runs `make` (which creates the scratch file or directory `path`) unless `path` is under a
/// closed directory.
fn while_open<T>(path: &Path, make: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    let closed = CLOSED.lock().unwrap_or_else(PoisonError::into_inner);
    if closed.iter().any(|dir| path.starts_with(dir)) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "the count was interrupted: its scratch files are being removed",
        ));
    }
    make()
}

/// Creates a scratch file at `path`, unless its directory is closed (see
/// [`remove_scratch_of`]). Every file under a [`SpillDir`] is made by this function.
pub(crate) fn create_file(path: &Path) -> std::io::Result<std::fs::File> {
    while_open(path, || std::fs::File::create(path))
}

/// Closes `parent` for good in this process (no scratch file or directory can be made under
/// it after this), then removes the scratch directories that process `pid` made there (for
/// a signal handler: the count is cut short and its files must not stay behind); how many.
/// After the close, a directory's removal cannot race a writer's new file.
pub fn remove_scratch_of(parent: &Path, pid: u32) -> usize {
    CLOSED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(parent.to_path_buf());
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
        while_open(&dir, || std::fs::create_dir_all(&dir))?;
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
