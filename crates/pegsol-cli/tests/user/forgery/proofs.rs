//! Proofs of false claims: class, pagoda and search certificates of the English central game
//! (which is solvable), and the genuine certificates tampered with.

use serde_json::json;

use super::kit::{add, all_but, hex, hole, Forged, Genuine};

/// Class proofs of the central game, and positions written in forms the format forbids.
pub(super) fn class(g: &Genuine) -> Forged {
    let (english_a3, d4, central_start) = (&g.english_a3, g.d4, &g.central_start);
    let central = |kind: &str| g.central(kind);
    let mut forged = Forged::new();
    // Class proofs of the central game.
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    add(
        &mut forged,
        "class: a true invariant set that does not separate",
        &c,
    );
    c["sets"] = json!([hex(&[d4])]);
    add(&mut forged, "class: a set that meets jumps oddly", &c);
    c["sets"] = json!([]);
    add(&mut forged, "class: no sets", &c);
    // A phantom hole past the board: in no jump, so the set {40} meets every jump evenly.
    c["sets"] = json!([hex(&[40])]);
    c["finishes"] = json!([hex(&[d4, 40])]);
    add(
        &mut forged,
        "class: a finish with a phantom peg past the board",
        &c,
    );
    let mut c = central("class");
    c["sets"] = json!([hex(&[40])]);
    c["start"] = json!(hex(&[&all_but(33, &[d4])[..], &[40]].concat()));
    add(
        &mut forged,
        "class: a start with a phantom peg past the board",
        &c,
    );
    c["start"] = json!(format!("1{}{central_start}", "0".repeat(290)));
    add(
        &mut forged,
        "class: a start with a phantom peg 300 digits up",
        &c,
    );
    // Any one peg: the a3 set separates some single pegs from the start, not d4.
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    c["finishes"] = json!({"pegs": 1});
    add(
        &mut forged,
        "class: any one peg, separated on some holes only",
        &c,
    );
    // Positions that are not plain hexadecimal.
    for (what, bad) in [
        ("negative", "-1".to_string()),
        ("0x prefix", format!("0x{:x}", 1u64 << d4)),
        ("plus sign", format!("+{:x}", 1u64 << d4)),
        ("leading space", format!(" {:x}", 1u64 << d4)),
        ("underscore", "1_0000".to_string()),
        ("empty", String::new()),
        ("arabic-indic digit", "\u{661}".to_string()),
    ] {
        let mut c = central("class");
        c["sets"] = json!([hex(&[40])]);
        c["finishes"] = json!([bad]);
        add(&mut forged, &format!("class: a finish written {what}"), &c);
    }
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    c["finishes"] = json!([1u64 << d4]);
    add(&mut forged, "class: a finish as a number", &c);
    forged
}

