//! External memory for `count`: levels and sorted runs of children as files of records.
//!
//! A record is a position key (`u64`) and its path count (`u128`), little-endian, 24 bytes.
//! Every file is in the order levels are kept in (see `count::rank`), so that runs merge by
//! streaming and a stored level can be intersected with sorted keys without loading it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
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

/// Writes records to `path`.
pub(crate) fn write(path: &Path, keys: &[u64], counts: &[u128]) -> std::io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
    for (k, c) in keys.iter().zip(counts) {
        w.write_all(&k.to_le_bytes())?;
        w.write_all(&c.to_le_bytes())?;
    }
    w.flush()
}

/// Reads a file of records in order.
pub(crate) struct Records {
    r: BufReader<File>,
}

impl Records {
    pub(crate) fn open(path: &Path) -> std::io::Result<Records> {
        Ok(Records {
            r: BufReader::with_capacity(1 << 20, File::open(path)?),
        })
    }

    /// The next record, or `None` at the end.
    pub(crate) fn next_record(&mut self) -> std::io::Result<Option<(u64, u128)>> {
        let mut buf = [0u8; RECORD];
        match self.r.read_exact(&mut buf) {
            Ok(()) => {
                let (k, c) = buf.split_at(8);
                Ok(Some((
                    u64::from_le_bytes(k.try_into().expect("8 bytes")),
                    u128::from_le_bytes(c.try_into().expect("16 bytes")),
                )))
            }
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
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

/// Merges sorted runs (by `order`) into `out`, summing the counts of equal keys with `add`
/// (which fails on overflow). Returns the number of distinct keys written.
pub(crate) fn merge<E: From<std::io::Error>>(
    runs: &[PathBuf],
    out: &Path,
    order: impl Fn(u64) -> u64,
    add: impl Fn(u128, u128) -> Result<u128, E>,
) -> Result<usize, E> {
    let mut readers: Vec<Records> = runs
        .iter()
        .map(|p| Records::open(p))
        .collect::<std::io::Result<_>>()?;
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((k, c)) = r.next_record()? {
            heap.push(Reverse((order(k), i, k, c)));
        }
    }
    let mut w = BufWriter::with_capacity(1 << 20, File::create(out)?);
    let mut written = 0usize;
    let mut pending: Option<(u64, u128)> = None;
    while let Some(Reverse((_, i, k, c))) = heap.pop() {
        pending = match pending {
            Some((pk, pc)) if pk == k => Some((pk, add(pc, c)?)),
            Some((pk, pc)) => {
                w.write_all(&pk.to_le_bytes())?;
                w.write_all(&pc.to_le_bytes())?;
                written += 1;
                Some((k, c))
            }
            None => Some((k, c)),
        };
        if let Some((k2, c2)) = readers[i].next_record()? {
            heap.push(Reverse((order(k2), i, k2, c2)));
        }
    }
    if let Some((pk, pc)) = pending {
        w.write_all(&pk.to_le_bytes())?;
        w.write_all(&pc.to_le_bytes())?;
        written += 1;
    }
    w.flush()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_in_order_with_counts_summed() {
        let base = std::env::temp_dir();
        let mut dir = SpillDir::new(&base).unwrap();
        let (a, b, out) = (dir.file("run"), dir.file("run"), dir.file("level"));
        write(&a, &[1, 3, 5], &[1, 1, u128::from(u64::MAX) + 1]).unwrap();
        write(&b, &[2, 3, 6], &[10, 10, 10]).unwrap();
        let n = merge::<std::io::Error>(&[a, b], &out, |k| k, |x, y| Ok(x + y)).unwrap();
        assert_eq!(n, 5);
        let mut r = Records::open(&out).unwrap();
        let (keys, counts) = r.chunk(100).unwrap();
        assert_eq!(keys, [1, 2, 3, 5, 6]);
        assert_eq!(counts, [1, 10, 11, u128::from(u64::MAX) + 1, 10]);
        let path = dir.dir.clone();
        drop(dir);
        assert!(!path.exists(), "the scratch directory is removed");
    }
}
