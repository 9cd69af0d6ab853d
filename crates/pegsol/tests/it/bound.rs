//! The Merson-region bound on the moves still needed against brute force: never above the
//! fewest moves, from every reachable position of random boards of the three lattices.

use pegsol::fewest::MoveBound;
use pegsol::{Bits, Board, Finish};

use crate::common::{is_finish, random_case, Oracle, Rng};

#[test]
fn the_move_bound_never_exceeds_the_fewest_moves() {
    let mut rng = Rng(0x00B0_0D5E_EDB0_0D5E);
    let (mut checked, mut above_one, mut tight) = (0u64, 0u64, 0u64);
    let mut check = |board: &Board, oracle: &Oracle, start: u64, finish: Finish, what: &str| {
        let bound = MoveBound::<u64>::new(board);
        for (p, moves) in oracle.fewest_moves_from_each(start, |q| is_finish(finish, q)) {
            let b = bound.moves_needed(Bits(p), &finish);
            assert!(
                b <= moves,
                "{what}, finish {finish:?}: bound {b} above the fewest moves {moves} at {p:#x}"
            );
            checked += 1;
            above_one += u64::from(b >= 2);
            tight += u64::from(b == moves && b >= 2);
        }
    };
    for case_number in 0..3000 {
        let case = random_case(&mut rng);
        let oracle = Oracle::new(case.lattice, &case.cells, Some(&case.board));
        let what = format!("case {case_number}\n{}", case.picture);
        check(&case.board, &oracle, case.start.raw(), case.finish, &what);
    }
    // Whole games of small boards of each lattice, from single vacancies, to one peg anywhere
    // and to one peg on each corner.
    for name in ["triangle5", "rect:4x4", "rect:3x4-diagonal", "rect:3x5"] {
        let board = Board::builtin(name).unwrap();
        let oracle = Oracle::of_board(&board);
        let all = board.holes::<u64>();
        for vacancy in board.each_hole() {
            let start = all.without(vacancy).raw();
            check(&board, &oracle, start, Finish::AnyOne, name);
            let single = Finish::Holes(Bits::<u64>::single(vacancy).resize());
            check(&board, &oracle, start, single, name);
        }
    }
    println!("{checked} positions, {above_one} bounds of 2 or more, {tight} of them exact");
    // The bound is tested where it says something: many positions need two moves or more by it.
    assert!(
        checked > 20_000 && above_one > 2_000,
        "{checked} positions, {above_one} bounds of 2 or more"
    );
}
