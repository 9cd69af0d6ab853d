"""pegsol: peg solitaire in Python, over the pegsol Rust library.

Solve any board, prove when a puzzle is impossible, find the fewest moves, count whole game
trees. Every answer is a typed object whose attributes are the fields of the ``pegsol`` CLI's
``--json`` answer (``final`` is spelled ``final_`` as an attribute), with ``to_dict()``; boards,
positions and solutions draw themselves inline in Jupyter (``_repr_svg_``), counts as tables
(``_repr_html_``).

>>> import pegsol
>>> s = pegsol.solve("english")
>>> s.status, len(s.jumps)
('solved', 31)

Every search releases the GIL and stops within a second of Ctrl-C (KeyboardInterrupt); a
``timeout`` (seconds) and ``max_memory`` (MB, 4096 by default) bound the whole question, and a
question they stop answers ``status == "undecided"`` with what was proved.
"""

from __future__ import annotations

import copy
import html
import json
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _pegsol
from ._pegsol import Board

__all__ = [
    "Answer",
    "Army",
    "Board",
    "Catalog",
    "Certificate",
    "Check",
    "Count",
    "Ends",
    "FewestMoves",
    "Forced",
    "Position",
    "Replay",
    "Shortest",
    "Solution",
    "army",
    "boards",
    "catalog",
    "check",
    "count",
    "ends",
    "fewest_moves",
    "forced",
    "line",
    "random_win",
    "replay",
    "shortest",
    "solve",
]

__version__ = "0.1.0"

#: Hole labels: a list of labels, or one string of them separated by commas or spaces.
Labels = Union[str, Iterable[str]]
BoardLike = Union[str, Board]


def _board(board: BoardLike) -> Board:
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        return Board(board)
    raise TypeError(f"a board is a Board or a built-in name such as 'english', not {type(board).__name__}")


def _labels(labels: Optional[Labels]) -> Optional[Union[str, List[str]]]:
    if labels is None or isinstance(labels, str):
        return labels
    return [str(label) for label in labels]


def _question(
    board: Board,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Dict[str, Any]:
    """A question's board, start, finish and budget, as the Rust half takes them."""
    return {
        "board": board,
        "empty": _labels(empty),
        "finish": _labels(finish),
        "after": after,
        "timeout": timeout,
        "max_memory": max_memory,
    }


class Answer:
    """A typed answer: its attributes are the fields of the CLI's ``--json`` answer.

    ``to_dict()`` gives those fields as a plain dict (a copy), with the CLI's names.
    """

    def __init__(self, data: Dict[str, Any], board: Board) -> None:
        self._data = data
        self._board = board

    @classmethod
    def _of(cls, text: str, board: Board) -> "Answer":
        return cls(json.loads(text), board)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        key = "final" if name == "final_" else name
        data = self.__dict__.get("_data", {})
        if key in data:
            return data[key]
        raise AttributeError(
            f"{type(self).__name__} has no field {name!r}; its fields: {', '.join(data)}"
        )

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | {("final_" if k == "final" else k) for k in self._data})

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._data == self._data  # type: ignore[attr-defined]

    # Answers hold lists and dicts: unhashable, as those are.
    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        """The answer's fields, named as in the CLI's ``--json`` answer."""
        return copy.deepcopy(self._data)

    @property
    def board(self) -> Board:
        """The board the question was about."""
        return self._board

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{k}={self._data[k]!r}" for k in ("status", "reason", "moves", "lower_bound", "solutions") if k in self._data
        )
        return f"{type(self).__name__}({shown})"


class _Line(Answer):
    """An answer holding a line of play (``jumps``, ``moves``, ``move_list``), drawn as a strip
    of boards, one per move, from its start (``empty``)."""

    def _repr_svg_(self) -> str:
        jumps = self._data.get("jumps") or []
        empty = self._data.get("empty")
        if not jumps:
            pegs = None
            if empty is not None:
                pegs = [h for h in self._board.holes if h not in set(empty)]
            return self._board.svg(pegs, f"{self._data.get('status', '')}: {self._data.get('reason') or 'no line'}")
        return self._board.svg_line(" ".join(jumps), empty)


class Solution(_Line):
    """The answer of :func:`solve`: ``status`` (``solved``, ``impossible``, ``undecided``),
    ``reason``, ``jumps``, ``moves``, ``move_list``, ``final_``, ``class``, ``classes``,
    ``stats`` and the problem (``board``, ``holes``, ``lattice``, ``empty``, ``finish``)."""

    @property
    def solved(self) -> bool:
        """Whether a line to the finish was found (and replayed)."""
        return self._data["status"] == "solved"


class FewestMoves(_Line):
    """The answer of :func:`fewest_moves`: ``status``, ``optimal``, ``lower_bound``,
    ``upper_bound``, the line (``jumps``, ``moves``, ``move_list``), ``depths``, ``millis``."""


