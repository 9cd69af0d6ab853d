"""Type stubs of the Rust half of the pegsol package (``pegsol._pegsol``).

The question functions return the library's typed answer as JSON text; ``pegsol`` wraps them
in answer objects.
"""

from os import PathLike
from typing import List, Optional, Tuple, TypedDict, Union

_Labels = Union[str, List[str]]

class Board:
    """A board: its holes on a lattice, its symmetries and its position classes."""

    def __init__(self, spec: str, lattice: Optional[str] = None, name: Optional[str] = None) -> None:
        """A built-in board by name (``english``, ``triangle:7``, ``rect:4x5``, ...), or a
        picture of one: rows of ``o`` (peg) and ``.`` (empty hole), a space for no hole, on
        ``lattice`` (``orthogonal`` by default, ``diagonal``, ``triangular``)."""
    @staticmethod
    def from_file(path: Union[str, PathLike]) -> "Board":
        """A board read from a picture file (its name is the file's stem)."""
    @property
    def name(self) -> str: ...
    @property
    def holes(self) -> List[str]:
        """The holes' labels, in the board's order."""
    @property
    def hole_count(self) -> int: ...
    @property
    def lattice(self) -> str: ...
    @property
    def symmetries(self) -> int:
        """The order of the board's symmetry group."""
    @property
    def classes(self) -> int:
        """The number of position classes (a jump keeps a position's class)."""
    @property
    def empty(self) -> Optional[List[str]]:
        """The empty holes of the board's own start, or None when it has none."""
    def class_of(self, pegs: _Labels) -> str:
        """The position class of the position whose pegs are ``pegs``."""
    def draw(self, pegs: Optional[_Labels] = None) -> str:
        """The board drawn in text, with ``pegs`` (the board's start by default)."""
    def svg(self, pegs: Optional[_Labels] = None, caption: Optional[str] = None) -> str:
        """The board as SVG, with ``pegs`` (the board's start by default), captioned."""
    def svg_line(self, jumps: str, empty: Optional[_Labels] = None, per_row: int = 8) -> str:
        """A line of play as a strip of boards, one per move, replayed first."""
    def _repr_svg_(self) -> str: ...

def builtin_boards() -> List[str]: ...
class Question(TypedDict):
    """A question's board, start, finish and budget (``pegsol._question`` builds it)."""

    board: Board
    empty: Optional[_Labels]
    finish: Optional[_Labels]
    after: Optional[str]
    timeout: Optional[float]
    max_memory: Optional[int]

def solve(q: Question) -> str: ...
def fewest_moves(q: Question) -> str: ...
def shortest(q: Question) -> str: ...
def ends(q: Question) -> str: ...
def replay(q: Question, jumps: str) -> str: ...
def count(q: Question, solutions: bool) -> str: ...
def random_win(q: Question) -> Optional[float]: ...
def check(q: Question) -> Tuple[str, Optional[str], Optional[str]]:
    """The answer's JSON, the certificate file's text and the certificate's SVG."""
def catalog(board: Board, finish: str = "single", timeout: Optional[float] = None, max_memory: Optional[int] = None) -> Tuple[str, str]:
    """The answer's JSON and the catalog's SVG grid."""
def army(row: int, lattice: str = "orthogonal", men: Optional[int] = None, width: Optional[int] = None, below: Optional[int] = None, timeout: Optional[float] = None, max_memory: Optional[int] = None) -> str: ...
def one_dimensional(config: str) -> str: ...
