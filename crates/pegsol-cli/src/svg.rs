//! SVG drawings of boards: `solve --svg` writes a strip of boards, one per move.
//!
//! Holes sit at their lattice coordinates; a triangular board is sheared so that its rows are
//! centred (the same layout the web page uses), so it is drawn as a triangle.

use std::fmt::Write;

use pegsol::{notation, Bits, Board, Hole, Jump, Lattice};

/// Distance between neighbouring holes, in SVG units.
const PITCH: f64 = 28.0;
const MARGIN: f64 = 18.0;

/// Where a hole is drawn, relative to the board's top left: on the board's compact grid, so a
/// drawing's size depends on the holes, not on the bounding box.
#[must_use]
pub fn place(board: &Board, hole: Hole) -> (f64, f64) {
    let (r, c) = board.compact_coords(hole);
    let (r, c) = (r as f64, c as f64);
    match board.lattice() {
        Lattice::Triangular => {
            let rows = board.compact_lines().0.len();
            (
                (c + (rows as f64 - 1.0 - r) / 2.0) * PITCH,
                r * PITCH * 0.866,
            )
        }
        _ => (c * PITCH, r * PITCH),
    }
}

fn size(board: &Board) -> (f64, f64) {
    let (w, h) = board.holes().iter().fold((0.0f64, 0.0f64), |(w, h), hole| {
        let (x, y) = place(board, hole);
        (w.max(x), h.max(y))
    });
    (w + 2.0 * MARGIN, h + 2.0 * MARGIN + 16.0)
}

/// One board as an SVG group at `(dx, 0)`: pegs filled, the holes a move visited ringed, and
/// a caption under it.
fn board_group(board: &Board, pegs: Bits, visited: &[Hole], caption: &str, dx: f64) -> String {
    let (_, h) = size(board);
    let mut out = format!("<g transform=\"translate({dx:.1},0)\">\n");
    for hole in board.holes() {
        let (x, y) = place(board, hole);
        let (x, y) = (x + MARGIN, y + MARGIN);
        let filled = pegs.contains(hole);
        let ring = if visited.contains(&hole) {
            " stroke=\"#d0451b\" stroke-width=\"3\""
        } else {
            " stroke=\"#555\" stroke-width=\"1\""
        };
        let _ = writeln!(
            out,
            "  <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\" fill=\"{}\"{ring}><title>{}</title></circle>",
            if filled { 10 } else { 5 },
            if filled { "#2b5d9b" } else { "#ddd" },
            board.label(hole)
        );
    }
    let (w, _) = size(board);
    let _ = writeln!(
        out,
        "  <text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
        w / 2.0,
        h - 6.0,
        escape(caption)
    );
    out.push_str("</g>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A strip of boards: the start, then the position after each move, captioned with the move.
/// `jumps` must already have been replayed from `start`.
#[must_use]
pub fn strip(board: &Board, start: Bits, jumps: &[Jump], per_row: usize) -> String {
    let moves = notation::moves(jumps);
    let texts = notation::move_texts(board, jumps);
    let mut frames: Vec<(Bits, Vec<Hole>, String)> = vec![(start, Vec::new(), "start".into())];
    let mut pegs = start;
    let mut next = 0;
    for (i, mv) in moves.iter().enumerate() {
        for _ in 1..mv.len() {
            pegs = jumps[next].apply(pegs);
            next += 1;
        }
        frames.push((pegs, mv.clone(), format!("{}. {}", i + 1, texts[i])));
    }
    let (w, h) = size(board);
    let per_row = per_row.max(1);
    let cols = frames.len().min(per_row);
    let rows = frames.len().div_ceil(per_row);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        w * cols as f64,
        h * rows as f64,
        w * cols as f64,
        h * rows as f64
    );
    for (i, (pegs, visited, caption)) in frames.iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let _ = writeln!(out, "<g transform=\"translate(0,{:.1})\">", row as f64 * h);
        out.push_str(&board_group(board, *pegs, visited, caption, col as f64 * w));
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// A catalog as a grid of small boards, one per vacancy class: the vacancy ringed, finish
/// holes green where one peg can end, grey where it cannot, orange where undecided.
#[must_use]
pub fn catalog_grid(board: &Board, catalog: &pegsol::catalog::Catalog) -> String {
    use pegsol::Outcome;
    let (w, h) = size(board);
    let per_row = 4.min(catalog.vacancies.len().max(1));
    let rows = catalog.vacancies.len().div_ceil(per_row);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        w * per_row as f64,
        h * rows as f64,
        w * per_row as f64,
        h * rows as f64
    );
    for (i, v) in catalog.vacancies.iter().enumerate() {
        let (dx, dy) = ((i % per_row) as f64 * w, (i / per_row) as f64 * h);
        let _ = writeln!(out, "<g transform=\"translate({dx:.1},{dy:.1})\">");
        let mut ends = 0;
        for hole in board.holes() {
            let (x, y) = place(board, hole);
            let (x, y) = (x + MARGIN, y + MARGIN);
            // Single finishes: the problem for this hole; any peg: the vacancy's one problem,
            // green on the hole its solution ends on.
            let entry = catalog
                .of(v.hole)
                .find(|e| e.finish.is_none() || e.finish_class.contains(&hole));
            let fill = match entry.map(|e| (e.finish, &e.outcome)) {
                Some((Some(_), Outcome::Solved { .. })) => "#2e9b4f",
                Some((None, Outcome::Solved { finish, .. })) if finish.contains(hole) => "#2e9b4f",
                Some((_, Outcome::Undecided(_))) => "#e8912d",
                _ => "#ccc",
            };
            ends += usize::from(fill == "#2e9b4f");
            let ring = if hole == v.hole {
                " stroke=\"#d0451b\" stroke-width=\"3\""
            } else {
                " stroke=\"#555\" stroke-width=\"1\""
            };
            let _ = writeln!(
                out,
                "  <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"8\" fill=\"{fill}\"{ring}><title>{}</title></circle>",
                board.label(hole)
            );
        }
        let caption = format!(
            "{} empty ({} like it): {ends} end holes",
            board.label(v.hole),
            v.members.len()
        );
        let _ = writeln!(
            out,
            "  <text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n</g>",
            w / 2.0,
            h - 6.0,
            escape(&caption)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strip_has_a_frame_per_move_and_the_right_pegs() {
        let board = Board::builtin("english").unwrap();
        let start = board.start().unwrap();
        let jumps = notation::parse_jumps(&board, "d2-d4 f3-d3 d4-d2").unwrap();
        let svg = strip(&board, start, &jumps, 8);
        // Start plus three moves (the last jump is a new peg each time).
        assert_eq!(svg.matches("<g transform=\"translate(0,").count(), 4);
        assert_eq!(svg.matches("<circle").count(), 4 * 33);
        // Pegs: 32, 31, 30, 29 over the four frames.
        assert_eq!(svg.matches("r=\"10\"").count(), 32 + 31 + 30 + 29);
        assert!(svg.contains("3. d4-d2"));
    }

    #[test]
    fn triangles_are_drawn_as_triangles() {
        let board = Board::builtin("triangle5").unwrap();
        let apex = place(&board, board.hole("a1").unwrap());
        let left = place(&board, board.hole("a5").unwrap());
        let right = place(&board, board.hole("e5").unwrap());
        assert!((apex.0 - (left.0 + right.0) / 2.0).abs() < 1e-9);
        assert!(apex.1 < left.1 && (left.1 - right.1).abs() < 1e-9);
    }
}
