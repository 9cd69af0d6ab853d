//! Files malformed rather than false: fields and their types, board pictures a careless
//! reader takes for another board, bytes that are no JSON certificate, and boards past 64
//! holes.

use serde_json::{json, Value};

use super::kit::{add, genuine, hex, Forged, Genuine};

/// Fields missing, repeated, unknown or of the wrong type.
pub(super) fn fields(g: &Genuine) -> Forged {
    let english_a3 = &g.english_a3;
    let mut forged = Forged::new();
    // Fields and their types.
    let fields = |forged: &mut Vec<(String, Vec<u8>)>, name: &str, change: &dyn Fn(&mut Value)| {
        let mut c = english_a3.clone();
        change(&mut c);
        forged.push((format!("field: {name}"), c.to_string().into_bytes()));
    };
    fields(&mut forged, "version 1.0", &|c| c["version"] = json!(1.0));
    fields(&mut forged, "version true", &|c| c["version"] = json!(true));
    fields(&mut forged, "version \"1\"", &|c| c["version"] = json!("1"));
    fields(&mut forged, "version 2", &|c| c["version"] = json!(2));
    fields(&mut forged, "another format", &|c| {
        c["format"] = json!("pegsol proof")
    });
    fields(&mut forged, "another claim", &|c| {
        c["claim"] = json!("the start reaches every finish");
    });
    fields(&mut forged, "no claim", &|c| {
        c.as_object_mut().unwrap().remove("claim");
    });
    fields(&mut forged, "kind Class", &|c| c["kind"] = json!("Class"));
    fields(&mut forged, "kind a list", &|c| {
        c["kind"] = json!(["class"])
    });
    fields(&mut forged, "no kind", &|c| {
        c.as_object_mut().unwrap().remove("kind");
    });
    fields(&mut forged, "an unknown field", &|c| {
        c["note"] = json!("trust me")
    });
    fields(&mut forged, "another kind's field", &|c| {
        c["pagodas"] = json!([])
    });
    fields(&mut forged, "no sets", &|c| {
        c.as_object_mut().unwrap().remove("sets");
    });
    fields(&mut forged, "sets not a list", &|c| {
        c["sets"] = c["sets"][0].clone()
    });
    fields(&mut forged, "holes one short", &|c| {
        c["holes"].as_array_mut().unwrap().pop();
    });
    fields(&mut forged, "holes as numbers", &|c| {
        c["holes"] = json!((0..33).collect::<Vec<u32>>())
    });
    fields(&mut forged, "board a number", &|c| c["board"] = json!(7));
    fields(&mut forged, "finishes a string", &|c| {
        c["finishes"] = c["finishes"][0].clone()
    });
    fields(&mut forged, "finishes empty", &|c| {
        c["finishes"] = json!([])
    });
    fields(&mut forged, "pegs 1.0", &|c| {
        c["finishes"] = json!({"pegs": 1.0})
    });
    fields(&mut forged, "pegs true", &|c| {
        c["finishes"] = json!({"pegs": true})
    });
    fields(&mut forged, "pegs -1", &|c| {
        c["finishes"] = json!({"pegs": -1})
    });
    fields(&mut forged, "pegs past the holes", &|c| {
        c["finishes"] = json!({"pegs": 34})
    });
    fields(&mut forged, "pegs with another key", &|c| {
        c["finishes"] = json!({"pegs": 1, "holes": 2});
    });
    fields(&mut forged, "pegs as a string", &|c| {
        c["finishes"] = json!({"pegs": "1"})
    });
    forged
}

