//! The odds that uniformly random legal jumps win a game, by brute force: a memoised
//! recursion over every position reachable from the start, as plain bitmasks, with no
//! symmetry, no winning set and nothing else of the library but the board's jump list. It
//! checks `pegsol hint BOARD --odds` independently where the library's own tests (small
//! boards) cannot reach.
//!
//! ```text
//! cargo run --release -p pegsol --example random_play_brute -- english d4 d4
//! ```
//!
//! On the English central game it visits 187,636,298 positions (every reachable one but the
//! finish) in about 8 minutes and 4.5 GB, and prints 1.3488819575892011e-8, one game in
//! 74,135,472, as `pegsol hint english --odds` does. Boards of up to 64 holes; the memory
//! grows with the reachable positions (about 24 bytes each), so the English board is about
//! the largest game a machine of 24 GB checks this way (the French board's games are far
//! past it).

use std::collections::HashMap;

use pegsol::Board;

/// The game: each jump as its three holes' bits, and the finish.
struct Game {
    jumps: Vec<(u64, u64, u64)>,
    finish: u64,
    memo: HashMap<u64, f64>,
}

impl Game {
    /// The probability that random legal jumps from `pegs` reach the finish: the mean over
    /// the legal jumps of their children's, 1 at the finish, 0 where no jump is left.
    fn odds(&mut self, pegs: u64) -> f64 {
        if pegs == self.finish {
            return 1.0;
        }
        if let Some(&p) = self.memo.get(&pegs) {
            return p;
        }
        let (mut legal, mut sum) = (0u32, 0.0);
        for i in 0..self.jumps.len() {
            let (from, over, to) = self.jumps[i];
            if pegs & from != 0 && pegs & over != 0 && pegs & to == 0 {
                legal += 1;
                sum += self.odds(pegs ^ from ^ over ^ to);
            }
        }
        let p = if legal == 0 {
            0.0
        } else {
            sum / f64::from(legal)
        };
        self.memo.insert(pegs, p);
        p
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, vacancy, end] = &args[..] else {
        return Err(
            "usage: random_play_brute BOARD VACANCY FINISH (for example: english d4 d4)".into(),
        );
    };
    let board = Board::builtin(name)?;
    if board.hole_count() > 64 {
        return Err(format!(
            "{name} has {} holes; this check takes up to 64",
            board.hole_count()
        )
        .into());
    }
    let bit = |label: &str| -> Result<u64, Box<dyn std::error::Error>> {
        Ok(1u64 << board.hole(label)?.index())
    };
    let all = u64::MAX >> (64 - board.hole_count());
    let (start, finish) = (all & !bit(vacancy)?, bit(end)?);
    let jumps = board
        .jumps()
        .iter()
        .map(|j| {
            (
                1u64 << j.from().index(),
                1u64 << j.over().index(),
                1u64 << j.to().index(),
            )
        })
        .collect();
    let mut game = Game {
        jumps,
        finish,
        memo: HashMap::new(),
    };
    let p = game.odds(start);
    let one_in = if p > 0.0 {
        format!("one game in {:.0}", 1.0 / p)
    } else {
        "never".to_string()
    };
    println!(
        "{name} from {vacancy} to {end}: random play wins with probability {p:e} ({one_in}); {} positions visited",
        game.memo.len()
    );
    Ok(())
}
