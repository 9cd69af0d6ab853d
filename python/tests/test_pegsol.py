"""Tests of the Python package: each answer against the CLI's JSON for the same question, the
published English figures, bad input, budgets and cancellation, and the pictures.

The CLI is the binary in $PEGSOL_BIN, else target/quick/pegsol or target/release/pegsol of
this checkout (CI builds the first with the README's test command).
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import pegsol

ROOT = Path(__file__).resolve().parents[2]

# Fields that measure the run, not the answer.
EFFORT = {"millis", "peak_memory_mb", "threads", "stats", "peak_table_mb"}


def cli_binary() -> str:
    given = os.environ.get("PEGSOL_BIN")
    if given:
        return given
    for profile in ("quick", "release"):
        path = ROOT / "target" / profile / "pegsol"
        if path.exists():
            return str(path)
    pytest.fail("no pegsol binary: build it (cargo build --release) or set PEGSOL_BIN")


def cli(*args: str) -> dict:
    out = subprocess.run([cli_binary(), *args, "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1, 3), out.stderr
    return json.loads(out.stdout)


def answer_only(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in EFFORT}


def test_solve_has_the_cli_fields_and_a_replayed_line():
    mine = pegsol.solve("english")
    theirs = cli("solve", "english")
    assert set(mine.to_dict()) == set(theirs)
    for key in ("board", "holes", "lattice", "empty", "finish", "status", "class", "classes", "final"):
        assert mine.to_dict()[key] == theirs[key], key
    assert mine.solved and len(mine.jumps) == 31 and mine.final_ == ["d4"]
    # The line is legal: the library replays it to the one peg on d4.
    assert pegsol.replay("english", " ".join(mine.jumps)).final_ == ["d4"]


def test_the_french_board_is_impossible_by_its_class():
    mine = pegsol.solve("french")
    assert answer_only(mine.to_dict()) == answer_only(cli("solve", "french"))
    assert (mine.status, mine.reason, mine.jumps) == ("impossible", "position class", [])
    assert not mine.solved


def test_fewest_moves_and_shortest_agree_with_the_cli():
    mine = pegsol.fewest_moves("triangle5", empty="a1")
    theirs = cli("solve", "triangle5", "--empty", "a1", "--fewest-moves")
    assert set(mine.to_dict()) == set(theirs)
    assert (mine.optimal, mine.moves, mine.lower_bound) == (True, 10, 10)
    assert (theirs["optimal"], theirs["moves"]) == (True, 10)
    s = pegsol.shortest("triangle5")
    t = cli("shortest", "triangle5")
    assert set(s.to_dict()) == set(t)
    for key in ("optimal", "lower_bound", "upper_bound", "forward_levels", "backward_levels", "starts", "finish"):
        assert s.to_dict()[key] == t[key], key


def test_ends_and_replay_agree_with_the_cli():
    mine = pegsol.ends("english", empty="d1")
    theirs = cli("ends", "english", "--empty", "d1")
    assert mine.holes == [e["hole"] for e in theirs["ends"]] == ["d1", "a4", "d4", "g4", "d7"]
    assert mine.impossible == theirs["impossible"]
    line = "d2-d4 f3-d3 e1-e3"
    assert pegsol.replay("english", line).to_dict() == cli("replay", "english", line)


def test_counts_are_the_published_english_figures_and_the_cli_s():
    mine = pegsol.count("english")
    theirs = cli("count", "english")
    assert answer_only(mine.to_dict()) == answer_only(theirs)
    assert mine.positions == 187636299
    assert mine.positions_up_to_symmetry == 23475688
    assert mine.winning_positions_up_to_symmetry == 1679072
    assert mine.solutions == 40861647040079968
    # Past 2**64, exact.
    assert mine.games == 577116156815309849672 and mine.games > 2**64
    s = pegsol.count("english", finish="d4", solutions=True)
    assert s.solutions == 40861647040079968
    assert s.winning_positions == mine.winning_positions


def test_a_count_a_budget_stops_is_undecided_with_its_finished_levels():
    c = pegsol.count("english", max_memory=1)
    assert c.status == "undecided" and c.reason == "memory budget"
    assert "max_memory" in c.message
    with pytest.raises(ValueError, match="finish of one position"):
        pegsol.count("english", finish="any", solutions=True)


def test_bad_input_is_a_value_error_with_the_library_s_message():
    with pytest.raises(ValueError, match="unknown board"):
        pegsol.Board("engish")
    with pytest.raises(ValueError, match="z9"):
        pegsol.solve("english", empty="z9")
    with pytest.raises(ValueError, match=r"jump 2 \(d2-d4\) is illegal"):
        pegsol.replay("english", "d2-d4 d2-d4")
    with pytest.raises(ValueError, match="any:N"):
        pegsol.solve("english", finish="any:x")
    with pytest.raises(ValueError, match="timeout"):
        pegsol.solve("english", timeout=-1)
    with pytest.raises(ValueError, match="not both"):
        pegsol.Position("english", empty="d4", pegs="d3")
    with pytest.raises(ValueError, match="line 1, column 2: unexpected character 'x'"):
        pegsol.Board("oxo\nooo", lattice="orthogonal")
    with pytest.raises(ValueError, match="unknown lattice"):
        pegsol.Board("ooo\n", lattice="hexagonal")
    with pytest.raises(TypeError):
        pegsol.solve(33)
    with pytest.raises(AttributeError, match="its fields"):
        pegsol.solve("triangle5", empty="a1").no_such_field


def test_boards_and_positions():
    english = pegsol.Board("english")
    assert (english.hole_count, english.lattice, english.symmetries, english.classes) == (33, "orthogonal", 8, 16)
    assert english.empty == ["d4"] and len(english.holes) == 33
    tri = pegsol.Board("  .\n o o\no o o", lattice="triangular", name="tiny")
    assert (tri.name, tri.hole_count, tri.lattice) == ("tiny", 6, "triangular")
    assert "english" in pegsol.boards() and "triangle:N" in pegsol.boards()
    p = pegsol.Position.from_line("english", "d2-d4 f3-d3")
    assert len(p) == 30 and sorted(p.empty) == ["d2", "e3", "f3"]
    assert p.position_class == english.class_of(p.pegs)
    # Playing on from a position reached by play, as the CLI's --after does.
    on = pegsol.solve("english", after="d2-d4 f3-d3")
    assert on.solved and sorted(on.empty) == sorted(p.empty) and len(on.jumps) == 29
    assert on.to_dict().keys() == cli("solve", "english", "--after", "d2-d4 f3-d3").keys()


def test_pictures_are_valid_svg_and_html():
    svgs = [
        pegsol.Board("english")._repr_svg_(),
        pegsol.Board("triangle:7")._repr_svg_(),
        pegsol.solve("triangle5", empty="a1")._repr_svg_(),
        pegsol.solve("french")._repr_svg_(),
        pegsol.Position.from_line("english", "d2-d4")._repr_svg_(),
        pegsol.ends("triangle5", empty="a1")._repr_svg_(),
        pegsol.replay("english", "d2-d4 f3-d3")._repr_svg_(),
    ]
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.findall(".//{http://www.w3.org/2000/svg}circle")
    # A solution is a strip: one board per move and the start.
    s = pegsol.solve("triangle5", empty="a1")
    strip = ET.fromstring(s._repr_svg_())
    assert len(strip.findall("./{http://www.w3.org/2000/svg}g")) == s.moves + 1
    table = pegsol.count("triangle5", empty="a1")._repr_html_()
    ET.fromstring(f"<div>{table}</div>")
    assert "<table>" in table and "paths" in table


def test_a_timeout_bounds_the_whole_question():
    began = time.monotonic()
    s = pegsol.shortest("triangle:9", timeout=2)
    took = time.monotonic() - began
    assert s.status == "undecided" and not s.optimal
    assert 9 <= s.lower_bound <= 16 and (s.upper_bound is None or s.upper_bound >= 16)
    assert took < 4, took


@pytest.mark.parametrize("question", ["pegsol.shortest('triangle:9')", "pegsol.count('french', empty='c1', finish='any')"])
def test_ctrl_c_stops_a_long_search_within_a_second(question):
    script = textwrap.dedent(
        f"""
        import time, pegsol
        print("ready", flush=True)
        began = time.monotonic()
        try:
            {question}
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    waited = time.monotonic() - sent
    assert out.strip() == "interrupted", out
    assert waited < 1.0, waited