/// Pagoda proofs of the central game: weights that break a jump, numbers in forms the format
/// forbids, and the genuine proof tampered with.
pub(super) fn pagoda(g: &Genuine) -> Forged {
    let (english_a3, pagoda, d4) = (&g.english_a3, &g.pagoda, g.d4);
    let central = |kind: &str| g.central(kind);
    let mut forged = Forged::new();
    // Pagoda proofs of the central game.
    let mut only_d4 = vec![0i64; 33];
    only_d4[d4] = 1;
    let mut c = central("pagoda");
    c["pagodas"] = json!([only_d4]);
    add(
        &mut forged,
        "pagoda: weights that break the jumps into d4",
        &c,
    );
    for (what, raw) in [
        ("floats", "1.0"),
        ("a float minus zero", "-0.0"),
        ("an exponent", "1e0"),
        ("NaN", "NaN"),
        ("Infinity", "Infinity"),
        ("a weight past 2^48", "281474976710657"),
        ("a weight past 2^64", "18446744073709551617"),
        ("a weight of 300 digits", &"9".repeat(300)),
        ("true", "true"),
        ("a string", "\"1\""),
    ] {
        let mut w: Vec<String> = only_d4.iter().map(ToString::to_string).collect();
        w[d4] = raw.to_string();
        w[0] = raw.to_string();
        let mut c = central("pagoda");
        c["pagodas"] = json!("PLACEHOLDER");
        let text = c
            .to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")));
        forged.push((
            format!("pagoda: {what} among the weights"),
            text.into_bytes(),
        ));
    }
    // Rounding at 2^53: in floats 2^53 + 1 == 2^53, so these weights "satisfy" the jump
    // from c4 over d4... and put the start below the finish. As integers they break a jump.
    let mut w: Vec<String> = vec!["0".to_string(); 33];
    w[d4] = "9007199254740993.0".to_string();
    w[hole(english_a3, "c4")] = "9007199254740992.0".to_string();
    let mut c = central("pagoda");
    c["pagodas"] = json!("PLACEHOLDER");
    forged.push((
        "pagoda: floats that round at 2^53".to_string(),
        c.to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")))
            .into_bytes(),
    ));
    // The genuine pagoda proof, its integers written in forms the format forbids.
    let weights_text = pagoda["pagodas"].to_string();
    for (what, from, to) in [
        ("floats", ",", ".0,"),
        ("a minus zero", ",0,", ",-0.0,"),
        ("exponents", ",1,", ",1e0,"),
    ] {
        assert!(weights_text.contains(from), "{what}");
        let text = pagoda
            .to_string()
            .replacen(&weights_text, &weights_text.replace(from, to), 1);
        forged.push((
            format!("pagoda: the genuine weights as {what}"),
            text.into_bytes(),
        ));
    }
    // Any one peg, with NaN among the weights: a float sort picks the "lightest" holes
    // wrongly.
    let mut w: Vec<String> = vec!["1".to_string(); 33];
    w[d4] = "NaN".to_string();
    w[0] = "NaN".to_string();
    let mut c = central("pagoda");
    c["finishes"] = json!({"pegs": 1});
    c["pagodas"] = json!("PLACEHOLDER");
    forged.push((
        "pagoda: NaN among the weights, any one peg".to_string(),
        c.to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")))
            .into_bytes(),
    ));
    let mut c = pagoda.clone();
    c["pagodas"][0].as_array_mut().unwrap().pop();
    add(&mut forged, "pagoda: a weight list one short", &c);
    c["pagodas"] = json!([]);
    add(&mut forged, "pagoda: no function", &c);
    c["pagodas"] = json!([pagoda["pagodas"][0], pagoda["pagodas"][0]]);
    add(&mut forged, "pagoda: two functions", &c);
    c["pagodas"] = json!([[]]);
    add(&mut forged, "pagoda: an empty weight list", &c);
    let mut c = pagoda.clone();
    c["finishes"] = json!([]);
    add(&mut forged, "pagoda: an empty finish list", &c);
    // The genuine pagoda function, with the start moved onto the finish: false.
    let mut c = pagoda.clone();
    c["start"] = c["finishes"][0].clone();
    add(&mut forged, "pagoda: the start is the finish", &c);
    forged
}

