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
                let start = b.start().unwrap();
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
        let _ = b.hole_set(&name);
        let _ = pegsol::notation::parse_jumps(&b, &name);
    }
}
