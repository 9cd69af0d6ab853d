//! `pegsol hint`: every legal jump of a position with its fate, for a player at a board (the
//! playground's live analysis, in the terminal). With `--after`, the position is the one a
//! played line reaches.

use std::time::Duration;

use anyhow::Result;

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
    json: bool,
) -> Result<u8> {
    let problem = load_any_problem(setup, finish)?;
    let budget = timeout_of(timeout)?.unwrap_or(DEFAULT_BUDGET);
    let limits = pegsol::Limits {
        timeout: Some(budget),
        ..pegsol::Limits::default()
    };
    let (answer, _) = AnalyseAnswer::of(&problem, None, None, &limits, budget)?;
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
        }
    }
    Ok(code)
}
