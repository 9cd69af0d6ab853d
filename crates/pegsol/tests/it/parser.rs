//! The board parser never panics, and what it accepts round-trips through its own picture.

use pegsol::{Board, Error};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = Board::parse("fuzz", &text);
    }

    #[test]
    fn board_alphabet_never_panics(text in "[o. \n:a-z#]{0,300}") {
        match Board::parse("fuzz", &text) {
            Ok(b) => prop_assert!(b.hole_count() >= 1 && b.hole_count() <= 64),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn pictures_round_trip(rows in proptest::collection::vec("[o. ]{1,9}", 1..8)) {
        let text = rows.join("\n");
        match Board::parse("p", &text) {
            Ok(b) => {
                let start: pegsol::Bits = b.start().unwrap();
                let again = Board::parse("p", &b.to_picture(start)).unwrap();
                prop_assert_eq!(again.hole_count(), b.hole_count());
                prop_assert_eq!(again.start(), Some(start));
                prop_assert_eq!(again.jumps(), b.jumps());
            }
            Err(e) => prop_assert_eq!(e, Error::EmptyBoard),
        }
    }

    #[test]
    fn labels_and_names_never_panic(name in "\\PC{0,30}") {
        let _ = Board::builtin(&name);
        let b = Board::builtin("english").unwrap();
        let _ = b.hole_set::<u64>(&name);
        let _ = pegsol::notation::parse_jumps(&b, &name);
    }
}

/// How long the time-bounded fuzz loops run: `PEGSOL_FUZZ_SECONDS`, default 5 (CI sets more).
fn fuzz_time() -> std::time::Duration {
    let secs = std::env::var("PEGSOL_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(5.0);
    std::time::Duration::from_secs_f64(secs)
}

/// Mutation fuzzing for a fixed time: built-in pictures, pictures in huge boxes and random
/// text, mutated byte by byte (flips, insertions, deletions, duplicated lines, headers). The
/// parser must answer every input with a board or an error naming a place, never a panic, and
/// every board it accepts must draw, round-trip through its own picture and label its holes
/// so that the labels read back.
#[test]
fn mutated_pictures_for_a_fixed_time() {
    let mut seeds: Vec<String> = ["english", "french", "wiegleb", "triangle:6", "rect:3x7"]
        .iter()
        .map(|n| {
            let b = Board::builtin(n).unwrap();
            b.to_picture(b.start::<u64>().unwrap())
        })
        .collect();
    seeds.push(format!(
        "oo.{}o\n\n\n\n{}.o\n",
        " ".repeat(3000),
        " ".repeat(40)
    ));
    seeds.push(format!("lattice: diagonal\no.o\n{}o\n", "\n".repeat(4000)));
    seeds.push("lattice: triangular\no\noo\n.oo\n".to_string());
    let alphabet: &[u8] = b"o. \n\r\t:Olattice:orthogonaldiagonaltriangular#x0\xc3\xa9";
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let began = std::time::Instant::now();
    let (mut inputs, mut accepted) = (0u64, 0u64);
    while began.elapsed() < fuzz_time() || inputs < 2000 {
        let mut bytes = seeds[(next() % seeds.len() as u64) as usize]
            .clone()
            .into_bytes();
        for _ in 0..=next() % 8 {
            let at = (next() % (bytes.len() as u64 + 1)) as usize;
            let byte = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 5 {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                3 => {
                    let line: Vec<u8> = bytes[at..]
                        .iter()
                        .take_while(|&&b| b != b'\n')
                        .copied()
                        .collect();
                    bytes.splice(at..at, line.into_iter().chain([b'\n']));
                }
                _ => {
                    bytes.splice(0..0, *b"lattice: diagonal\n");
                }
            }
        }
        if next() % 16 == 0 {
            bytes = (0..next() % 300).map(|_| next() as u8).collect();
        }
        let text = String::from_utf8_lossy(&bytes);
        inputs += 1;
        match Board::parse("fuzz", &text) {
            Ok(b) => {
                accepted += 1;
                assert!((1..=256).contains(&b.hole_count()));
                let start: pegsol::Pegs = b.start().unwrap();
                let again = Board::parse("again", &b.to_picture(start)).unwrap();
                assert_eq!(again.jumps(), b.jumps(), "{text:?}");
                assert_eq!(again.start(), Some(start));
                assert_eq!(again.lattice(), b.lattice());
                assert!(b.draw(start).lines().count() <= 3 * b.hole_count() + 1);
                for h in b.each_hole() {
                    assert_eq!(b.hole(&b.label(h)).unwrap(), h);
                }
            }
            Err(e) => {
                let message = e.to_string();
                assert!(
                    !message.is_empty() && !message.starts_with(char::is_uppercase),
                    "{message}"
                );
            }
        }
    }
    println!(
        "{inputs} inputs in {:.1} s, {accepted} accepted",
        began.elapsed().as_secs_f64()
    );
    assert!(accepted > inputs / 10, "{accepted} of {inputs}");
}
