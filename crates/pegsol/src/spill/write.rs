//! Writing spill files: records encoded in parallel, then the index and the trailer.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use crate::spill::{Value, BLOCK, MAGIC, MAX_RECORD, TRAILER};

/// Writes `x` as a varint at the start of `out`; returns its length.
#[inline]
pub(super) fn put_varint(out: &mut [u8], mut x: u64) -> usize {
    let mut n = 0;
    while x >= 0x80 {
        out[n] = x as u8 | 0x80;
        x >>= 7;
        n += 1;
    }
    out[n] = x as u8;
    n + 1
}

/// Records encoded into bytes, with the index entries of the blocks that start among them.
pub(super) struct Encoder {
    /// The bytes, `buf[..len]`, written at a cursor into zeros: a record is stored with
    /// slice copies of a fixed size, not pushes of a variable one.
    pub(super) buf: Vec<u8>,
    pub(super) len: usize,
    pub(super) counts: bool,
    /// Bytes before `buf` in the file.
    pub(super) base: u64,
    /// The head of the value before.
    pub(super) prev: u64,
    pub(super) records: u64,
    /// Per block: its first head, the head before it, its offset.
    pub(super) index: Vec<[u64; 3]>,
}

impl Encoder {
    /// Records that follow the head `prev` (0 at the start of a file) and a multiple of
    /// [`BLOCK`] records.
    pub(super) fn new(counts: bool, prev: u64, capacity: usize) -> Encoder {
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

    /// The gap from the head before; heads must not decrease (values increase).
    #[inline]
    pub(super) fn gap(&mut self, value: u64) -> u64 {
        debug_assert!(value >= self.prev || self.records == 0 && self.index.is_empty());
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
    /// bits) and of the count (0 to 16 bytes), then the gap, the value's other words and the
    /// count, little-endian. Fixed lengths read without a branch per byte, where varints
    /// would.
    #[inline(always)]
    pub(super) fn record<V: Value>(&mut self, value: V, count: u128) {
        debug_assert!(self.counts);
        let gap = self.gap(value.head());
        let gap_len = (64 - (gap | 1).leading_zeros()).div_ceil(8) as usize;
        let count_len = match (count >> 64) as u64 {
            0 => (64 - (count as u64).leading_zeros()).div_ceil(8),
            high => 8 + (64 - high.leading_zeros()).div_ceil(8),
        } as usize;
        // Whole words, each overwriting the previous one's unused bytes.
        let r = self.room();
        r[0] = (gap_len - 1) as u8 | (count_len as u8) << 3;
        r[1..9].copy_from_slice(&gap.to_le_bytes());
        let mut at = 1 + gap_len;
        for i in 0..V::TAIL {
            r[at..at + 8].copy_from_slice(&value.tail(i).to_le_bytes());
            at += 8;
        }
        r[at..at + 16].copy_from_slice(&count.to_le_bytes());
        self.len += at + count_len;
    }

    /// A value alone, its gap as a varint and its other words whole (files of keys, see
    /// [`KeyWriter`]).
    #[inline]
    pub(super) fn key<V: Value>(&mut self, value: V) {
        debug_assert!(!self.counts);
        let gap = self.gap(value.head());
        let r = self.room();
        let mut at = put_varint(r, gap);
        for i in 0..V::TAIL {
            r[at..at + 8].copy_from_slice(&value.tail(i).to_le_bytes());
            at += 8;
        }
        self.len += at;
    }

    /// Room for a record at the cursor.
    #[inline]
    pub(super) fn room(&mut self) -> &mut [u8] {
        if self.len + MAX_RECORD > self.buf.len() {
            self.buf.resize(2 * self.buf.len() + MAX_RECORD, 0);
        }
        &mut self.buf[self.len..self.len + MAX_RECORD]
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Records written in order: encoded into a buffer written out a megabyte at a time, then
/// the index and the trailer (see the module's docs).
pub(super) struct Writer {
    pub(super) file: File,
    pub(super) enc: Encoder,
}

impl Writer {
    const FLUSH: usize = 1 << 20;

    /// A file of records with counts, or of values alone.
    pub(super) fn create(path: &Path, counts: bool) -> std::io::Result<Writer> {
        Ok(Writer {
            file: super::create_file(path)?,
            enc: Encoder::new(counts, 0, Self::FLUSH + MAX_RECORD),
        })
    }

    /// A record; values must increase.
    #[inline]
    pub(super) fn push<V: Value>(&mut self, value: V, count: u128) -> std::io::Result<()> {
        self.enc.record(value, count);
        self.flush_full()
    }

    /// A value alone (files of keys, see [`KeyWriter`]).
    #[inline]
    pub(super) fn push_key<V: Value>(&mut self, value: V) -> std::io::Result<()> {
        self.enc.key(value);
        self.flush_full()
    }

    #[inline]
    pub(super) fn flush_full(&mut self) -> std::io::Result<()> {
        if self.enc.len >= Self::FLUSH {
            self.flush()?;
        }
        Ok(())
    }

    pub(super) fn flush(&mut self) -> std::io::Result<()> {
        self.file.write_all(self.enc.bytes())?;
        self.enc.base += self.enc.len as u64;
        self.enc.len = 0;
        Ok(())
    }

    /// Records encoded apart, which follow the ones written so far (a whole number of
    /// blocks).
    pub(super) fn append(&mut self, part: Encoder) -> std::io::Result<()> {
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

    pub(super) fn finish(mut self) -> std::io::Result<()> {
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
pub(crate) fn write<V: Value>(path: &Path, values: &[V], counts: &[u128]) -> std::io::Result<()> {
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
                let prev = at.checked_sub(1).map_or(0, |p| values[p].head());
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

/// A file of values alone, written a slice at a time: a level kept for the backward pass,
/// which needs no counts once the level is expanded.
pub(crate) struct KeyWriter(Writer);

impl KeyWriter {
    pub(crate) fn create(path: &Path) -> std::io::Result<KeyWriter> {
        Ok(KeyWriter(Writer::create(path, false)?))
    }

    /// More values, each above the ones before.
    pub(crate) fn push_all<V: Value>(&mut self, values: &[V]) -> std::io::Result<()> {
        for &v in values {
            self.0.push_key(v)?;
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> std::io::Result<()> {
        self.0.finish()
    }
}
