//! SVG drawings of boards: a strip of boards, one per move (`solve --svg`), a catalog as a grid
//! (`catalog --svg`), and one position alone (the Python package's pictures).
//!
//! Holes sit at their lattice coordinates; a triangular board is sheared so that its rows are
//! centred (the same layout the web page uses), so it is drawn as a triangle.

use std::fmt::Write;

use crate::{Bits, Board, Hole, Jump, Lattice, Word};

/// Distance between neighbouring holes, in SVG units.
const PITCH: f64 = 28.0;
const MARGIN: f64 = 18.0;

/// What a drawing needs of a board of either kind: each hole's place on the compact grid and
/// its label, the lattice, and the number of rows.
pub struct Sketch {
    lattice: Lattice,
    rows: usize,
    cells: Vec<(usize, usize)>,
    labels: Vec<String>,
}

impl Sketch {
    /// The sketch of a board.
    #[must_use]
    pub fn of(board: &Board) -> Sketch {
        Sketch {
            lattice: board.lattice(),
            rows: board.compact_lines().0.len(),
            cells: board.each_hole().map(|h| board.compact_coords(h)).collect(),
            labels: board.each_hole().map(|h| board.label(h)).collect(),
        }
    }

    /// Where hole `hole` is drawn, relative to the board's top left: on the compact grid, so
    /// a drawing's size depends on the holes, not on the bounding box.
    #[must_use]
    pub fn place(&self, hole: usize) -> (f64, f64) {
        let (r, c) = self.cells[hole];
        let (r, c) = (r as f64, c as f64);
        match self.lattice {
            Lattice::Triangular => (
                (c + (self.rows as f64 - 1.0 - r) / 2.0) * PITCH,
                r * PITCH * 0.866,
            ),
            _ => (c * PITCH, r * PITCH),
        }
    }

    fn size(&self) -> (f64, f64) {
        let (w, h) = (0..self.cells.len()).fold((0.0f64, 0.0f64), |(w, h), hole| {
            let (x, y) = self.place(hole);
            (w.max(x), h.max(y))
        });
        (w + 2.0 * MARGIN, h + 2.0 * MARGIN + 16.0)
    }
}

/// Where a hole of a board of up to 64 holes is drawn (see [`Sketch::place`]).
#[must_use]
pub fn place(board: &Board, hole: Hole) -> (f64, f64) {
    Sketch::of(board).place(hole.index())
}

/// One board as an SVG group at `(dx, 0)`: pegs filled, the holes a move visited ringed, and
/// a caption under it.
fn board_group(sketch: &Sketch, frame: &Frame, dx: f64) -> String {
    let (w, h) = sketch.size();
    let mut out = format!("<g transform=\"translate({dx:.1},0)\">\n");
    for (hole, label) in sketch.labels.iter().enumerate() {
        let (x, y) = sketch.place(hole);
        let (x, y) = (x + MARGIN, y + MARGIN);
        let filled = frame.pegs[hole];
        let ring = if frame.visited.contains(&hole) {
            " stroke=\"#d0451b\" stroke-width=\"3\""
        } else {
            " stroke=\"#555\" stroke-width=\"1\""
        };
        let _ = writeln!(
            out,
            "  <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\" fill=\"{}\"{ring}><title>{label}</title></circle>",
            if filled { 10 } else { 5 },
            if filled { "#2b5d9b" } else { "#ddd" },
        );
    }
    let _ = writeln!(
        out,
        "  <text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
        w / 2.0,
        h - 6.0,
        escape(&frame.caption)
    );
    out.push_str("</g>\n");
    out
}

/// How one hole of a marked board is drawn: its fill, and a short text in it.
#[derive(Clone, Debug)]
pub struct Mark {
    /// The fill colour.
    pub fill: &'static str,
    /// A text drawn in the hole (a weight), if any.
    pub text: Option<String>,
}