/// Board pictures read as another board, or not boards at all.
pub(super) fn boards(g: &Genuine) -> Forged {
    let (english_a3, english_board, dir) = (&g.english_a3, &g.english_board, &g.dir);
    let mut forged = Forged::new();
    // Board pictures. The first ones read as another board to a careless line reader: the
    // English board with an empty row after each row, where no jump is vertical (its central
    // game is impossible). A true proof for that board, given the English board's rows.
    let rows: Vec<&str> = english_board.lines().collect();
    let spread = dir.join("spread.txt");
    std::fs::write(&spread, rows.join("\n\n") + "\n").unwrap();
    for (what, sep) in [
        ("\\r\\r\\n line ends", "\r\r\n"),
        ("\\r line ends", "\r"),
        ("\\u2028 line ends", "\u{2028}"),
        ("\\x0c line ends", "\u{c}"),
        ("\\x85 line ends", "\u{85}"),
        ("\\x1e line ends", "\u{1e}"),
    ] {
        let mut c = genuine(dir, "spread", &["check", spread.to_str().unwrap()], "class");
        c["board"] = json!(rows.join(sep) + sep);
        add(&mut forged, &format!("board: {what}"), &c);
    }
    let board_change = |picture: &str| {
        let mut c = english_a3.clone();
        c["board"] = json!(picture);
        c
    };
    for (what, picture) in [
        (
            "spaced cells that overlap",
            format!("columns: spaced\n{english_board}"),
        ),
        (
            "a repeated header",
            format!("lattice: orthogonal\nlattice: diagonal\n{english_board}"),
        ),
        ("columns: foo", format!("columns: foo\n{english_board}")),
        (
            "lattice: hexagonal",
            format!("lattice: hexagonal\n{english_board}"),
        ),
        (
            "a no-break space after the lattice",
            format!("lattice: diagonal\u{a0}\n{english_board}"),
        ),
        (
            "a tab among the cells",
            english_board.replacen("ooo", "o\too", 1),
        ),
        (
            "a zero among the cells",
            english_board.replacen("ooo", "o0o", 1),
        ),
        ("no holes", "   \n".to_string()),
        ("257 holes", "o".repeat(257)),
    ] {
        add(
            &mut forged,
            &format!("board: {what}"),
            &board_change(&picture),
        );
    }
    forged
}

/// Bytes that are not a JSON certificate.
pub(super) fn files(g: &Genuine) -> Forged {
    let (english_a3, central_start) = (&g.english_a3, &g.central_start);
    let mut forged = Forged::new();
    // Files that are not JSON certificates at all.
    let good = english_a3.to_string();
    let raw = |forged: &mut Vec<(String, Vec<u8>)>, name: &str, bytes: Vec<u8>| {
        forged.push((format!("file: {name}"), bytes));
    };
    raw(&mut forged, "empty", Vec::new());
    raw(
        &mut forged,
        "a byte order mark",
        [b"\xef\xbb\xbf".as_slice(), good.as_bytes()].concat(),
    );
    raw(&mut forged, "not UTF-8", {
        let mut b = good.clone().into_bytes();
        let at = good.find("no line").unwrap();
        b[at] = 0xff;
        b
    });
    raw(
        &mut forged,
        "trailing text",
        format!("{good} {{}}").into_bytes(),
    );
    raw(&mut forged, "a list", format!("[{good}]").into_bytes());
    raw(
        &mut forged,
        "nested ten thousand deep",
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes(),
    );
    raw(
        &mut forged,
        "a field given twice",
        good.replacen(
            "\"kind\":\"class\"",
            "\"kind\":\"pagoda\",\"kind\":\"class\"",
            1,
        )
        .into_bytes(),
    );
    raw(&mut forged, "the finishes given twice", {
        let f = english_a3["finishes"].to_string();
        good.replacen(
            &format!("\"finishes\":{f}"),
            &format!("\"finishes\":{f},\"finishes\":[\"{central_start}\"]"),
            1,
        )
        .into_bytes()
    });
    forged
}

/// Forgeries on boards past 64 holes.
pub(super) fn wide(g: &Genuine) -> Forged {
    let (wide, wide_pagoda) = (&g.wide, &g.wide_pagoda);
    let mut forged = Forged::new();
    // Boards past 64 holes.
    let mut c = wide.clone();
    c["sets"] = json!([hex(&[70])]);
    c["finishes"] = json!([hex(&[65, 70])]);
    add(
        &mut forged,
        "wide: a finish with a phantom peg past 66 holes",
        &c,
    );
    let mut c = wide.clone();
    c["start"] = c["finishes"][0].clone();
    add(&mut forged, "wide: the start is the finish", &c);
    let mut c = wide_pagoda.clone();
    c["pagodas"][0][0] = json!(-1_000_000);
    c["pagodas"][0][80] = json!(1_000_000);
    add(
        &mut forged,
        "wide: a pagoda function that breaks a jump",
        &c,
    );
    let mut c = wide_pagoda.clone();
    c["finishes"] = json!({"pegs": 2});
    add(
        &mut forged,
        "wide: two pegs anywhere, which the start is",
        &c,
    );
    forged
}
