//! External memory for `count`: levels and sorted runs of children as files of records.
//!
//! A record is a position key (`u64`) and its path count (`u128`), little-endian, 24 bytes. A
//! level kept for the backward pass after its expansion needs no counts: its files hold keys
//! alone, 8 bytes each.
//! Every file is in the order levels are kept in (see `count::rank`), so that runs merge by
//! streaming and a stored level can be intersected with sorted keys without loading it.

use rayon::prelude::*;

use std::cmp::Reverse;
use std::collections::binary_heap::{BinaryHeap, PeekMut};
use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Bytes per record.
const RECORD: usize = 24;

/// A scratch directory of its own under a user-chosen one, removed when dropped.
pub(crate) struct SpillDir {
    dir: PathBuf,
    next: usize,
}

impl SpillDir {
    pub(crate) fn new(parent: &Path) -> std::io::Result<SpillDir> {
        let dir = parent.join(format!(
            "pegsol-count-{}-{}",
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

/// Records buffered for writing: appended as bytes and written out a megabyte at a time.
struct Writer {
    file: File,
    buf: Vec<u8>,
}

impl Writer {
    const FLUSH: usize = 1 << 20;

    fn create(path: &Path) -> std::io::Result<Writer> {
        Ok(Writer {
            file: File::create(path)?,
            buf: Vec::with_capacity(Self::FLUSH + RECORD),
        })
    }

    /// A record.
    #[inline]
    fn push(&mut self, key: u64, count: u128) -> std::io::Result<()> {
        self.buf.extend_from_slice(&key.to_le_bytes());
        self.push_bytes(&count.to_le_bytes())
    }

    /// A key alone (files of keys, see [`keep_keys`]).
    #[inline]
    fn push_key(&mut self, key: u64) -> std::io::Result<()> {
        self.push_bytes(&key.to_le_bytes())
    }

    #[inline]
    fn push_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= Self::FLUSH {
            self.file.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.file.write_all(&self.buf)?;
        self.file.flush()
    }
}

/// Writes records to `path`.
pub(crate) fn write(path: &Path, keys: &[u64], counts: &[u128]) -> std::io::Result<()> {
    let mut w = Writer::create(path)?;
    for (&k, &c) in keys.iter().zip(counts) {
        w.push(k, c)?;
    }
    w.finish()
}

/// Reads records in order from consecutive files (a level stored in parts), or from a range
/// of records of one file; parsed from a buffer filled a quarter megabyte at a time.
pub(crate) struct Records {
    /// Bytes per record: [`RECORD`], or 8 for files of keys alone.
    size: usize,
    /// Files still to read, in reverse order.
    todo: Vec<PathBuf>,
    file: Option<File>,
    /// Bytes left to read from `file`.
    left: u64,
    buf: Vec<u8>,
    at: usize,
}

impl Records {
    /// A quarter megabyte: a merge reads up to [`FAN_IN`] runs at once on each thread.
    const BUFFER: usize = (1 << 18) / RECORD * RECORD;

    /// The records of `paths`, one file after another.
    pub(crate) fn open_all(paths: &[PathBuf]) -> std::io::Result<Records> {
        Records::open_sized(paths, RECORD)
    }

    /// The keys of `paths`, files of keys alone (see [`keep_keys`]), one after another.
    pub(crate) fn keys(paths: &[PathBuf]) -> std::io::Result<Records> {
        Records::open_sized(paths, 8)
    }

    fn open_sized(paths: &[PathBuf], size: usize) -> std::io::Result<Records> {
        let mut r = Records {
            size,
            todo: paths.iter().rev().cloned().collect(),
            file: None,
            left: 0,
            buf: Vec::new(),
            at: 0,
        };
        r.next_file()?;
        Ok(r)
    }

    /// Records `from..to` of `path`.
    fn open_range(path: &Path, from: u64, to: u64) -> std::io::Result<Records> {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(from * RECORD as u64))?;
        Ok(Records {
            size: RECORD,
            todo: Vec::new(),
            file: Some(file),
            left: (to - from) * RECORD as u64,
            buf: Vec::new(),
            at: 0,
        })
    }

    fn next_file(&mut self) -> std::io::Result<()> {
        self.file = None;
        if let Some(path) = self.todo.pop() {
            let file = File::open(&path)?;
            self.left = file.metadata()?.len();
            if self.left % self.size as u64 != 0 {
                return Err(std::io::Error::new(
                    ErrorKind::InvalidData,
                    format!("{} is not a whole number of records", path.display()),
                ));
            }
            self.file = Some(file);
        }
        Ok(())
    }

    /// Refills the buffer; `false` at the end of the last file.
    fn fill(&mut self) -> std::io::Result<bool> {
        loop {
            let Some(file) = &mut self.file else {
                return Ok(false);
            };
            if self.left == 0 {
                self.next_file()?;
                continue;
            }
            let n = (Self::BUFFER as u64).min(self.left) as usize;
            self.buf.resize(n, 0);
            file.read_exact(&mut self.buf)?;
            self.left -= n as u64;
            self.at = 0;
            return Ok(true);
        }
    }

    /// The next key of a file of keys alone, or `None` at the end.
    #[inline]
    pub(crate) fn next_key(&mut self) -> std::io::Result<Option<u64>> {
        debug_assert_eq!(self.size, 8);
        if self.at == self.buf.len() && !self.fill()? {
            return Ok(None);
        }
        let k = &self.buf[self.at..self.at + 8];
        self.at += 8;
        Ok(Some(u64::from_le_bytes(k.try_into().expect("8 bytes"))))
    }

    /// The next record, or `None` at the end.
    #[inline]
    pub(crate) fn next_record(&mut self) -> std::io::Result<Option<(u64, u128)>> {
        debug_assert_eq!(self.size, RECORD);
        if self.at == self.buf.len() && !self.fill()? {
            return Ok(None);
        }
        let r = &self.buf[self.at..self.at + RECORD];
        self.at += RECORD;
        let (k, c) = r.split_at(8);
        Ok(Some((
            u64::from_le_bytes(k.try_into().expect("8 bytes")),
            u128::from_le_bytes(c.try_into().expect("16 bytes")),
        )))
    }

    /// Up to `n` records.
    pub(crate) fn chunk(&mut self, n: usize) -> std::io::Result<(Vec<u64>, Vec<u128>)> {
        let (mut keys, mut counts) = (Vec::with_capacity(n), Vec::with_capacity(n));
        while keys.len() < n {
            match self.next_record()? {
                Some((k, c)) => {
                    keys.push(k);
                    counts.push(c);
                }
                None => break,
            }
        }
        Ok((keys, counts))
    }
}

/// Rewrites the files of records `parts` as files of their keys alone, named by `name`, in
/// parallel, and removes them: a stored level needs its counts no more once expanded, and
/// keys alone take a third of the disk.
pub(crate) fn keep_keys(
    parts: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
) -> std::io::Result<Vec<PathBuf>> {
    let outs: Vec<PathBuf> = parts.iter().map(|_| name()).collect();
    parts
        .par_iter()
        .zip(&outs)
        .map(|(part, out)| {
            let mut r = Records::open_all(std::slice::from_ref(part))?;
            let mut w = Writer::create(out)?;
            while let Some((k, _)) = r.next_record()? {
                w.push_key(k)?;
            }
            w.finish()?;
            std::fs::remove_file(part)
        })
        .collect::<std::io::Result<()>>()?;
    Ok(outs)
}

/// The key of record `i` of `file`.
fn key_at(file: &mut File, i: u64) -> std::io::Result<u64> {
    let mut k = [0u8; 8];
    file.seek(SeekFrom::Start(i * RECORD as u64))?;
    file.read_exact(&mut k)?;
    Ok(u64::from_le_bytes(k))
}

/// The most runs one merge reads at once: bounds the open files and the read buffers.
const FAN_IN: usize = 64;

/// Merges sorted runs (by `order`, a value spread evenly over `u64`) into files named by
/// `name`, summing the counts of equal keys with `add` (which fails on overflow). The order's
/// range is cut into `pieces` equal parts, found in each run by binary search, and the parts
/// are merged in parallel, each into its own file: the files in order make the merged level.
/// More than [`FAN_IN`] runs are first merged in groups (in parallel) into fewer, longer runs.
/// Returns the files and the number of distinct keys written.
pub(crate) fn merge<E: From<std::io::Error> + Send>(
    runs: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
    pieces: u64,
    order: impl Fn(u64) -> u64 + Sync,
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
                merge_into(readers, out, &order, &add)
            })
            .collect::<Result<Vec<usize>, E>>()?;
        // Runs made here, not the caller's, are removed once merged further.
        if let Some(done) = merged.replace(outs) {
            for run in done {
                let _ = std::fs::remove_file(run);
            }
        }
    }
    let result = merge_pieces(
        merged.as_deref().unwrap_or(runs),
        name,
        pieces,
        &order,
        &add,
    );
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
    order: &(impl Fn(u64) -> u64 + Sync),
    add: &(impl Fn(u128, u128) -> Result<u128, E> + Sync),
) -> Result<(Vec<PathBuf>, usize), E> {
    let pieces = pieces.max(1);
    // cuts[r][p]: the first record of run `r` in piece `p` (and its length at the end).
    let mut cuts: Vec<Vec<u64>> = Vec::with_capacity(runs.len());
    for run in runs {
        let mut file = File::open(run)?;
        let len = file.metadata()?.len() / RECORD as u64;
        let mut at = vec![0u64; pieces as usize + 1];
        at[pieces as usize] = len;
        for p in 1..pieces {
            let bound = p * (u64::MAX / pieces);
            let (mut lo, mut hi) = (at[p as usize - 1], len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if order(key_at(&mut file, mid)?) < bound {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            at[p as usize] = lo;
        }
        cuts.push(at);
    }
    let outs: Vec<PathBuf> = (0..pieces).map(|_| name()).collect();
    let written: Vec<usize> = outs
        .par_iter()
        .enumerate()
        .map(|(p, out)| {
            let readers = runs
                .iter()
                .zip(&cuts)
                .map(|(run, at)| Records::open_range(run, at[p], at[p + 1]))
                .collect::<std::io::Result<Vec<_>>>()?;
            merge_into(readers, out, order, add)
        })
        .collect::<Result<_, E>>()?;
    Ok((outs, written.iter().sum()))
}

/// Merges `readers` (each sorted by `order`) into the file `out`; returns the records written.
fn merge_into<E: From<std::io::Error>>(
    mut readers: Vec<Records>,
    out: &Path,
    order: &impl Fn(u64) -> u64,
    add: &impl Fn(u128, u128) -> Result<u128, E>,
) -> Result<usize, E> {
    // The heap holds each reader's order and index; its record waits in `heads`, and the
    // top is replaced in place (one sift) rather than popped and pushed.
    let mut heads = Vec::with_capacity(readers.len());
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for r in &mut readers {
        if let Some((k, c)) = r.next_record()? {
            heap.push(Reverse((order(k), heads.len())));
            heads.push((k, c));
        } else {
            heads.push((0, 0));
        }
    }
    let mut w = Writer::create(out)?;
    let mut written = 0usize;
    let mut pending: Option<(u64, u128)> = None;
    while let Some(mut top) = heap.peek_mut() {
        let Reverse((_, i)) = *top;
        let (k, c) = heads[i];
        pending = match pending {
            Some((pk, pc)) if pk == k => Some((pk, add(pc, c)?)),
            Some((pk, pc)) => {
                w.push(pk, pc)?;
                written += 1;
                Some((k, c))
            }
            None => Some((k, c)),
        };
        match readers[i].next_record()? {
            Some((k2, c2)) => {
                heads[i] = (k2, c2);
                *top = Reverse((order(k2), i));
            }
            None => {
                PeekMut::pop(top);
            }
        }
    }
    if let Some((pk, pc)) = pending {
        w.push(pk, pc)?;
        written += 1;
    }
    w.finish()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_in_order_with_counts_summed() {
        let base = std::env::temp_dir();
        let mut dir = SpillDir::new(&base).unwrap();
        let (a, b) = (dir.file("run"), dir.file("run"));
        write(&a, &[1, 3, 5], &[1, 1, u128::from(u64::MAX) + 1]).unwrap();
        write(&b, &[2, 3, 6], &[10, 10, 10]).unwrap();
        let (parts, n) =
            merge::<std::io::Error>(&[a, b], || dir.file("level"), 1, |k| k, |x, y| Ok(x + y))
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
    fn pieces_merge_like_a_map() {
        // Many runs of random keys, merged in pieces cut by an order that spreads the keys,
        // read back across buffer refills and part files, against a map.
        let order = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut dir = SpillDir::new(&std::env::temp_dir()).unwrap();
        let mut next = crate::testing::xorshift();
        let mut expect = std::collections::BTreeMap::new();
        let mut runs = Vec::new();
        for r in 0..7u64 {
            let mut run: Vec<(u64, u128)> = (0..60_000 + r * 5_000)
                .map(|_| {
                    let x = next();
                    (x % 200_000, u128::from(x >> 40))
                })
                .collect();
            run.sort_by_key(|&(k, _)| order(k));
            run.dedup_by_key(|e| e.0);
            for &(k, c) in &run {
                *expect.entry((order(k), k)).or_insert(0u128) += c;
            }
            let path = dir.file("run");
            let (ks, cs): (Vec<u64>, Vec<u128>) = run.into_iter().unzip();
            write(&path, &ks, &cs).unwrap();
            runs.push(path);
        }
        // More runs than one merge reads at once: merged in groups first.
        let mut small = Vec::new();
        let cut = FAN_IN + 10;
        for run in &runs[..2] {
            let mut r = Records::open_all(std::slice::from_ref(run)).unwrap();
            let (ks, cs) = r.chunk(1 << 20).unwrap();
            for part in 0..cut {
                let path = dir.file("small");
                let range = part * ks.len() / cut..(part + 1) * ks.len() / cut;
                write(&path, &ks[range.clone()], &cs[range]).unwrap();
                small.push(path);
            }
        }
        let mut want = std::collections::BTreeMap::new();
        for run in &runs[..2] {
            let mut r = Records::open_all(std::slice::from_ref(run)).unwrap();
            while let Some((k, c)) = r.next_record().unwrap() {
                *want.entry((order(k), k)).or_insert(0u128) += c;
            }
        }
        let (parts, n) =
            merge::<std::io::Error>(&small, || dir.file("level"), 4, order, |a, b| Ok(a + b))
                .unwrap();
        assert_eq!(n, want.len());
        let mut r = Records::open_all(&parts).unwrap();
        for (&(_, k), &c) in &want {
            assert_eq!(r.next_record().unwrap(), Some((k, c)));
        }
        assert_eq!(r.next_record().unwrap(), None);
        // Only the caller's runs and the merged parts are left.
        let files = std::fs::read_dir(&dir.dir).unwrap().count();
        assert_eq!(files, runs.len() + small.len() + parts.len());

        // Keys alone, as a stored level keeps them.
        let (parts, _) =
            merge::<std::io::Error>(&runs, || dir.file("level"), 3, order, |a, b| Ok(a + b))
                .unwrap();
        let keys = keep_keys(&parts, || dir.file("keys")).unwrap();
        assert!(parts.iter().all(|p| !p.exists()), "the records are removed");
        let mut r = Records::keys(&keys).unwrap();
        for &(_, k) in expect.keys() {
            assert_eq!(r.next_key().unwrap(), Some(k));
        }
        assert_eq!(r.next_key().unwrap(), None);

        for pieces in [1, 2, 64] {
            let (parts, n) = merge::<std::io::Error>(
                &runs,
                || dir.file("level"),
                pieces,
                order,
                |a, b| Ok(a + b),
            )
            .unwrap();
            assert_eq!(parts.len(), pieces as usize);
            assert_eq!(n, expect.len());
            let mut r = Records::open_all(&parts).unwrap();
            let mut got = Vec::new();
            while let Some(rec) = r.next_record().unwrap() {
                got.push(rec);
            }
            let want: Vec<(u64, u128)> = expect.iter().map(|(&(_, k), &c)| (k, c)).collect();
            assert_eq!(got, want, "{pieces} pieces");
        }
    }
}