/// Boards side by side, each hole drawn as its mark says, each board captioned: the
/// pictures of proofs (a class certificate's sets, a pagoda function's weights).
#[must_use]
pub fn marked(board: &Board, boards: &[(Vec<Mark>, String)]) -> String {
    let sketch = Sketch::of(board);
    let (w, h) = sketch.size();
    let w = w.max(TILE_MIN_WIDTH);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        w * boards.len() as f64,
        h,
        w * boards.len() as f64,
        h
    );
    for (i, (marks, caption)) in boards.iter().enumerate() {
        let _ = writeln!(out, "<g transform=\"translate({:.1},0)\">", i as f64 * w);
        for (hole, label) in sketch.labels.iter().enumerate() {
            let (x, y) = sketch.place(hole);
            let (x, y) = (x + MARGIN, y + MARGIN);
            let mark = &marks[hole];
            let _ = writeln!(
                out,
                "  <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"11\" fill=\"{}\" stroke=\"#555\" stroke-width=\"1\"><title>{label}</title></circle>",
                mark.fill
            );
            if let Some(text) = &mark.text {
                let size = if text.chars().count() > 2 { 7 } else { 9 };
                let _ = writeln!(
                    out,
                    "  <text x=\"{x:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"{size}\" text-anchor=\"middle\">{}</text>",
                    y + 3.0,
                    escape(text)
                );
            }
        }
        out.push_str(&caption_text(w / 2.0, h - 6.0, caption, w - 8.0));
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// The picture of certificate `c`: a class certificate's sets shaded (one board each, up to
/// four), a pagoda function's weights in the holes (up to four functions of a search
/// certificate), positive weights warm, negative cool.
#[must_use]
pub fn certificate(board: &Board, c: &crate::check::Certificate) -> String {
    use crate::check::Certificate;
    let weights = |p: &crate::Pagoda| -> Vec<Mark> {
        board
            .each_hole()
            .map(|h| {
                let w = p.weight(h);
                Mark {
                    fill: match w.signum() {
                        1 => "#f2c14e",
                        -1 => "#9ecae1",
                        _ => "#ffffff",
                    },
                    text: Some(w.to_string()),
                }
            })
            .collect()
    };
    let boards: Vec<(Vec<Mark>, String)> = match c {
        Certificate::Class {
            sets, start_counts, ..
        } => sets
            .iter()
            .zip(start_counts)
            .take(4)
            .enumerate()
            .map(|(k, (set, n))| {
                let marks = board
                    .each_hole()
                    .map(|h| Mark {
                        fill: if set.contains(h) {
                            "#2b5d9b"
                        } else {
                            "#eeeeee"
                        },
                        text: None,
                    })
                    .collect();
                (marks, format!("set {k}: start has {n} pegs on it"))
            })
            .collect(),
        Certificate::Pagoda {
            pagoda,
            start_total,
            finish_total,
        } => vec![(
            weights(pagoda),
            format!("start {start_total} < finish {finish_total}"),
        )],
        Certificate::Search(s) => s
            .pagodas
            .iter()
            .take(4)
            .enumerate()
            .map(|(k, p)| (weights(p), format!("pagoda function {k}")))
            .collect(),
    };
    marked(board, &boards)
}

/// The narrowest tile of a catalog grid, in px: room for a caption line of about 22
/// characters at 11 px.
const TILE_MIN_WIDTH: f64 = 156.0;

/// The height of a caption line of a catalog tile, in px.
const CAPTION_LINE: f64 = 14.0;

/// A caption line of 11 px text centred on `x`, squeezed to `max_width` when a rough
/// estimate of its width (0.62 em a character) says it would not fit.
fn caption_text(x: f64, y: f64, text: &str, max_width: f64) -> String {
    let estimate = 11.0 * 0.62 * text.chars().count() as f64;
    let squeeze = if estimate > max_width {
        format!(" textLength=\"{max_width:.0}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    };
    format!(
        "  <text x=\"{x:.1}\" y=\"{y:.1}\" font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\"{squeeze}>{}</text>\n",
        escape(text)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One board of a strip: which holes hold pegs, the holes the move visited, and a caption.
pub struct Frame {
    pegs: Vec<bool>,
    visited: Vec<usize>,
    caption: String,
}

/// The frames of a line of play: the start, then the position after each move. A move is
/// the run of jumps whose each starts where the one before landed; `jumps` are `(from, over,
/// to)` hole indices, already replayed from `start`.
fn frames(start: Vec<bool>, labels: &[String], jumps: &[(usize, usize, usize)]) -> Vec<Frame> {
    let mut out = vec![Frame {
        pegs: start.clone(),
        visited: Vec::new(),
        caption: "start".into(),
    }];
    let mut pegs = start;
    let mut k = 0;
    while k < jumps.len() {
        let mut visited = vec![jumps[k].0];
        loop {
            let (from, over, to) = jumps[k];
            pegs[from] = false;
            pegs[over] = false;
            pegs[to] = true;
            visited.push(to);
            k += 1;
            if k == jumps.len() || jumps[k].0 != to {
                break;
            }
        }
        let text: Vec<&str> = visited.iter().map(|&h| labels[h].as_str()).collect();
        out.push(Frame {
            pegs: pegs.clone(),
            visited,
            caption: format!("{}. {}", out.len(), text.join("-")),
        });
    }
    out
}

/// A strip of frames, `per_row` to a row.
fn strip_of(sketch: &Sketch, frames: &[Frame], per_row: usize) -> String {
    let (w, h) = sketch.size();
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
    for (i, frame) in frames.iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let _ = writeln!(out, "<g transform=\"translate(0,{:.1})\">", row as f64 * h);
        out.push_str(&board_group(sketch, frame, col as f64 * w));
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// A strip of boards: the start, then the position after each move, captioned with the move.
/// `jumps` must already have been replayed from `start`.
#[must_use]
pub fn strip<W: Word>(board: &Board, start: Bits<W>, jumps: &[Jump], per_row: usize) -> String {
    let sketch = Sketch::of(board);
    let start: Vec<bool> = board.each_hole().map(|h| start.contains(h)).collect();
    let jumps: Vec<(usize, usize, usize)> = jumps
        .iter()
        .map(|j| (j.from().index(), j.over().index(), j.to().index()))
        .collect();
    strip_of(&sketch, &frames(start, &sketch.labels, &jumps), per_row)
}

/// One position drawn alone, captioned with `caption` (a board's holes, a start, a finish).
#[must_use]
pub fn position<W: Word>(board: &Board, pegs: Bits<W>, caption: &str) -> String {
    let sketch = Sketch::of(board);
    let frame = Frame {
        pegs: board.each_hole().map(|h| pegs.contains(h)).collect(),
        visited: Vec::new(),
        caption: caption.to_string(),
    };
    strip_of(&sketch, &[frame], 1)
}

/// A catalog as a grid of small boards, one per vacancy class: the vacancy ringed, finish
/// holes green where one peg can end, grey where it cannot, orange where undecided.
#[must_use]
pub fn catalog_grid(board: &Board, catalog: &crate::catalog::Catalog) -> String {
    use crate::Outcome;
    let sketch = Sketch::of(board);
    let (board_w, h) = sketch.size();
    // A tile is at least wide enough for its caption, in two short lines, and the board is
    // centred in it (a 148 px tile clipped the one-line caption of about 190 px).
    let w = board_w.max(TILE_MIN_WIDTH);
    let shift = (w - board_w) / 2.0;
    let h = h + CAPTION_LINE;
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
        for hole in board.each_hole() {
            let (x, y) = sketch.place(hole.index());
            let (x, y) = (x + MARGIN + shift, y + MARGIN);
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
        let like = match v.members.len() {
            1 => String::new(),
            n => format!(", {n} like it"),
        };
        let lines = [
            format!("{} empty{like}", board.label(v.hole)),
            match ends {
                1 => "1 end hole".to_string(),
                n => format!("{n} end holes"),
            },
        ];
        for (k, line) in lines.iter().enumerate() {
            out.push_str(&caption_text(
                w / 2.0,
                h - 6.0 - CAPTION_LINE * (1 - k) as f64,
                line,
                w - 8.0,
            ));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation;

    #[test]
    fn a_strip_has_a_frame_per_move_and_the_right_pegs() {
        let board = Board::builtin("english").unwrap();
        let start: Bits = board.start().unwrap();
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
    fn a_position_is_one_board_with_its_pegs_and_caption() {
        let board = Board::builtin("triangle5").unwrap();
        let start: Bits = board.start().unwrap();
        let svg = position(&board, start, "a <start> & more");
        assert_eq!(svg.matches("<circle").count(), 15);
        assert_eq!(svg.matches("r=\"10\"").count(), 14);
        assert!(svg.contains("a &lt;start&gt; &amp; more"));
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn a_certificate_is_drawn_with_its_sets_or_weights() {
        let board = Board::builtin("french").unwrap();
        let conventional = crate::Problem::conventional(&board).unwrap();
        let c = crate::check::prove(&conventional, &crate::Limits::default()).unwrap();
        let svg = certificate(&board, &c);
        assert!(svg.matches("<circle").count() >= 37);
        assert!(svg.contains("set 0: start has"));
        let tri = Board::builtin("triangle5").unwrap();
        let weights = crate::Pagoda::new(&tri, vec![1; 15]).unwrap();
        let c = crate::check::Certificate::Pagoda {
            pagoda: weights,
            start_total: 14,
            finish_total: 15,
        };
        let svg = certificate(&tri, &c);
        assert_eq!(svg.matches("<circle").count(), 15);
        assert_eq!(svg.matches(">1</text>").count(), 15);
        assert!(svg.contains("start 14 &lt; finish 15"));
    }

    /// Every caption line of a catalog's tiles fits its tile: at most 22 characters, or
    /// squeezed to the tile's width.
    #[test]
    fn catalog_captions_fit_their_tiles() {
        for name in ["triangle5", "rect:3x3", "english"] {
            let board = std::sync::Arc::new(Board::builtin(name).unwrap());
            let catalog = crate::catalog::catalog(
                &board,
                crate::catalog::Finishes::Single,
                &crate::Limits::default(),
                &|_, _| {},
            )
            .unwrap();
            let svg = catalog_grid(&board, &catalog);
            let tiles = svg.matches("<g transform").count();
            assert_eq!(tiles, catalog.vacancies.len(), "{name}");
            let texts: Vec<&str> = svg.split("<text ").skip(1).collect();
            assert_eq!(texts.len(), 2 * tiles, "{name}: two caption lines a tile");
            for t in texts {
                let line = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                assert!(
                    line.chars().count() <= 22 || t.contains("textLength"),
                    "{name}: {line}"
                );
            }
            let width: f64 = svg
                .split("width=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap()
                .parse()
                .unwrap();
            assert!(
                width >= TILE_MIN_WIDTH * tiles.min(4) as f64,
                "{name}: {width}"
            );
        }
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