def test_check_gives_a_certificate_the_independent_checker_accepts(tmp_path):
    mine = pegsol.check("french")
    cli_file = tmp_path / "cli.json"
    theirs = cli("check", "french", "--certificate", str(cli_file))
    assert (mine.status, mine.reason) == ("refuted", "position class")
    cert = mine.certificate
    assert cert is not None and cert.kind == "class"
    # The same proof as the CLI's, and the same file, byte for byte.
    mine_view = dict(cert.to_dict())
    theirs_view = dict(theirs["certificate"])
    theirs_view.pop("file")
    assert mine_view == theirs_view
    path = tmp_path / "mine.json"
    cert.save(str(path))
    assert path.read_text() == cli_file.read_text()
    ok, what = cert.verify()
    assert ok, what
    ET.fromstring(mine._repr_svg_())
    # A solvable problem has its line and no certificate.
    s = pegsol.check("triangle5", empty="a1")
    assert s.status == "solvable" and s.certificate is None and s.jumps


@pytest.mark.parametrize(
    "args,kind,solvable",
    [
        ({"board": "english", "empty": "c1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3,a4,b4,c4,d4,e4,f4,g4", "finish": "d2"}, "pagoda", "d2"),
        ({"board": "triangle5", "empty": "b3", "finish": "b3"}, "search", "a1"),
    ],
)
def test_every_kind_of_certificate_verifies_and_a_forged_one_does_not(args, kind, solvable):
    c = pegsol.check(**args)
    assert c.status == "refuted" and c.certificate.kind == kind
    ok, what = c.certificate.verify()
    assert ok, what
    ET.fromstring(c.certificate._repr_svg_())
    # Forged: the same proof claimed of a game that can be won (the single vacancy
    # `solvable` to one peg there), a false claim the checker must reject.
    assert pegsol.solve(args["board"], empty=solvable, finish=solvable).solved
    data = json.loads(c.certificate.file_text())
    bit = 1 << data["holes"].index(solvable)
    data["start"] = format((1 << len(data["holes"])) - 1 - bit, "x")
    data["finishes"] = [format(bit, "x")]
    forged = pegsol.Certificate(c.certificate.to_dict(), json.dumps(data), "")
    ok, what = forged.verify()
    assert not ok, what


