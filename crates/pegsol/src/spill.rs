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

use rayon::prelude::*;

use std::cmp::Reverse;
use std::collections::binary_heap::{BinaryHeap, PeekMut};
use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
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

/// Writes `x` as a varint at the start of `out`; returns its length.
#[inline]
fn put_varint(out: &mut [u8], mut x: u64) -> usize {
    let mut n = 0;
    while x >= 0x80 {
        out[n] = x as u8 | 0x80;
        x >>= 7;
        n += 1;
    }
    out[n] = x as u8;
    n + 1
}

/// The varint at `buf[*at..]`, moving `at` past it; `None` if it runs off the end or past
/// 64 bits.
#[inline]
fn get_varint(buf: &[u8], at: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    let mut shift = 0;
    while shift < 64 {
        let &b = buf.get(*at)?;
        *at += 1;
        let bits = u64::from(b & 0x7F);
        // The tenth byte (at bit 63) has room for one bit.
        if shift == 63 && bits > 1 {
            return None;
        }
        x |= bits << shift;
        if b < 0x80 {
            return Some(x);
        }
        shift += 7;
    }
    None
}

/// Records encoded into bytes, with the index entries of the blocks that start among them.
struct Encoder {
    /// The bytes, `buf[..len]`, written at a cursor into zeros: a record is stored with
    /// slice copies of a fixed size, not pushes of a variable one.
    buf: Vec<u8>,
    len: usize,
    counts: bool,
    /// Bytes before `buf` in the file.
    base: u64,
    prev: u64,
    records: u64,
    /// Per block: its first value, the value before it, its offset.
    index: Vec<[u64; 3]>,
}

impl Encoder {
    /// Records that follow the value `prev` (0 at the start of a file) and a multiple of
    /// [`BLOCK`] records.
    fn new(counts: bool, prev: u64, capacity: usize) -> Encoder {
        Encoder {
            buf: vec![0; capacity.max(MAX_RECORD)],
            len: 0,
            counts,
            base: 0,
            prev,
            records: 0,
            index: Vec::new(),
        }
    }

    /// The gap from the value before; values must increase.
    #[inline]
    fn gap(&mut self, value: u64) -> u64 {
        debug_assert!(value > self.prev || self.records == 0 && self.index.is_empty());
        if self.records.is_multiple_of(BLOCK) {
            let offset = self.base + self.len as u64;
            self.index.push([value, self.prev, offset]);
        }
        // Wrapping, so that any sequence reads back as written; only cutting by value
        // needs the order.
        let gap = value.wrapping_sub(self.prev);
        self.prev = value;
        self.records += 1;
        gap
    }

    /// A record: a tag byte with the lengths of the gap (1 to 8 bytes, less one, in the low 3
    /// bits) and of the count (0 to 16 bytes), then both, little-endian. Fixed lengths read
    /// without a branch per byte, where varints would.
    #[inline(always)]
    fn record(&mut self, value: u64, count: u128) {
        debug_assert!(self.counts);
        let gap = self.gap(value);
        let gap_len = (64 - (gap | 1).leading_zeros()).div_ceil(8) as usize;
        let count_len = match (count >> 64) as u64 {
            0 => (64 - (count as u64).leading_zeros()).div_ceil(8),
            high => 8 + (64 - high.leading_zeros()).div_ceil(8),
        } as usize;
        // Whole words, each overwriting the previous one's unused bytes.
        let r = self.room();
        r[0] = (gap_len - 1) as u8 | (count_len as u8) << 3;
        r[1..9].copy_from_slice(&gap.to_le_bytes());
        r[1 + gap_len..17 + gap_len].copy_from_slice(&count.to_le_bytes());
        self.len += 1 + gap_len + count_len;
    }

    /// A value alone, as a varint (files of keys, see [`KeyWriter`]).
    #[inline]
    fn key(&mut self, value: u64) {
        debug_assert!(!self.counts);
        let gap = self.gap(value);
        self.len += put_varint(self.room(), gap);
    }

