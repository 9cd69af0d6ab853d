//! `pegsol hint`: every legal jump of a position with its fate, for a player at a board (the
//! playground's live analysis, in the terminal). With `--after`, the position is the one a
//! played line reaches.

use std::time::Duration;

use anyhow::Result;
use pegsol::fewest::WinningSet;

use crate::analyse::AnalyseAnswer;
use crate::cli::{timeout_of, Setup};
use crate::common::{load_any_problem, print_json, problem_line, IMPOSSIBLE, UNDECIDED};

/// The default time for all the jumps together.
const DEFAULT_BUDGET: Duration = Duration::from_secs(10);

/// Exit 0 when some jump keeps the finish reachable (or the position is the finish), 1 when
/// every jump loses it (or none is left), 3 when the fates are not all known and none wins.
pub(crate) fn run(
    setup: &Setup,
    finish: Option<&str>,
    timeout: Option<f64>,
    odds: bool,
    forced: bool,
    json: bool,
) -> Result<u8> {
    let problem = load_any_problem(setup, finish)?;
    let budget = timeout_of(timeout)?.unwrap_or(DEFAULT_BUDGET);
    // With --odds or --forced, the winning set of the game from here, when it fits half the
    // budget: every fate exact at once, the odds of random play and the forced positions.
    // Else (and by default, as it costs seconds and gigabytes on the larger boards) each
    // jump is solved on its own.
    let began = std::time::Instant::now();
    let set = if odds || forced {
        WinningSet::of(
            &problem,
            &pegsol::Limits {
                timeout: Some(budget / 2),
                ..pegsol::Limits::default()
            },
        )?
    } else {
        None
    };
    let rest = budget.saturating_sub(began.elapsed());
    let limits = pegsol::Limits {
        timeout: Some(rest),
        ..pegsol::Limits::default()
    };
    let (mut answer, _) = AnalyseAnswer::of(&problem, set.as_ref(), None, &limits, rest)?;
    if odds {
        answer = answer.with_odds(&problem, set.as_ref());
    }
    if forced {
        let rest = budget.saturating_sub(began.elapsed());
        let limits = pegsol::Limits {
            timeout: Some(rest),
            ..pegsol::Limits::default()
        };
        answer = answer.with_forced(&problem, set.as_ref(), None, &limits);
    }
    let code = match answer.status {
        "won" | "winnable" => 0,
        "lost" | "stuck" => IMPOSSIBLE,
        _ => UNDECIDED,
    };
    if json {
        print_json(&answer);
        return Ok(code);
    }
    println!("{}", problem_line(&problem));
    println!("{}", problem.board().draw(problem.start::<[u64; 4]>()));
    let of = |fate: &str| -> Vec<&str> {
        answer
            .moves
            .iter()
            .filter(|m| m.fate == fate)
            .map(|m| m.jump.as_str())
            .collect()
    };
    let (wins, loses, unknown) = (of("wins"), of("loses"), of("unknown"));
    match answer.status {
        "won" => println!("this is the finish: the game is won"),
        "stuck" => println!("no jump is left, and this is not the finish: the game is lost"),
        _ => {
            let list = |v: &[&str]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(" ")
                }
            };
            println!("jumps that keep the finish reachable: {}", list(&wins));
            println!("jumps that lose it: {}", list(&loses));
            if !unknown.is_empty() {
                println!(
                    "not known within {:.1} s: {}",
                    budget.as_secs_f64(),
                    list(&unknown)
                );
            }
            if answer.status == "lost" {
                println!("every jump loses: the finish can no longer be reached from here");
            }
            if let Some(p) = answer.random_win {
                println!("{}", odds_text(p));
            }
            if forced {
                match &answer.forced {
                    Some(f) => print!("{}", forced_text(f)),
                    None => println!(
                        "the forced positions were not found within {:.1} s",
                        budget.as_secs_f64()
                    ),
                }
            }
        }
    }
    Ok(code)
}

/// The positions and jumps every winning line passes through, a line each.
pub(crate) fn forced_text(f: &pegsol::answer::ForcedView) -> String {
    let mut out = String::new();
    if f.counts.is_empty() {
        return "no winning line goes on from here\n".to_string();
    }
    if !f.opening.is_empty() {
        out += &format!("every winning line goes on with: {}\n", f.opening.join(" "));
    }
    let later: Vec<_> = f
        .positions
        .iter()
        .filter(|p| p.after as usize > f.opening.len())
        .collect();
    if later.is_empty() && f.opening.is_empty() {
        out += "no position ahead is forced: winning lines part at once and never all meet again\n";
    }
    for p in later {
        let how = p
            .jump
            .as_ref()
            .map_or(String::new(), |j| format!(", by {j}"));
        out += &format!(
            "every winning line passes through the position {} jump{} on{how}: pegs on {}\n",
            p.after,
            if p.after == 1 { "" } else { "s" },
            p.pegs.join(" ")
        );
    }
    let counts: Vec<String> = f.counts.iter().map(u64::to_string).collect();
    out += &format!(
        "winning positions ahead, by jumps from here: {}\n",
        counts.join(", ")
    );
    out
}

/// The chance that random play wins, in words: a percentage, or one time in so many.
pub(crate) fn odds_text(p: f64) -> String {
    if p <= 0.0 {
        "a player who jumps at random cannot win from here".to_string()
    } else if p >= 0.01 {
        format!(
            "a player who jumps at random wins from here {:.1}% of the time",
            p * 100.0
        )
    } else {
        format!(
            "a player who jumps at random wins from here 1 time in {} (probability {p:.3e})",
            one_in(p)
        )
    }
}

/// `1 / p` rounded, in words a reader can take in: digits grouped in threes up to a
/// million millions, else as a power of ten.
fn one_in(p: f64) -> String {
    let n = (1.0 / p).round();
    if n < 1e12 {
        let digits = format!("{n:.0}");
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else {
        let e = n.log10().floor();
        format!("{:.1} x 10^{e:.0}", n / 10f64.powf(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_read_as_a_player_would_say_them() {
        assert_eq!(
            odds_text(0.5),
            "a player who jumps at random wins from here 50.0% of the time"
        );
        assert!(odds_text(1.0 / 1234.0).contains("1 time in 1,234 "));
        assert!(odds_text(2e-15).contains("1 time in 5.0 x 10^14 "));
        assert!(odds_text(0.0).contains("cannot win"));
    }
}
