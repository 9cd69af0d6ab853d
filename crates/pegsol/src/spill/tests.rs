use std::io::ErrorKind;

use super::*;
use crate::spill::merge::FAN_IN;

/// The values of a file of records, as a file of values alone.
fn keys_of(records: &Path, out: PathBuf) -> PathBuf {
    let (values, _) = Records::<u64>::open_all(&[records.to_path_buf()])
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
    let mut r = Records::<u64>::open_all(parts).unwrap();
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
        merge::<u64, std::io::Error>(&[a, b], || dir.file("level"), 1, u64::MAX, |x, y| Ok(x + y))
            .unwrap();
    assert_eq!(n, 5);
    let mut r = Records::<u64>::open_all(&parts).unwrap();
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
    // And after it, no scratch can be made there (a writer racing the handler gets an
    // error, not a file left behind); other directories are not affected.
    assert!(SpillDir::new(&base).is_err());
    assert!(create_file(&base.join("late.bin")).is_err());
    assert!(!base.join("late.bin").exists());
    let elsewhere = base.with_extension("open");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut open = SpillDir::new(&elsewhere).unwrap();
    assert!(create_file(&open.file("run")).is_ok());
    drop(open);
    std::fs::remove_dir_all(&elsewhere).unwrap();
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
    let mut r = Records::<u64>::keys(&keys).unwrap();
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
    assert!(Records::<u64>::open_all(std::slice::from_ref(&path)).is_err());
    // A tag whose count is longer than 16 bytes.
    let mut bad = bytes.clone();
    bad[..64].fill(0xFF);
    std::fs::write(&path, &bad).unwrap();
    let mut r = Records::<u64>::open_all(std::slice::from_ref(&path)).unwrap();
    let err = std::iter::from_fn(|| r.next_record().transpose())
        .find_map(Result::err)
        .expect("an error");
    assert_eq!(err.kind(), ErrorKind::InvalidData);
    // A file of values alone is not one of records.
    std::fs::write(&path, &bytes).unwrap();
    let keys = [keys_of(&path, dir.file("keys"))];
    assert!(Records::<u64>::open_all(&keys).is_err());
    assert!(Records::<u64>::keys(&keys).is_ok());
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
        let mut r = Records::<u64>::open_all(std::slice::from_ref(run)).unwrap();
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
        merge::<u64, std::io::Error>(&small, || dir.file("level"), 4, LAST, |a, b| Ok(a + b))
            .unwrap();
    assert_eq!(n, want.len());
    let want: Vec<(u64, u128)> = want.into_iter().collect();
    assert_eq!(read_all(&parts), want);
    // Only the caller's runs and the merged parts are left.
    let files = std::fs::read_dir(&dir.dir).unwrap().count();
    assert_eq!(files, runs.len() + small.len() + parts.len());

    let want: Vec<(u64, u128)> = expect.iter().map(|(&v, &c)| (v, c)).collect();
    for pieces in [1, 2, 3, 64] {
        let (parts, n) = merge::<u64, std::io::Error>(
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

#[test]
fn wide_values_merge_like_a_map_with_ties_in_their_heads() {
    // Values of two and four words whose heads often tie (a few hundred heads for tens of
    // thousands of values, so that ties cross index blocks and piece bounds): merged in
    // pieces, read back, and kept as files of values alone, against a map.
    fn check<const N: usize>(words: impl Fn(&mut dyn FnMut() -> u64) -> [u64; N])
    where
        [u64; N]: Value,
    {
        let mut dir = SpillDir::new(&std::env::temp_dir()).unwrap();
        let mut next = crate::testing::xorshift();
        let mut expect = std::collections::BTreeMap::new();
        let mut runs = Vec::new();
        for _ in 0..5 {
            let mut run: Vec<([u64; N], u128)> = (0..30_000)
                .map(|_| (words(&mut next), u128::from(next() >> 20) << (next() % 70)))
                .collect();
            run.sort_by_key(|&(v, _)| v);
            run.dedup_by_key(|e| e.0);
            for &(v, c) in &run {
                *expect.entry(v).or_insert(0u128) += c;
            }
            let path = dir.file("run");
            let (vs, cs): (Vec<[u64; N]>, Vec<u128>) = run.into_iter().unzip();
            write(&path, &vs, &cs).unwrap();
            runs.push(path);
        }
        let want: Vec<([u64; N], u128)> = expect.iter().map(|(&v, &c)| (v, c)).collect();
        for pieces in [1, 3, 64] {
            let (parts, n) = merge::<[u64; N], std::io::Error>(
                &runs,
                || dir.file("level"),
                pieces,
                u64::MAX,
                |a, b| Ok(a + b),
            )
            .unwrap();
            assert_eq!(n, want.len());
            let mut r = Records::<[u64; N]>::open_all(&parts).unwrap();
            let (vs, cs) = r.chunk(1 << 20).unwrap();
            let got: Vec<([u64; N], u128)> = vs.into_iter().zip(cs).collect();
            assert_eq!(got, want, "{pieces} pieces");
            let keys = dir.file("keys");
            let mut w = KeyWriter::create(&keys).unwrap();
            let values: Vec<[u64; N]> = want.iter().map(|e| e.0).collect();
            w.push_all(&values[..values.len() / 2]).unwrap();
            w.push_all(&values[values.len() / 2..]).unwrap();
            w.finish().unwrap();
            let mut r = Records::<[u64; N]>::keys(&[keys]).unwrap();
            let mut back = Vec::new();
            while let Some(v) = r.next_key().unwrap() {
                back.push(v);
            }
            assert_eq!(back, values);
        }
    }
    check::<2>(|next| [(next() % 300) << 54, next()]);
    check::<4>(|next| {
        [
            next() % 500 * 0x0100_0000_0000_0000 / 2,
            next(),
            0,
            next() & 7,
        ]
    });
}