    /// Room for a record at the cursor.
    #[inline]
    fn room(&mut self) -> &mut [u8] {
        if self.len + MAX_RECORD > self.buf.len() {
            self.buf.resize(2 * self.buf.len() + MAX_RECORD, 0);
        }
        &mut self.buf[self.len..self.len + MAX_RECORD]
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Records written in order: encoded into a buffer written out a megabyte at a time, then
/// the index and the trailer (see the module's docs).
struct Writer {
    file: File,
    enc: Encoder,
}

impl Writer {
    const FLUSH: usize = 1 << 20;

    /// A file of records with counts, or of values alone.
    fn create(path: &Path, counts: bool) -> std::io::Result<Writer> {
        Ok(Writer {
            file: File::create(path)?,
            enc: Encoder::new(counts, 0, Self::FLUSH + MAX_RECORD),
        })
    }

    /// A record; values must increase.
    #[inline]
    fn push(&mut self, value: u64, count: u128) -> std::io::Result<()> {
        self.enc.record(value, count);
        self.flush_full()
    }

    /// A value alone (files of keys, see [`KeyWriter`]).
    #[inline]
    fn push_key(&mut self, value: u64) -> std::io::Result<()> {
        self.enc.key(value);
        self.flush_full()
    }

    #[inline]
    fn flush_full(&mut self) -> std::io::Result<()> {
        if self.enc.len >= Self::FLUSH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.write_all(self.enc.bytes())?;
        self.enc.base += self.enc.len as u64;
        self.enc.len = 0;
        Ok(())
    }

    /// Records encoded apart, which follow the ones written so far (a whole number of
    /// blocks).
    fn append(&mut self, part: Encoder) -> std::io::Result<()> {
        debug_assert!(self.enc.records.is_multiple_of(BLOCK) && part.counts == self.enc.counts);
        self.flush()?;
        let base = self.enc.base;
        self.enc.index.extend(
            part.index
                .iter()
                .map(|&[first, prev, offset]| [first, prev, base + offset]),
        );
        self.file.write_all(part.bytes())?;
        self.enc.base += part.len as u64;
        self.enc.records += part.records;
        self.enc.prev = part.prev;
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.flush()?;
        let e = &self.enc;
        let mut tail = Vec::with_capacity(e.index.len() * 24 + TRAILER as usize);
        for entry in &e.index {
            for word in entry {
                tail.extend_from_slice(&word.to_le_bytes());
            }
        }
        let trailer = [
            e.base,
            e.records,
            e.index.len() as u64,
            u64::from(e.counts),
            MAGIC,
        ];
        for word in trailer {
            tail.extend_from_slice(&word.to_le_bytes());
        }
        self.file.write_all(&tail)?;
        self.file.flush()
    }
}

/// Writes `values` (increasing) with `counts` to `path`, encoded in parallel.
pub(crate) fn write(path: &Path, values: &[u64], counts: &[u128]) -> std::io::Result<()> {
    const CHUNK: usize = 16 * BLOCK as usize;
    let mut w = Writer::create(path, true)?;
    // A group at a time, so that the encoded bytes in memory stay bounded.
    let group = CHUNK * 4 * rayon::current_num_threads();
    for (g, (vs, cs)) in values.chunks(group).zip(counts.chunks(group)).enumerate() {
        let parts: Vec<Encoder> = vs
            .par_chunks(CHUNK)
            .zip(cs.par_chunks(CHUNK))
            .enumerate()
            .map(|(i, (vs, cs))| {
                let at = g * group + i * CHUNK;
                let prev = at.checked_sub(1).map_or(0, |p| values[p]);
                let mut e = Encoder::new(true, prev, vs.len() * 12);
                for (&v, &c) in vs.iter().zip(cs) {
                    e.record(v, c);
                }
                e
            })
            .collect();
        for part in parts {
            w.append(part)?;
        }
    }
    w.finish()
}

#[cold]
fn damaged(path: &Path) -> std::io::Error {
    invalid(path, "a record is cut short or too long")
}

fn invalid(path: &Path, what: &str) -> std::io::Error {
    std::io::Error::new(
        ErrorKind::InvalidData,
        format!("{} is not a pegsol spill file: {what}", path.display()),
    )
}

/// A file's trailer, checked against its length.
struct Trailer {
    /// Bytes of records.
    data: u64,
    blocks: u64,
    counts: bool,
}

impl Trailer {
    fn read(file: &mut File, path: &Path) -> std::io::Result<Trailer> {
        let len = file.metadata()?.len();
        if len < TRAILER {
            return Err(invalid(path, "too short"));
        }
        file.seek(SeekFrom::Start(len - TRAILER))?;
        let mut bytes = [0u8; TRAILER as usize];
        file.read_exact(&mut bytes)?;
        let word = |i: usize| le_word(&bytes, 8 * i);
        let (data, records, blocks) = (word(0), word(1), word(2));
        let index = blocks.checked_mul(24);
        if word(4) != MAGIC
            || word(3) > 1
            || index.and_then(|i| i.checked_add(data)) != Some(len - TRAILER)
            || blocks != records.div_ceil(BLOCK)
        {
            return Err(invalid(path, "bad trailer"));
        }
        Ok(Trailer {
            data,
            blocks,
            counts: word(3) == 1,
        })
    }

    /// The index: per block, its first value, the value before it, its offset.
    fn index(&self, file: &mut File) -> std::io::Result<Vec<[u64; 3]>> {
        let mut bytes = vec![0u8; self.blocks as usize * 24];
        file.seek(SeekFrom::Start(self.data))?;
        file.read_exact(&mut bytes)?;
        Ok(bytes
            .chunks_exact(24)
            .map(|e| [le_word(e, 0), le_word(e, 8), le_word(e, 16)])
            .collect())
    }
}

/// Where a reader starts in a file: a byte offset at a block, the value before it, and the
/// least value to return (smaller ones in that block are skipped).
#[derive(Clone, Copy, Debug, Default)]
struct Start {
    offset: u64,
    prev: u64,
    from: u64,
}

/// Reads records in order from consecutive files (a level stored in parts), or the records of
/// one file with values in a range; decoded from a buffer filled a quarter megabyte at a time.
pub(crate) struct Records {
    /// Whether the files hold counts.
    counts: bool,
    /// Files still to read, in reverse order.
    todo: Vec<PathBuf>,
    file: Option<File>,
    path: PathBuf,
    /// Bytes of records left to read from `file`.
    left: u64,
    /// Bytes read, then [`MAX_RECORD`] zeros, so that a record is always decoded from a
    /// whole slice: one whose lengths run past `end` is cut short.
    buf: Vec<u8>,
    end: usize,
    at: usize,
    prev: u64,
    /// Values below it are skipped, and from `until` on the reader ends.
    from: u64,
    until: Option<u64>,
}

/// The little-endian word at byte `at` of `bytes` (the trailer's, the index's and a record's
/// fields).
#[inline(always)]
fn le_word(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The record at the start of `r`: its gap, its count and its length in bytes; `None` if
/// its tag is not one a writer makes.
#[inline(always)]
fn record_at(r: &[u8; MAX_RECORD]) -> Option<(u64, u128, usize)> {
    let gap_len = usize::from(r[0] & 7) + 1;
    let count_len = usize::from(r[0] >> 3);
    let word = |at: usize| le_word(r, at);
    let gap = word(1) & LOW_BYTES[gap_len];
    // Count bytes past the length belong to the next record: masked off.
    let (low, high) = (word(1 + gap_len), word(9 + gap_len));
    let count = match count_len {
        0..=8 => u128::from(low & LOW_BYTES[count_len]),
        9..=16 => u128::from(low) | u128::from(high & LOW_BYTES[count_len - 8]) << 64,
        _ => return None,
    };
    Some((gap, count, 1 + gap_len + count_len))
}

impl Records {
    /// A quarter megabyte: a merge reads up to [`FAN_IN`] runs at once on each thread.
    const BUFFER: usize = 1 << 18;

    /// The records of `paths`, one file after another.
    pub(crate) fn open_all(paths: &[PathBuf]) -> std::io::Result<Records> {
        Records::open_kind(paths, true)
    }

    /// The values of `paths`, files of values alone (see [`KeyWriter`]), one after another.
    pub(crate) fn keys(paths: &[PathBuf]) -> std::io::Result<Records> {
        Records::open_kind(paths, false)
    }

    fn open_kind(paths: &[PathBuf], counts: bool) -> std::io::Result<Records> {
        let mut r = Records {
            counts,
            todo: paths.iter().rev().cloned().collect(),
            file: None,
            path: PathBuf::new(),
            left: 0,
            buf: Vec::new(),
            end: 0,
            at: 0,
            prev: 0,
            from: 0,
            until: None,
        };
        r.next_file()?;
        Ok(r)
    }

    /// The records of `path` from `start`, up to (not including) the value `until`.
    fn open_range(path: &Path, start: Start, until: Option<u64>) -> std::io::Result<Records> {
        let mut file = File::open(path)?;
        let t = Trailer::read(&mut file, path)?;
        if !t.counts {
            return Err(invalid(path, "no counts"));
        }
        file.seek(SeekFrom::Start(start.offset))?;
        Ok(Records {
            counts: true,
            todo: Vec::new(),
            file: Some(file),
            path: path.to_path_buf(),
            left: t.data.saturating_sub(start.offset),
            buf: Vec::new(),
            end: 0,
            at: 0,
            prev: start.prev,
            from: start.from,
            until,
        })
    }

    fn next_file(&mut self) -> std::io::Result<()> {
        self.file = None;
        if let Some(path) = self.todo.pop() {
            let mut file = File::open(&path)?;
            let t = Trailer::read(&mut file, &path)?;
            if t.counts != self.counts {
                return Err(invalid(&path, "records of the wrong kind"));
            }
            file.seek(SeekFrom::Start(0))?;
            self.left = t.data;
            self.prev = 0;
            self.file = Some(file);
            self.path = path;
        }
        Ok(())
    }

    /// Makes sure a whole record is buffered unless the file's records end first; `false` at
    /// the end of the last file.
    #[inline]
    fn fill(&mut self) -> std::io::Result<bool> {
        loop {
            let ready = self.end - self.at;
            if ready >= MAX_RECORD || (ready > 0 && self.left == 0) {
                return Ok(true);
            }
            let Some(file) = &mut self.file else {
                return Ok(false);
            };
            if self.left == 0 {
                self.next_file()?;
                continue;
            }
            // Keep the unread tail, which may hold part of a record.
            self.buf.copy_within(self.at..self.end, 0);
            let n = (Self::BUFFER as u64).min(self.left) as usize;
            self.end = ready + n;
            self.at = 0;
            self.buf.resize(self.end + MAX_RECORD, 0);
            file.read_exact(&mut self.buf[ready..self.end])?;
            self.buf[self.end..].fill(0);
            self.left -= n as u64;
        }
    }

    /// Decodes the next record from the buffer, which [`fill`](Self::fill) has filled.
    #[inline]
    fn decode(&mut self) -> std::io::Result<(u64, u128)> {
        let (gap, count) = if self.counts {
            let r = self.buf[self.at..self.at + MAX_RECORD]
                .try_into()
                .expect("a whole record");
            let Some((gap, count, len)) = record_at(r) else {
                return Err(self.damaged());
            };
            self.at += len;
            if self.at > self.end {
                return Err(self.damaged());
            }
            (gap, count)
        } else {
            let Some(gap) = get_varint(&self.buf[..self.end], &mut self.at) else {
                return Err(self.damaged());
            };
            (gap, 0)
        };
        self.prev = self.prev.wrapping_add(gap);
        Ok((self.prev, count))
    }

    #[cold]
    fn damaged(&self) -> std::io::Error {
        damaged(&self.path)
    }

    /// The next record in range, or `None` at the end.
    #[inline]
    fn next_any(&mut self) -> std::io::Result<Option<(u64, u128)>> {
        loop {
            if !self.fill()? {
                return Ok(None);
            }
            let (v, c) = self.decode()?;
            if v < self.from {
                continue;
            }
            if self.until.is_some_and(|u| v >= u) {
                self.file = None;
                self.todo.clear();
                (self.end, self.at) = (0, 0);
                return Ok(None);
            }
            return Ok(Some((v, c)));
        }
    }

    /// The next value of a file of values alone, or `None` at the end.
    #[inline]
    pub(crate) fn next_key(&mut self) -> std::io::Result<Option<u64>> {
        debug_assert!(!self.counts);
        Ok(self.next_any()?.map(|(v, _)| v))
    }

    /// The next record, or `None` at the end.
    #[inline]
    pub(crate) fn next_record(&mut self) -> std::io::Result<Option<(u64, u128)>> {
        debug_assert!(self.counts);
        self.next_any()
    }

    /// Up to `n` records.
    pub(crate) fn chunk(&mut self, n: usize) -> std::io::Result<(Vec<u64>, Vec<u128>)> {
        let (mut values, mut counts) = (Vec::with_capacity(n), Vec::with_capacity(n));
        while values.len() < n {
            match self.next_record()? {
                Some((v, c)) => {
                    values.push(v);
                    counts.push(c);
                }
                None => break,
            }
        }
        Ok((values, counts))
    }
}

/// A file of values alone, written a slice at a time: a level kept for the backward pass,
/// which needs no counts once the level is expanded.
pub(crate) struct KeyWriter(Writer);

impl KeyWriter {
    pub(crate) fn create(path: &Path) -> std::io::Result<KeyWriter> {
        Ok(KeyWriter(Writer::create(path, false)?))
    }

    /// More values, each above the ones before.
    pub(crate) fn push_all(&mut self, values: &[u64]) -> std::io::Result<()> {
        for &v in values {
            self.0.push_key(v)?;
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> std::io::Result<()> {
        self.0.finish()
    }
}

/// The most runs one merge reads at once: bounds the open files and the read buffers.
const FAN_IN: usize = 64;

/// Merges sorted runs (of values up to `last`) into files named by `name`, summing the
/// counts of equal values with `add` (which fails on overflow). The range of values is cut
/// into `pieces` equal parts, found in each run by a binary search of its index, and the parts
/// are merged in parallel, each into its own file: the files in order make the merged level.
/// More than [`FAN_IN`] runs are first merged in groups (in parallel) into fewer, longer runs.
/// Returns the files and the number of distinct values written.
pub(crate) fn merge<E: From<std::io::Error> + Send>(
    runs: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
    pieces: u64,
    last: u64,
    add: impl Fn(u128, u128) -> Result<u128, E> + Sync,
) -> Result<(Vec<PathBuf>, usize), E> {
    let mut merged: Option<Vec<PathBuf>> = None;
    loop {
        let current = merged.as_deref().unwrap_or(runs);
        if current.len() <= FAN_IN {
            break;
        }
        let groups: Vec<&[PathBuf]> = current.chunks(FAN_IN).collect();
        let outs: Vec<PathBuf> = groups.iter().map(|_| name()).collect();
        groups
            .par_iter()
            .zip(&outs)
            .map(|(group, out)| {
                let readers = group
                    .iter()
                    .map(|run| Records::open_all(std::slice::from_ref(run)))
                    .collect::<std::io::Result<Vec<_>>>()?;
                merge_into(readers, out, &add)
            })
            .collect::<Result<Vec<usize>, E>>()?;
        // Runs made here, not the caller's, are removed once merged further.
        if let Some(done) = merged.replace(outs) {
            for run in done {
                let _ = std::fs::remove_file(run);
            }
        }
    }
    let result = merge_pieces(merged.as_deref().unwrap_or(runs), name, pieces, last, &add);
    for run in merged.unwrap_or_default() {
        let _ = std::fs::remove_file(run);
    }
    result
}

/// [`merge`] of at most [`FAN_IN`] runs.
fn merge_pieces<E: From<std::io::Error> + Send>(
    runs: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
    pieces: u64,
    last: u64,
    add: &(impl Fn(u128, u128) -> Result<u128, E> + Sync),
) -> Result<(Vec<PathBuf>, usize), E> {
    let pieces = pieces.clamp(1, last.saturating_add(1).max(1));
    // Piece `p` holds the values from `bound(p)` up to `bound(p + 1)`.
    let bound = |p: u64| p * (last / pieces);
    // starts[r][p]: where piece `p` starts in run `r`: the last block that begins below the
    // piece's first value.
    let mut starts: Vec<Vec<Start>> = Vec::with_capacity(runs.len());
    for run in runs {
        let mut file = File::open(run)?;
        let t = Trailer::read(&mut file, run)?;
        let index = t.index(&mut file)?;
        let at = (0..pieces)
            .map(|p| {
                let from = bound(p);
                let b = index.partition_point(|e| e[0] < from).saturating_sub(1);
                index.get(b).map_or(Start::default(), |e| Start {
                    offset: e[2],
                    prev: e[1],
                    from,
                })
            })
            .collect();
        starts.push(at);
    }
    let outs: Vec<PathBuf> = (0..pieces).map(|_| name()).collect();
    let written: Vec<usize> = outs
        .par_iter()
        .enumerate()
        .map(|(p, out)| {
            let until = (p as u64 + 1 < pieces).then(|| bound(p as u64 + 1));
            let readers = runs
                .iter()
                .zip(&starts)
                .map(|(run, at)| Records::open_range(run, at[p], until))
                .collect::<std::io::Result<Vec<_>>>()?;
            merge_into(readers, out, add)
        })
        .collect::<Result<_, E>>()?;
    Ok((outs, written.iter().sum()))
}

/// Merges `readers` (each in increasing order) into the file `out`; returns the records
/// written.
fn merge_into<E: From<std::io::Error>>(
    mut readers: Vec<Records>,
    out: &Path,
    add: &impl Fn(u128, u128) -> Result<u128, E>,
) -> Result<usize, E> {
    // The heap holds each reader's value and index; its record waits in `heads`, and the
    // top is replaced in place (one sift) rather than popped and pushed.
    let mut heads = Vec::with_capacity(readers.len());
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for r in &mut readers {
        if let Some((v, c)) = r.next_record()? {
            heap.push(Reverse((v, heads.len())));
            heads.push(c);
        } else {
            heads.push(0);
        }
    }
    let mut w = Writer::create(out, true)?;
    let mut written = 0usize;
    let mut pending: Option<(u64, u128)> = None;
    while let Some(mut top) = heap.peek_mut() {
        let Reverse((v, i)) = *top;
        let c = heads[i];
        pending = match pending {
            Some((pv, pc)) if pv == v => Some((pv, add(pc, c)?)),
            Some((pv, pc)) => {
                w.push(pv, pc)?;
                written += 1;
                Some((v, c))
            }
            None => Some((v, c)),
        };
        match readers[i].next_record()? {
            Some((v2, c2)) => {
                heads[i] = c2;
                *top = Reverse((v2, i));
            }
            None => {
                PeekMut::pop(top);
            }
        }
    }
    if let Some((pv, pc)) = pending {
        w.push(pv, pc)?;
        written += 1;
    }
    w.finish()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of a file of records, as a file of values alone.
    fn keys_of(records: &Path, out: PathBuf) -> PathBuf {
        let (values, _) = Records::open_all(&[records.to_path_buf()])
            .unwrap()
            .chunk(1 << 20)
            .unwrap();
        let mut w = KeyWriter::create(&out).unwrap();
        // In two slices, as a level is read.
        let (a, b) = values.split_at(values.len() / 3);
        w.push_all(a).unwrap();
        w.push_all(b).unwrap();
        w.finish().unwrap();
        out
    }

    fn read_all(parts: &[PathBuf]) -> Vec<(u64, u128)> {
        let mut r = Records::open_all(parts).unwrap();
        let mut got = Vec::new();
        while let Some(rec) = r.next_record().unwrap() {
            got.push(rec);
        }
        got
    }

    #[test]
    fn runs_merge_in_order_with_counts_summed() {
        let base = std::env::temp_dir();
        let mut dir = SpillDir::new(&base).unwrap();
        let (a, b) = (dir.file("run"), dir.file("run"));
        write(&a, &[1, 3, 5], &[1, 1, u128::from(u64::MAX) + 1]).unwrap();
        write(&b, &[2, 3, 6], &[10, 10, 10]).unwrap();
        let (parts, n) =
            merge::<std::io::Error>(&[a, b], || dir.file("level"), 1, u64::MAX, |x, y| Ok(x + y))
                .unwrap();
        assert_eq!(n, 5);
        let mut r = Records::open_all(&parts).unwrap();
        let (keys, counts) = r.chunk(100).unwrap();
        assert_eq!(keys, [1, 2, 3, 5, 6]);
        assert_eq!(counts, [1, 10, 11, u128::from(u64::MAX) + 1, 10]);
        let path = dir.dir.clone();
        drop(dir);
        assert!(!path.exists(), "the scratch directory is removed");
    }

    #[test]
    fn scratch_of_ended_processes_is_removed_and_others_kept() {
        let base = std::env::temp_dir().join(format!("pegsol-stale-test-{}", std::process::id()));
        std::fs::create_dir_all(&base).unwrap();
        // A pid above the kernel's largest (2^22) has never run; our own pid is alive.
        let stale = base.join(format!("{SCRATCH_PREFIX}4999999-1"));
        let alive = base.join(format!("{SCRATCH_PREFIX}{}-1", std::process::id()));
        let other = base.join("pegsol-count-notapid");
        for d in [&stale, &alive, &other] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("run-1.bin"), b"x").unwrap();
        }
        let dir = SpillDir::new(&base).unwrap();
        assert_eq!(stale.exists(), !cfg!(target_os = "linux"));
        assert!(alive.exists() && other.exists() && dir.dir.exists());
        drop(dir);
        // What a signal handler does: every directory of this process goes.
        assert_eq!(remove_scratch_of(&base, std::process::id()), 1);
        assert!(!alive.exists() && other.exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn records_read_back_as_written_and_take_few_bytes() {
        let mut dir = SpillDir::new(&std::env::temp_dir()).unwrap();
        // Extremes: the largest value and count, gaps of every length.
        let path = dir.file("run");
        let values = [0, 1, 127, 128, 1 << 40, u64::MAX - 1, u64::MAX];
        let counts = [u128::MAX, 0, 1, 127, 128, u128::from(u64::MAX), 1 << 100];
        write(&path, &values, &counts).unwrap();
        let want: Vec<(u64, u128)> = values.into_iter().zip(counts).collect();
        assert_eq!(read_all(std::slice::from_ref(&path)), want);
        // A dense sorted level: gaps under 2^14 and small counts take four bytes a record, not
        // 24, and values alone two, not 8; across several chunks encoded in parallel.
        let mut next = crate::testing::xorshift();
        let mut v = 0u64;
        let (values, counts): (Vec<u64>, Vec<u128>) = (0..100_000)
            .map(|_| {
                let x = next();
                v += 1 + (x >> 51);
                (v, u128::from(x % 100))
            })
            .unzip();
        let path = dir.file("run");
        write(&path, &values, &counts).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < 420_000, "{size} bytes");
        let got = read_all(std::slice::from_ref(&path));
        assert_eq!(got.len(), values.len());
        assert!(got
            .iter()
            .zip(values.iter().zip(&counts))
            .all(|(g, (&v, &c))| *g == (v, c)));
        // Values alone.
        let keys = [keys_of(&path, dir.file("keys"))];
        let mut r = Records::keys(&keys).unwrap();
        for &v in &values {
            assert_eq!(r.next_key().unwrap(), Some(v));
        }
        assert_eq!(r.next_key().unwrap(), None);
        assert!(std::fs::metadata(&keys[0]).unwrap().len() < 100_000 * 2 + 2_000);
    }

    #[test]
    fn damaged_files_are_errors_not_panics() {
        let mut dir = SpillDir::new(&std::env::temp_dir()).unwrap();
        let path = dir.file("run");
        let values: Vec<u64> = (0..10_000).collect();
        write(&path, &values, &[7; 10_000]).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // Cut short: the trailer is gone.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(Records::open_all(std::slice::from_ref(&path)).is_err());
        // A tag whose count is longer than 16 bytes.
        let mut bad = bytes.clone();
        bad[..64].fill(0xFF);
        std::fs::write(&path, &bad).unwrap();
        let mut r = Records::open_all(std::slice::from_ref(&path)).unwrap();
        let err = std::iter::from_fn(|| r.next_record().transpose())
            .find_map(Result::err)
            .expect("an error");
        assert_eq!(err.kind(), ErrorKind::InvalidData);
        // A file of values alone is not one of records.
        std::fs::write(&path, &bytes).unwrap();
        let keys = [keys_of(&path, dir.file("keys"))];
        assert!(Records::open_all(&keys).is_err());
        assert!(Records::keys(&keys).is_ok());
    }

    #[test]
    fn pieces_merge_like_a_map() {
        // Many runs of random values, merged in pieces cut by value, read back across buffer
        // refills, index blocks and part files, against a map.
        const LAST: u64 = (1 << 40) - 1;
        let mut dir = SpillDir::new(&std::env::temp_dir()).unwrap();
        let mut next = crate::testing::xorshift();
        let mut expect = std::collections::BTreeMap::new();
        let mut runs = Vec::new();
        for r in 0..7u64 {
            let mut run: Vec<(u64, u128)> = (0..60_000 + r * 5_000)
                .map(|_| {
                    let x = next();
                    ((x % 200_000) * 5_497_558, u128::from(x >> 40))
                })
                .collect();
            run.sort_by_key(|&(v, _)| v);
            run.dedup_by_key(|e| e.0);
            for &(v, c) in &run {
                *expect.entry(v).or_insert(0u128) += c;
            }
            let path = dir.file("run");
            let (vs, cs): (Vec<u64>, Vec<u128>) = run.into_iter().unzip();
            write(&path, &vs, &cs).unwrap();
            runs.push(path);
        }
        // More runs than one merge reads at once: merged in groups first.
        let mut small = Vec::new();
        let cut = FAN_IN + 10;
        for run in &runs[..2] {
            let mut r = Records::open_all(std::slice::from_ref(run)).unwrap();
            let (vs, cs) = r.chunk(1 << 20).unwrap();
            for part in 0..cut {
                let path = dir.file("small");
                let range = part * vs.len() / cut..(part + 1) * vs.len() / cut;
                write(&path, &vs[range.clone()], &cs[range]).unwrap();
                small.push(path);
            }
        }
        let mut want = std::collections::BTreeMap::new();
        for run in &runs[..2] {
            for (v, c) in read_all(std::slice::from_ref(run)) {
                *want.entry(v).or_insert(0u128) += c;
            }
        }
        let (parts, n) =
            merge::<std::io::Error>(&small, || dir.file("level"), 4, LAST, |a, b| Ok(a + b))
                .unwrap();
        assert_eq!(n, want.len());
        let want: Vec<(u64, u128)> = want.into_iter().collect();
        assert_eq!(read_all(&parts), want);
        // Only the caller's runs and the merged parts are left.
        let files = std::fs::read_dir(&dir.dir).unwrap().count();
        assert_eq!(files, runs.len() + small.len() + parts.len());

        let want: Vec<(u64, u128)> = expect.iter().map(|(&v, &c)| (v, c)).collect();
        for pieces in [1, 2, 3, 64] {
            let (parts, n) = merge::<std::io::Error>(
                &runs,
                || dir.file("level"),
                pieces,
                LAST,
                |a, b| Ok(a + b),
            )
            .unwrap();
            assert_eq!(parts.len(), pieces as usize);
            assert_eq!(n, expect.len());
            assert_eq!(read_all(&parts), want, "{pieces} pieces");
        }
    }
}
