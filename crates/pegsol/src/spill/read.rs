//! Reading spill files: the trailer checked, then records decoded in order or by range.

use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::spill::{Value, BLOCK, LOW_BYTES, MAGIC, MAX_RECORD, TRAILER};

/// The varint at `buf[*at..]`, moving `at` past it; `None` if it runs off the end or past
/// 64 bits.
#[inline]
pub(super) fn get_varint(buf: &[u8], at: &mut usize) -> Option<u64> {
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

#[cold]
pub(super) fn damaged(path: &Path) -> std::io::Error {
    invalid(path, "a record is cut short or too long")
}

pub(super) fn invalid(path: &Path, what: &str) -> std::io::Error {
    std::io::Error::new(
        ErrorKind::InvalidData,
        format!("{} is not a pegsol spill file: {what}", path.display()),
    )
}

/// A file's trailer, checked against its length.
pub(super) struct Trailer {
    /// Bytes of records.
    pub(super) data: u64,
    pub(super) blocks: u64,
    pub(super) counts: bool,
}

impl Trailer {
    pub(super) fn read(file: &mut File, path: &Path) -> std::io::Result<Trailer> {
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

    /// The index: per block, its first head, the head before it, its offset.
    pub(super) fn index(&self, file: &mut File) -> std::io::Result<Vec<[u64; 3]>> {
        let mut bytes = vec![0u8; self.blocks as usize * 24];
        file.seek(SeekFrom::Start(self.data))?;
        file.read_exact(&mut bytes)?;
        Ok(bytes
            .chunks_exact(24)
            .map(|e| [le_word(e, 0), le_word(e, 8), le_word(e, 16)])
            .collect())
    }
}

/// Where a reader starts in a file: a byte offset at a block, the head before it, and the
/// least head to return (smaller ones in that block are skipped).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Start {
    pub(super) offset: u64,
    pub(super) prev: u64,
    pub(super) from: u64,
}

/// Reads records in order from consecutive files (a level stored in parts), or the records of
/// one file with heads in a range; decoded from a buffer filled a quarter megabyte at a time.
pub(crate) struct Records<V> {
    /// Whether the files hold counts.
    pub(super) counts: bool,
    /// Files still to read, in reverse order.
    pub(super) todo: Vec<PathBuf>,
    pub(super) file: Option<File>,
    pub(super) path: PathBuf,
    /// Bytes of records left to read from `file`.
    pub(super) left: u64,
    /// Bytes read, then [`MAX_RECORD`] zeros, so that a record is always decoded from a
    /// whole slice: one whose lengths run past `end` is cut short.
    pub(super) buf: Vec<u8>,
    pub(super) end: usize,
    pub(super) at: usize,
    /// The head before.
    pub(super) prev: u64,
    /// Heads below it are skipped, and from `until` on the reader ends.
    pub(super) from: u64,
    pub(super) until: Option<u64>,
    pub(super) value: std::marker::PhantomData<V>,
}

/// The little-endian word at byte `at` of `bytes` (the trailer's, the index's and a record's
/// fields).
#[inline(always)]
pub(super) fn le_word(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The record at the start of `r`, for values with `tail` words after the head: its gap,
/// the byte where its other words start, its count and its length in bytes; `None` if its
/// tag is not one a writer makes.
#[inline(always)]
pub(super) fn record_at(r: &[u8; MAX_RECORD], tail: usize) -> Option<(u64, usize, u128, usize)> {
    let gap_len = usize::from(r[0] & 7) + 1;
    let count_len = usize::from(r[0] >> 3);
    let word = |at: usize| le_word(r, at);
    let gap = word(1) & LOW_BYTES[gap_len];
    let at = 1 + gap_len + 8 * tail;
    // Count bytes past the length belong to the next record: masked off.
    let (low, high) = (word(at), word(at + 8));
    let count = match count_len {
        0..=8 => u128::from(low & LOW_BYTES[count_len]),
        9..=16 => u128::from(low) | u128::from(high & LOW_BYTES[count_len - 8]) << 64,
        _ => return None,
    };
    Some((gap, 1 + gap_len, count, at + count_len))
}

impl<V: Value> Records<V> {
    /// A quarter megabyte: a merge reads up to [`FAN_IN`] runs at once on each thread.
    const BUFFER: usize = 1 << 18;

    /// The records of `paths`, one file after another.
    pub(crate) fn open_all(paths: &[PathBuf]) -> std::io::Result<Records<V>> {
        Records::open_kind(paths, true)
    }

    /// The values of `paths`, files of values alone (see [`KeyWriter`]), one after another.
    pub(crate) fn keys(paths: &[PathBuf]) -> std::io::Result<Records<V>> {
        Records::open_kind(paths, false)
    }

    pub(super) fn open_kind(paths: &[PathBuf], counts: bool) -> std::io::Result<Records<V>> {
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
            value: std::marker::PhantomData,
        };
        r.next_file()?;
        Ok(r)
    }

    /// The records of `path` from `start`, up to (not including) the head `until`.
    pub(super) fn open_range(
        path: &Path,
        start: Start,
        until: Option<u64>,
    ) -> std::io::Result<Records<V>> {
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
            value: std::marker::PhantomData,
        })
    }

    pub(super) fn next_file(&mut self) -> std::io::Result<()> {
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
    pub(super) fn fill(&mut self) -> std::io::Result<bool> {
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
    pub(super) fn decode(&mut self) -> std::io::Result<(V, u128)> {
        let (gap, tail, count) = if self.counts {
            let r = self.buf[self.at..self.at + MAX_RECORD]
                .try_into()
                .expect("a whole record");
            let Some((gap, tail, count, len)) = record_at(r, V::TAIL) else {
                return Err(self.damaged());
            };
            let tail = self.at + tail;
            self.at += len;
            (gap, tail, count)
        } else {
            let Some(gap) = get_varint(&self.buf[..self.end], &mut self.at) else {
                return Err(self.damaged());
            };
            let tail = self.at;
            self.at += 8 * V::TAIL;
            (gap, tail, 0)
        };
        if self.at > self.end {
            return Err(self.damaged());
        }
        self.prev = self.prev.wrapping_add(gap);
        let buf = &self.buf;
        let value = V::of_words(self.prev, |i| le_word(buf, tail + 8 * i));
        Ok((value, count))
    }

    #[cold]
    pub(super) fn damaged(&self) -> std::io::Error {
        damaged(&self.path)
    }

    /// The next record in range, or `None` at the end.
    #[inline]
    pub(super) fn next_any(&mut self) -> std::io::Result<Option<(V, u128)>> {
        loop {
            if !self.fill()? {
                return Ok(None);
            }
            let (v, c) = self.decode()?;
            if v.head() < self.from {
                continue;
            }
            if self.until.is_some_and(|u| v.head() >= u) {
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
    pub(crate) fn next_key(&mut self) -> std::io::Result<Option<V>> {
        debug_assert!(!self.counts);
        Ok(self.next_any()?.map(|(v, _)| v))
    }

    /// The next record, or `None` at the end.
    #[inline]
    pub(crate) fn next_record(&mut self) -> std::io::Result<Option<(V, u128)>> {
        debug_assert!(self.counts);
        self.next_any()
    }

    /// Up to `n` records.
    pub(crate) fn chunk(&mut self, n: usize) -> std::io::Result<(Vec<V>, Vec<u128>)> {
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