class Shortest(_Line):
    """The answer of :func:`shortest`: ``optimal``, ``lower_bound``, ``upper_bound``, the line
    and its start (``empty``), ``forward_levels``, ``backward_levels``, ``symmetries``."""


class Replay(_Line):
    """The answer of :func:`replay`: the line checked jump by jump, ``pegs`` left, ``final_``."""

    def _repr_svg_(self) -> str:
        return self._board.svg_line(" ".join(self._data["jumps"]), self._data_start)

    _data_start: Optional[Union[str, List[str]]] = None


class Ends(Answer):
    """The answer of :func:`ends`: ``ends`` (each ``hole`` with a line), ``impossible`` (each
    ``hole`` with its ``reason``), ``undecided``, ``class``."""

    @property
    def holes(self) -> List[str]:
        """The holes where one last peg can end."""
        return [e["hole"] for e in self._data["ends"]]

    def _repr_svg_(self) -> str:
        empty = set(self._data["empty"])
        pegs = [h for h in self._board.holes if h not in empty]
        return self._board.svg(pegs, "ends: " + (" ".join(self.holes) or "none"))


class Count(Answer):
    """The answer of :func:`count`: ``status`` (``counted`` or ``undecided``), ``levels`` (or
    ``levels_finished``), ``positions``, ``winning_positions``, ``solutions``, ``games`` and
    their figures up to symmetry; counts past 2**64 are exact Python ints."""

    def _repr_html_(self) -> str:
        levels = self._data.get("levels") or self._data.get("levels_finished") or []
        if not levels:
            rows = "".join(
                f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                for k, v in self._data.items()
                if not isinstance(v, (list, dict))
            )
            return f"<table>{rows}</table>"
        columns = list(levels[0].keys())
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:right'>{l.get(c, '')}</td>" for c in columns) + "</tr>"
            for l in levels
        )
        totals = ", ".join(
            f"{k.replace('_', ' ')}: {self._data[k]}"
            for k in ("positions", "winning_positions", "solutions", "games")
            if k in self._data
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table><p>{html.escape(totals)}</p>"


class Certificate:
    """A proof of impossibility: ``kind`` (``class``, ``pagoda`` or ``search``) and its parts as
    a person reads them (``to_dict()``, the ``certificate`` of the CLI's ``check --json``);
    ``save(path)`` writes the certificate file that ``pegsol verify`` and
    ``docs/verify_certificate.py`` check, and ``verify()`` checks it here with that
    independent checker, which shares no code with the solver. In Jupyter it draws itself:
    the invariant sets shaded, or the pagoda weights in the holes."""

    def __init__(self, view: Dict[str, Any], file_text: str, svg: str) -> None:
        self._view = view
        self._file_text = file_text
        self._svg = svg

    @property
    def kind(self) -> str:
        """``class``, ``pagoda`` or ``search``."""
        return self._view["kind"]

    def to_dict(self) -> Dict[str, Any]:
        """The certificate as the CLI's ``check --json`` shows it."""
        return copy.deepcopy(self._view)

    def file_text(self) -> str:
        """The certificate file's text (JSON, ``docs/certificates.md``)."""
        return self._file_text

    def save(self, path: str) -> None:
        """Writes the certificate file to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._file_text + "\n")

    def verify(self) -> "tuple[bool, str]":
        """Checks the certificate file with the independent checker (``verify_certificate.py``,
        no pegsol code): ``(True, what was checked)`` or ``(False, what fails)``."""
        import os
        import tempfile

        from . import verify_certificate as checker

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "certificate.json")
            self.save(path)
            try:
                cert, kind = checker.read(path)
                return checker.check(cert, kind)
            except checker.Malformed as e:
                return False, f"malformed: {e}"

    def __repr__(self) -> str:
        return f"Certificate(kind={self.kind!r})"

    def _repr_svg_(self) -> str:
        return self._svg


class Check(_Line):
    """The answer of :func:`check`: ``status`` (``refuted``, ``solvable`` or ``open``),
    ``reason``, ``certificate`` (a :class:`Certificate`, or None) and, when solvable, the line."""

    def __init__(self, data: Dict[str, Any], board: Board, certificate: Optional[Certificate] = None) -> None:
        super().__init__(data, board)
        self._certificate = certificate

    @property
    def certificate(self) -> Optional[Certificate]:
        """The proof of impossibility, when refuted with one."""
        return self._certificate

    def _repr_svg_(self) -> str:
        if self._certificate is not None:
            return self._certificate._repr_svg_()
        return super()._repr_svg_()


class Catalog(Answer):
    """The answer of :func:`catalog`: ``problems`` (each representative pair with its status,
    reason and line), ``vacancies``, ``proofs`` and ``summary`` (pairs solvable, impossible,
    undecided); drawn as a grid of boards, one per vacancy class."""

    def __init__(self, data: Dict[str, Any], board: Board, svg: str) -> None:
        super().__init__(data, board)
        self._svg = svg

    def _repr_svg_(self) -> str:
        return self._svg


class Army(Answer):
    """The answer of :func:`army`: ``status`` (``found``, ``impossible``, ``none`` or
    ``undecided``), ``men``, ``minimal``, ``army`` (cells ``[x, y]``), ``jumps``,
    ``pagoda_bound``, ``proof``."""

    def __init__(self, data: Dict[str, Any]) -> None:
        super().__init__(data, None)  # type: ignore[arg-type]


class Forced(Answer):
    """The answer of :func:`forced`: ``counts`` (per number of jumps from the position, how
    many positions reachable then can still win; empty when the position cannot),
    ``opening`` (the jumps every winning line begins with) and ``positions`` (each position
    every winning line passes through: ``after`` jumps, the ``jump`` that must reach it when
    the one before is forced too, its ``pegs``)."""

    def __repr__(self) -> str:
        return f"Forced(opening={self._data['opening']!r}, positions={len(self._data['positions'])}, counts={self._data['counts']!r})"


class Line(Answer):
    """The answer of :func:`line`: ``min_pegs``, ``solvable``, ``pieces`` and the ``jumps``
    (cell indices ``"from-to"``), replayed."""

    def __init__(self, data: Dict[str, Any]) -> None:
        super().__init__(data, None)  # type: ignore[arg-type]


class Position:
    """A position on a board: which holes hold pegs."""

    def __init__(self, board: BoardLike, empty: Optional[Labels] = None, pegs: Optional[Labels] = None) -> None:
        self.board = _board(board)
        if pegs is not None and empty is not None:
            raise ValueError("give empty= or pegs=, not both")
        if pegs is not None:
            chosen = _labels(pegs)
            names = chosen.replace(",", " ").split() if isinstance(chosen, str) else chosen
            self.board.class_of(names)  # checks the labels
            self._pegs = [h for h in self.board.holes if h in set(names)]
        else:
            if empty is None:
                empty = self.board.empty
                if empty is None:
                    raise ValueError(f"board {self.board.name} has no start of its own; give empty=, e.g. empty='a1'")
            chosen = _labels(empty)
            names = chosen.replace(",", " ").split() if isinstance(chosen, str) else chosen
            self.board.class_of(names)  # checks the labels
            gone = set(names)
            self._pegs = [h for h in self.board.holes if h not in gone]

    @classmethod
    def from_line(cls, board: BoardLike, jumps: str, empty: Optional[Labels] = None) -> "Position":
        """The position a line of play reaches (``"d2-d4 f3-d3"``), replayed and checked."""
        b = _board(board)
        answer = json.loads(_pegsol.replay(_question(b, empty), jumps))
        return cls(b, pegs=answer["final"])

    @property
    def pegs(self) -> List[str]:
        """The labels of the holes with a peg."""
        return list(self._pegs)

    @property
    def empty(self) -> List[str]:
        """The labels of the empty holes."""
        full = set(self._pegs)
        return [h for h in self.board.holes if h not in full]

    @property
    def position_class(self) -> str:
        """The position class (a jump keeps it)."""
        return self.board.class_of(self._pegs)

    def __len__(self) -> int:
        return len(self._pegs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.board.holes == self.board.holes and other._pegs == self._pegs

    def __hash__(self) -> int:
        return hash((tuple(self.board.holes), tuple(self._pegs)))

    def __str__(self) -> str:
        return self.board.draw(self._pegs)

    def __repr__(self) -> str:
        return f"Position({self.board.name!r}, {len(self._pegs)} pegs, empty={self.empty!r})"

    def _repr_svg_(self) -> str:
        return self.board.svg(self._pegs, f"{len(self._pegs)} pegs")


def boards() -> List[str]:
    """The built-in boards and families (``rect:RxC`` and the like take their parameters)."""
    return _pegsol.builtin_boards()


def solve(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Solution:
    """A line of play to the finish, or a proof there is none (``pegsol solve``).

    ``empty``: the start's empty holes (the board's own start by default); ``after``: jumps
    played from the start first (``"d2-d4 f3-d3"``); ``finish``: hole labels, ``"any"`` (one peg
    anywhere) or ``"any:N"`` (the single vacancy by default).
    """
    b = _board(board)
    return Solution._of(_pegsol.solve(_question(b, empty, finish, after, timeout, max_memory)), b)  # type: ignore[return-value]


def fewest_moves(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> FewestMoves:
    """A solution with the fewest moves (a move: one or more jumps by one peg), proved
    optimal, or bounds with the best line found (``pegsol solve --fewest-moves``)."""
    b = _board(board)
    return FewestMoves._of(_pegsol.fewest_moves(_question(b, empty, finish, after, timeout, max_memory)), b)  # type: ignore[return-value]


def shortest(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Shortest:
    """The fewest moves from any single vacancy (or from ``empty``) to ``finish`` (one peg
    anywhere by default), proved, or bounds with a line (``pegsol shortest``)."""
    b = _board(board)
    return Shortest._of(_pegsol.shortest(_question(b, empty, finish, None, timeout, max_memory)), b)  # type: ignore[return-value]


def ends(
    board: BoardLike,
    empty: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Ends:
    """Every hole where one last peg can end, each with a replayed line, and why the others
    cannot (``pegsol ends``)."""
    b = _board(board)
    return Ends._of(_pegsol.ends(_question(b, empty, None, after, timeout, max_memory)), b)  # type: ignore[return-value]


def count(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    solutions: bool = False,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Count:
    """The whole game tree level by level (``pegsol count``), or with ``solutions=True`` the
    solutions and winning positions alone by meeting in the middle (``pegsol count
    --solutions``; the finish must be one position)."""
    b = _board(board)
    return Count._of(_pegsol.count(_question(b, empty, finish, after, timeout, max_memory), solutions), b)  # type: ignore[return-value]


def replay(board: BoardLike, jumps: str, empty: Optional[Labels] = None, after: Optional[str] = None) -> Replay:
    """A line of play checked jump by jump (``pegsol replay``); an illegal jump is a
    ``ValueError`` naming it."""
    b = _board(board)
    answer = Replay._of(_pegsol.replay(_question(b, empty, None, after), jumps), b)
    if after is not None:
        answer._data_start = Position.from_line(b, after, empty).empty  # type: ignore[attr-defined]
    else:
        answer._data_start = _labels(empty)  # type: ignore[attr-defined]
    return answer  # type: ignore[return-value]


def check(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Check:
    """Why a problem is impossible, with a certificate anyone can check, or its line when it
    is solvable (``pegsol check``)."""
    b = _board(board)
    text, file_text, svg = _pegsol.check(_question(b, empty, finish, after, timeout, max_memory))
    data = json.loads(text)
    certificate = None
    if data.get("certificate") is not None and file_text is not None:
        certificate = Certificate(data["certificate"], file_text, svg)
    return Check(data, b, certificate)


def catalog(
    board: BoardLike,
    finish: str = "single",
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Catalog:
    """Every single vacancy against every single-peg finish (``finish="single"``) or one peg
    anywhere (``finish="any"``), up to symmetry (``pegsol catalog``)."""
    b = _board(board)
    text, svg = _pegsol.catalog(b, finish, timeout, max_memory)
    return Catalog(json.loads(text), b, svg)


def army(
    row: int,
    lattice: str = "orthogonal",
    men: Optional[int] = None,
    width: Optional[int] = None,
    below: Optional[int] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Army:
    """The fewest men that send one man to row ``row`` (the Solitaire Army) on the
    ``orthogonal``, ``diagonal`` or ``triangular`` lattice, replayed and proved minimal in the
    window, or the pagoda proof that no finite army can (``pegsol army``)."""
    return Army(json.loads(_pegsol.army(row, lattice, men, width, below, timeout, max_memory)))


def line(config: str) -> Line:
    """One-dimensional solitaire: the fewest pegs a line of cells (``"1101101"``, 1 a peg)
    reduces to, with the jumps, replayed (``pegsol line``)."""
    return Line(json.loads(_pegsol.one_dimensional(config)))


def random_win(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Optional[float]:
    """The probability that a player who picks every jump uniformly at random among the legal
    ones wins from the start (or from where ``after`` leads): from the winning set of the
    game, computed from the finish back (to about 12 significant digits); None when that set
    does not fit ``timeout`` and ``max_memory``. ``pegsol hint`` prints the same."""
    b = _board(board)
    return _pegsol.random_win(_question(b, empty, finish, after, timeout, max_memory))


def forced(
    board: BoardLike,
    empty: Optional[Labels] = None,
    finish: Optional[Labels] = None,
    after: Optional[str] = None,
    timeout: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Optional[Forced]:
    """What every winning line from the start (or from where ``after`` leads) passes
    through: the positions reachable that can still win, counted by jumps from there, the
    levels where only one is left and the jumps between them, from the winning set of the
    game; None when that does not fit ``timeout`` and ``max_memory``. ``pegsol hint
    --forced`` prints the same."""
    b = _board(board)
    text = _pegsol.forced(_question(b, empty, finish, after, timeout, max_memory))
    return None if text is None else Forced(json.loads(text), b)