/// Search proofs of the central game, and the genuine search certificates tampered with.
pub(super) fn search(g: &Genuine) -> Forged {
    let (english_a3, search, dual) = (&g.english_a3, &g.search, &g.dual);
    let (d4, central_start) = (g.d4, &g.central_start);
    let central = |kind: &str| g.central(kind);
    let mut forged = Forged::new();
    // Search proofs of the central game. With finishes of 1 and 31 pegs, a checker that
    // takes the 31 as "the" finish count calls every child of the start (31 pegs, none a
    // finish) dead: the set {start} looks closed.
    let far: Vec<usize> = all_but(33, &[d4, hole(english_a3, "c1")]);
    let mut c = central("search");
    c["finishes"] = json!([hex(&far), hex(&[d4])]);
    c["dual"] = json!(false);
    c["symmetries"] = json!([]);
    c["pagodas"] = json!([]);
    c["positions"] = json!([central_start]);
    add(
        &mut forged,
        "search: finishes of 31 and 1 pegs, the 31 first",
        &c,
    );
    c["finishes"] = json!([hex(&[d4]), hex(&far)]);
    add(
        &mut forged,
        "search: finishes of 1 and 31 pegs, the 1 first",
        &c,
    );

    // The genuine search certificates, tampered.
    for (name, base) in [("search", search), ("dual", dual)] {
        let mut c = base.clone();
        c["positions"].as_array_mut().unwrap().pop();
        add(&mut forged, &format!("{name}: a member dropped"), &c);
        let mut c = base.clone();
        c["positions"].as_array_mut().unwrap().remove(0);
        add(&mut forged, &format!("{name}: the start dropped"), &c);
        // The finish of the game the set is about (the dual game's is the complement of the
        // start).
        let mut c = base.clone();
        let f = if base["dual"] == true {
            let start = u64::from_str_radix(c["start"].as_str().unwrap(), 16).unwrap();
            json!(format!("{:x}", start ^ 0x7fff))
        } else {
            c["finishes"][0].clone()
        };
        c["positions"].as_array_mut().unwrap().push(f);
        add(
            &mut forged,
            &format!("{name}: a finish among the members"),
            &c,
        );
        let mut c = base.clone();
        let mut perm: Vec<u64> = (0..15).collect();
        perm.swap(0, 1);
        c["symmetries"] = json!([perm]);
        add(
            &mut forged,
            &format!("{name}: a permutation that is no symmetry"),
            &c,
        );
        let mut c = base.clone();
        c["symmetries"] = json!([(0..14).collect::<Vec<u64>>()]);
        add(&mut forged, &format!("{name}: a permutation one short"), &c);
        c["symmetries"] = json!([[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]);
        add(
            &mut forged,
            &format!("{name}: a permutation with a repeat"),
            &c,
        );
        c["symmetries"] = json!([(1..16).collect::<Vec<u64>>()]);
        add(
            &mut forged,
            &format!("{name}: a permutation past the holes"),
            &c,
        );
        let mut c = base.clone();
        c["symmetries"] = json!("PLACEHOLDER");
        let bools = std::iter::once("false".to_string())
            .chain(std::iter::once("true".to_string()))
            .chain((2..15).map(|i| i.to_string()))
            .collect::<Vec<_>>()
            .join(",");
        forged.push((
            format!("{name}: true and false as hole indices"),
            c.to_string()
                .replace("\"PLACEHOLDER\"", &format!("[[{bools}]]"))
                .into_bytes(),
        ));
        let mut c = base.clone();
        c["dual"] = json!(if base["dual"] == true {
            "false"
        } else {
            "true"
        });
        add(&mut forged, &format!("{name}: dual as a string"), &c);
        c["dual"] = json!(0);
        add(&mut forged, &format!("{name}: dual as a number"), &c);
        c.as_object_mut().unwrap().remove("dual");
        add(&mut forged, &format!("{name}: dual missing"), &c);
        // (b3 to b3 is its own dual game: flipping is no forgery there.)
        if base["dual"] == true {
            let mut c = base.clone();
            c["dual"] = json!(false);
            add(&mut forged, &format!("{name}: dual flipped"), &c);
        }
        // A finish one jump from the start: false whatever the set says.
        let mut c = base.clone();
        let b = pegsol::Board::parse("t", c["board"].as_str().unwrap()).unwrap();
        let start = pegsol::Bits(u64::from_str_radix(c["start"].as_str().unwrap(), 16).unwrap());
        let child = b
            .jumps()
            .iter()
            .find(|j| j.is_legal(start))
            .map(|j| j.apply(start).raw())
            .unwrap();
        c["finishes"] = json!([format!("{child:x}")]);
        add(
            &mut forged,
            &format!("{name}: the finish one jump from the start"),
            &c,
        );
        if let Some(w) = c["pagodas"].as_array_mut().and_then(|p| p.first_mut()) {
            w[0] = json!(1_000_000);
            add(
                &mut forged,
                &format!("{name}: a pagoda function that breaks a jump"),
                &c,
            );
        }
    }
    forged
}