def test_catalog_army_and_line_agree_with_the_cli():
    mine = pegsol.catalog("triangle5")
    theirs = cli("catalog", "triangle5")
    strip = lambda d: {**d, "problems": [{k: v for k, v in p.items() if k not in ("millis", "jumps", "final", "moves")} for p in d["problems"]]}
    assert strip(mine.to_dict()) == strip(theirs)
    assert mine.summary == {"pairs": 225, "solvable": mine.summary["solvable"], "impossible": mine.summary["impossible"], "undecided": 0}
    assert ET.fromstring(mine._repr_svg_()).findall(".//{http://www.w3.org/2000/svg}circle")
    a = pegsol.army(3)
    assert (a.status, a.men, a.minimal) == ("found", 8, True)
    t = cli("army", "--row", "3")
    assert {k: v for k, v in a.to_dict().items() if k not in ("millis", "nodes")} == {k: v for k, v in t.items() if k not in ("millis", "nodes")}
    assert pegsol.army(5).status == "impossible"
    with pytest.raises(ValueError, match="lattice"):
        pegsol.army(2, lattice="hex")
    l = pegsol.line("1101101")
    assert l.to_dict() == cli("line", "1101101")
    with pytest.raises(ValueError, match="bad configuration"):
        pegsol.line("12")


def test_a_board_file_and_a_position_by_its_pegs(tmp_path):
    path = tmp_path / "plus.txt"
    path.write_text(" o \nooo\n .\n")
    board = pegsol.Board.from_file(str(path))
    assert board.name == "plus" and board.hole_count == 5
    p = pegsol.Position(board, pegs=["b1", "a2"])
    assert len(p) == 2 and len(p.empty) == 3
    with pytest.raises(ValueError, match="cannot read board file"):
        pegsol.Board.from_file(str(tmp_path / "missing.txt"))


