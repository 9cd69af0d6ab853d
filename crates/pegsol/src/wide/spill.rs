//! Levels of the wide count on disk: sorted runs of (position, path count) records, merged
//! into one sorted file a level, each position once with its counts summed.
//!
//! A record is the position's `W` words and its `u128` count, little-endian: `8 W + 16`
//! bytes. Files live in a [`SpillDir`] of their own, removed when the count ends.
//!
//! [`SpillDir`]: crate::spill::SpillDir

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::bitset::Bits;
use crate::count::CountError;

/// A record: a representative and the jump sequences into its orbit.
pub(super) type Record<const W: usize> = (Bits<[u64; W]>, u128);

fn io(e: std::io::Error) -> CountError {
    CountError::Io(e.to_string())
}

/// A finished level, sorted by position: in memory, or in a file of `len` records.
pub(super) enum Stored<const W: usize> {
    Memory(Vec<Record<W>>),
    File { path: PathBuf, len: usize },
}

impl<const W: usize> Stored<W> {
    /// How many records.
    pub(super) fn len(&self) -> usize {
        match self {
            Stored::Memory(v) => v.len(),
            Stored::File { len, .. } => *len,
        }
    }

    /// Calls `f` on the records in order, `chunk` at a time; stops at its first error.
    pub(super) fn for_each_chunk(
        &self,
        chunk: usize,
        mut f: impl FnMut(&[Record<W>]) -> Result<(), CountError>,
    ) -> Result<(), CountError> {
        match self {
            Stored::Memory(v) => v.chunks(chunk).try_for_each(f),
            Stored::File { path, .. } => {
                let mut reader = Reader::<W>::open(path)?;
                let mut buf = Vec::with_capacity(chunk);
                loop {
                    buf.clear();
                    while buf.len() < chunk {
                        match reader.next()? {
                            Some(r) => buf.push(r),
                            None => break,
                        }
                    }
                    if buf.is_empty() {
                        return Ok(());
                    }
                    f(&buf)?;
                }
            }
        }
    }
}

/// Writes `records` (sorted) to a new file at `path`.
pub(super) fn write<const W: usize>(path: &Path, records: &[Record<W>]) -> Result<(), CountError> {
    let mut w = BufWriter::with_capacity(1 << 20, crate::spill::create_file(path).map_err(io)?);
    for r in records {
        put(&mut w, r)?;
    }
    w.flush().map_err(io)
}

fn put<const W: usize>(w: &mut impl Write, (p, t): &Record<W>) -> Result<(), CountError> {
    for word in p.0 {
        w.write_all(&word.to_le_bytes()).map_err(io)?;
    }
    w.write_all(&t.to_le_bytes()).map_err(io)
}

/// Reads a file of records in order.
struct Reader<const W: usize> {
    r: BufReader<File>,
}

impl<const W: usize> Reader<W> {
    fn open(path: &Path) -> Result<Self, CountError> {
        Ok(Reader {
            r: BufReader::with_capacity(1 << 20, File::open(path).map_err(io)?),
        })
    }

    fn next(&mut self) -> Result<Option<Record<W>>, CountError> {
        let mut word = [0u8; 8];
        let mut p = Bits::<[u64; W]>::EMPTY;
        for (k, slot) in p.0.iter_mut().enumerate() {
            match self.r.read_exact(&mut word) {
                Ok(()) => *slot = u64::from_le_bytes(word),
                Err(e) if k == 0 && e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Ok(None)
                }
                Err(e) => return Err(io(e)),
            }
        }
        let mut count = [0u8; 16];
        self.r.read_exact(&mut count).map_err(io)?;
        Ok(Some((p, u128::from_le_bytes(count))))
    }
}

/// Merges sorted run files into one sorted file at `out`, each position once with its counts
/// summed (checked: a sum past `u128` is [`CountError::Overflow`]). Returns the records
/// written. The runs are removed as they are used up.
pub(super) fn merge<const W: usize>(runs: &[PathBuf], out: &Path) -> Result<usize, CountError> {
    let mut readers: Vec<Reader<W>> = runs
        .iter()
        .map(|p| Reader::open(p))
        .collect::<Result<_, _>>()?;
    // The least head first: `Reverse` turns the max-heap into a min-heap.
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((p, t)) = r.next()? {
            heap.push(std::cmp::Reverse((p, i, t)));
        }
    }
    let mut w = BufWriter::with_capacity(1 << 20, crate::spill::create_file(out).map_err(io)?);
    let mut current: Option<Record<W>> = None;
    let mut written = 0usize;
    while let Some(std::cmp::Reverse((p, i, t))) = heap.pop() {
        if let Some((q, sum)) = current.as_mut().filter(|c| c.0 == p) {
            debug_assert!(*q == p);
            *sum = sum.checked_add(t).ok_or(CountError::Overflow)?;
        } else {
            if let Some(done) = current.replace((p, t)) {
                put(&mut w, &done)?;
                written += 1;
            }
        }
        if let Some((p, t)) = readers[i].next()? {
            heap.push(std::cmp::Reverse((p, i, t)));
        }
    }
    if let Some(done) = current {
        put(&mut w, &done)?;
        written += 1;
    }
    w.flush().map_err(io)?;
    for run in runs {
        let _ = std::fs::remove_file(run);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::Hole;

    #[test]
    fn runs_merge_into_one_sorted_level_with_summed_counts() {
        let dir = std::env::temp_dir().join(format!("pegsol-wide-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = |i: usize| Bits::<[u64; 2]>::single(Hole::at(i));
        let mut runs = [
            vec![(p(1), 1u128), (p(5), 2), (p(100), 3)],
            vec![(p(5), 10), (p(70), 1)],
            vec![],
            vec![(p(1), u128::MAX - 1), (p(127), 7)],
        ];
        // Each run in the order of positions (word by word, the first word first).
        for r in &mut runs {
            r.sort_unstable();
        }
        let paths: Vec<PathBuf> = runs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let path = dir.join(format!("run-{k}"));
                write(&path, r).unwrap();
                path
            })
            .collect();
        let out = dir.join("level");
        assert_eq!(merge::<2>(&paths, &out).unwrap(), 5);
        let level = Stored::<2>::File {
            path: out.clone(),
            len: 5,
        };
        let mut all = Vec::new();
        level
            .for_each_chunk(2, |c| {
                all.extend_from_slice(c);
                Ok(())
            })
            .unwrap();
        let mut expected = vec![
            (p(1), u128::MAX),
            (p(5), 12),
            (p(70), 1),
            (p(100), 3),
            (p(127), 7),
        ];
        expected.sort_unstable();
        assert_eq!(all, expected);
        // A sum past u128 is an overflow, not a wrapped count.
        let a = dir.join("a");
        let b = dir.join("b");
        write(&a, &[(p(3), u128::MAX)]).unwrap();
        write(&b, &[(p(3), 1u128)]).unwrap();
        assert_eq!(merge::<2>(&[a, b], &out), Err(CountError::Overflow));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