def test_random_play_odds_are_the_exact_fractions_of_brute_force():
    """The chance that random jumps win, against exact rationals by brute force over every
    position (no symmetry, no winning set), on the 15-hole triangle."""
    from fractions import Fraction
    from functools import lru_cache

    board = pegsol.Board("triangle5")
    holes = board.holes
    index = {h: i for i, h in enumerate(holes)}
    # Every jump as (from, over, to) bits: a-c over b is legal with pegs on a and b alone
    # exactly when b is the hole between a and c.
    jumps = []
    for a in holes:
        for c in holes:
            for b in holes:
                if len({a, b, c}) < 3:
                    continue
                try:
                    pegsol.replay(board, f"{a}-{c}", empty=[h for h in holes if h not in (a, b)])
                except ValueError:
                    continue
                jumps.append((1 << index[a], 1 << index[b], 1 << index[c]))
    assert len(jumps) == 36
    full = (1 << len(holes)) - 1
    for vacancy, finish in [("a1", "any"), ("a1", "a1"), ("c3", "any"), ("b2", "b2")]:
        target = None if finish == "any" else 1 << index[finish]

        @lru_cache(maxsize=None)
        def p(pos):
            if bin(pos).count("1") == 1:
                return Fraction(int(target is None or pos == target))
            legal = [(f, o, t) for f, o, t in jumps if pos & f and pos & o and not pos & t]
            if not legal:
                return Fraction(0)
            return sum(p(pos & ~f & ~o | t) for f, o, t in legal) / len(legal)

        want = p(full & ~(1 << index[vacancy]))
        got = pegsol.random_win(board, empty=vacancy, finish=finish)
        assert abs(Fraction(got) - want) <= want * Fraction(1, 10**12), (vacancy, finish, got, float(want))
    hint = subprocess.run([cli_binary(), "hint", "triangle5", "--empty", "a1", "--finish", "any", "--odds", "--json"], capture_output=True, text=True)
    assert json.loads(hint.stdout)["random_win"] == pegsol.random_win(board, empty="a1", finish="any")

    # What every winning line passes through, from the start and from each position of a
    # winning line, against a breadth-first walk over the positions the brute force wins from.
    @lru_cache(maxsize=None)
    def wins(pos, target):
        if bin(pos).count("1") == 1:
            return target is None or pos == target
        return any(wins(pos & ~f & ~o | t, target) for f, o, t in jumps if pos & f and pos & o and not pos & t)

    for vacancy, finish in [("a1", "any"), ("a1", "a1"), ("c3", "any")]:
        target = None if finish == "any" else 1 << index[finish]
        line = pegsol.solve(board, empty=vacancy, finish=finish).jumps
        for n in range(len(line) + 1):
            got = pegsol.forced(board, empty=vacancy, finish=finish, after=" ".join(line[:n]))
            pos = full & ~(1 << index[vacancy])
            for jump in line[:n]:
                a, c = (index[h] for h in jump.split("-"))
                f, o, t = next(j for j in jumps if j[0] == 1 << a and j[2] == 1 << c)
                pos = pos & ~f & ~o | t
            counts, forced_at, level = [], [], {pos}
            while level:
                counts.append(len(level))
                if len(level) == 1 and len(counts) > 1:
                    forced_at.append((len(counts) - 1, sorted(holes[i] for i in range(len(holes)) if next(iter(level)) >> i & 1)))
                if bin(next(iter(level))).count("1") == 1:
                    break
                level = {q & ~f & ~o | t for q in level for f, o, t in jumps if q & f and q & o and not q & t}
                level = {q for q in level if wins(q, target)}
            assert got.counts == counts, (vacancy, finish, n)
            assert [(p["after"], sorted(p["pegs"])) for p in got.positions] == forced_at, (vacancy, finish, n)
            assert got.opening == line[n:n + len(got.opening)]
    hinted = subprocess.run([cli_binary(), "hint", "triangle5", "--after", "c3-a1", "--forced", "--json"], capture_output=True, text=True)
    assert json.loads(hinted.stdout)["forced"] == pegsol.forced(board, after="c3-a1").to_dict()
