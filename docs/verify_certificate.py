#!/usr/bin/env python3
"""Checks a pegsol certificate file (docs/certificates.md) on its own: no pegsol code.

Usage: python3 verify_certificate.py CERT.json
Prints what it checked; exit 0 when the certificate proves that no line of play leads from
the start to a finish, 1 when it does not, 2 when the file is not a well-formed certificate.

It reads the file as strictly as the format says: integers only (no float, NaN or
Infinity), no field missing, unknown or given twice, every position within the board's
holes, and the board picture read line by line exactly as pegsol reads it.
"""

import json
import re
import sys

FORMAT, VERSION = "pegsol certificate", 1
CLAIM = "no line of play leads from the start to a finish"
MAX_HOLES, MAX_SIDE, MAX_WEIGHT = 256, 4096, 1 << 48
# The most parity patterns the class check follows over any k pegs (as `pegsol verify`).
MAX_PATTERNS = 1 << 16

STEPS = {
    "orthogonal": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "diagonal": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)],
    "triangular": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
}
FIELDS = {
    "class": {"sets"},
    "pagoda": {"pagodas"},
    "search": {"dual", "symmetries", "pagodas", "positions"},
}
COMMON = {"format", "version", "claim", "board", "holes", "start", "finishes", "kind"}
HEX = re.compile(r"[0-9a-fA-F]+")


class Malformed(Exception):
    """The file is not a well-formed certificate (exit 2)."""


def picture_lines(text):
    """A line ends at \\n or \\r\\n; any other \\r is an error, as in pegsol (a picture with \\r
    alone or \\r\\r\\n would read as another board elsewhere). Not str.splitlines, which also
    breaks at \\r, \\v, \\f, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029."""
    lines = text.split("\n")
    for line_no, line in enumerate(lines):
        if line.endswith("\r"):
            line = lines[line_no] = line[:-1]
        if "\r" in line:
            raise Malformed(f"board line {line_no + 1}, column {line.index(chr(13)) + 1}: "
                            "a carriage return that does not end a line")
    return lines


def strip_blanks(s):
    """Blanks around headers and in blank lines are spaces and tabs only."""
    return s.strip(" \t")


def parse_board(text):
    """The holes' (row, column) in reading order, and the lattice, as board files say."""
    lattice, columns, cells, seen = "orthogonal", None, [], {}
    for line_no, line in enumerate(picture_lines(text)):
        stripped = strip_blanks(line)
        if not cells and not stripped:
            continue
        if not cells and ":" in stripped:
            key, value = (strip_blanks(s) for s in stripped.split(":", 1))
            if key in seen:
                raise Malformed(f"board line {line_no + 1}: a second {key!r} header")
            if key == "lattice" and value.encode().lower().decode() in STEPS:
                lattice = value.encode().lower().decode()
            elif key == "columns" and value in ("exact", "spaced"):
                columns = value == "spaced"
            else:
                raise Malformed(f"board line {line_no + 1}: unknown header {stripped!r}")
            seen[key] = line_no
            continue
        for col, ch in enumerate(line):
            if ch in "oO.":
                cells.append((line_no, col))
                if len(cells) > MAX_HOLES:
                    raise Malformed(f"the board has more than {MAX_HOLES} holes")
            elif ch != " ":
                raise Malformed(f"board line {line_no + 1}, column {col + 1}: bad character {ch!r}")
    if not cells:
        raise Malformed("the board has no holes")
    if columns is None:
        parity = cells[0][1] % 2
        columns = all(c % 2 == parity for _, c in cells) and any(
            a[0] == b[0] and b[1] == a[1] + 2 for a, b in zip(cells, cells[1:])
        )
    if columns:
        halved = [(r, c // 2) for r, c in cells]
        for (a, b, (r, c)) in zip(halved, halved[1:], cells[1:]):
            if a == b:
                raise Malformed(f"board line {r + 1}, column {c + 1}: spaced cells overlap")
        cells = halved
    for axis in (0, 1):
        span = max(c[axis] for c in cells) - min(c[axis] for c in cells) + 1
        if span > MAX_SIDE:
            raise Malformed(f"the board spans {span} lines; at most {MAX_SIDE} are allowed")
    return cells, lattice


def reject_float(text):
    raise Malformed(f"{text} is not an integer: the format has integers only")


def reject_constant(text):
    raise Malformed(f"{text} is not a number the format allows")


def no_repeats(pairs):
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise Malformed(f"the field {k!r} is given twice")
    return dict(pairs)


def is_int(x):
    return type(x) is int  # bool is a subclass of int, and not a number here


def read(path):
    """The certificate as a dict, every field's type checked; raises Malformed."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except UnicodeDecodeError as e:
        raise Malformed(f"not UTF-8 text ({e})")
    try:
        cert = json.loads(text, parse_float=reject_float, parse_constant=reject_constant,
                          object_pairs_hook=no_repeats)
    except RecursionError:
        raise Malformed("the JSON is nested too deeply")
    except ValueError as e:
        if isinstance(e, Malformed):
            raise
        raise Malformed(f"not JSON: {e}")
    if type(cert) is not dict:
        raise Malformed("the file is not a JSON object")
    kind = cert.get("kind")
    if type(kind) is not str or kind not in FIELDS:
        raise Malformed(f"unknown certificate kind {kind!r}; the kinds are class, pagoda and search")
    missing = (COMMON | FIELDS[kind]) - cert.keys()
    extra = cert.keys() - (COMMON | FIELDS[kind])
    if missing:
        raise Malformed(f"a {kind} certificate needs the fields {sorted(missing)}")
    if extra:
        raise Malformed(f"a {kind} certificate has no fields {sorted(extra)}")
    if cert["format"] != FORMAT or not is_int(cert["version"]) or cert["version"] != VERSION:
        raise Malformed(f"not a {FORMAT!r} of version {VERSION}")
    if cert["claim"] != CLAIM:
        raise Malformed(f"the claim is not {CLAIM!r}")
    if type(cert["board"]) is not str:
        raise Malformed("\"board\" is not a string")
    holes = cert["holes"]
    if type(holes) is not list or not all(type(h) is str for h in holes):
        raise Malformed("\"holes\" is not a list of labels")
    if kind == "search" and type(cert["dual"]) is not bool:
        raise Malformed("\"dual\" is not true or false")
    return cert, kind


def position(x, n, what):
    """A hexadecimal string naming holes below n only."""
    if type(x) is not str or not HEX.fullmatch(x):
        raise Malformed(f"{what} is not a hexadecimal string of digits 0-9 and a-f: {str(x)[:70]!r}")
    p = int(x, 16)
    if p >> n:
        raise Malformed(f"{what} names hole {p.bit_length() - 1}, past the board's {n} holes")
    return p


def position_list(x, n, what):
    if type(x) is not list:
        raise Malformed(f"{what}s are not a list")
    return [position(p, n, f"{what} {k}") for k, p in enumerate(x)]


def weight_lists(x, n):
    if type(x) is not list:
        raise Malformed("\"pagodas\" is not a list")
    for k, w in enumerate(x):
        if type(w) is not list or len(w) != n:
            raise Malformed(f"pagoda function {k} is not a list of {n} weights")
        for v in w:
            if not is_int(v) or abs(v) > MAX_WEIGHT:
                raise Malformed(f"pagoda function {k}: {v!r} is not an integer of at most 2^48 in size")
    return x


def popcount(p):
    return bin(p).count("1")


def check(cert, kind):
    """(True, what was checked) or (False, what fails); raises Malformed."""
    cells, lattice = parse_board(cert["board"])
    n = len(cells)
    if len(cert["holes"]) != n:
        raise Malformed(f"\"holes\" names {len(cert['holes'])} holes for a board of {n}")
    index = {c: i for i, c in enumerate(cells)}
    jumps = []
    for i, (r, c) in enumerate(cells):
        for dr, dc in STEPS[lattice]:
            over, to = index.get((r + dr, c + dc)), index.get((r + 2 * dr, c + 2 * dc))
            if over is not None and to is not None:
                jumps.append((i, over, to))
    everything = (1 << n) - 1
    start = position(cert["start"], n, "the start")
    fin = cert["finishes"]
    if type(fin) is list:
        if not fin:
            raise Malformed("\"finishes\" is an empty list")
        finishes, pegs = set(position_list(fin, n, "finish")), None
    elif type(fin) is dict and fin.keys() == {"pegs"} and is_int(fin["pegs"]) and 0 <= fin["pegs"] <= n:
        finishes, pegs = None, fin["pegs"]
    else:
        raise Malformed("\"finishes\" is neither a non-empty list of positions nor {\"pegs\": N} with N at most the holes")
    about = f" on a board of {n} holes on the {lattice} lattice"

    labels = cert["holes"]  # for messages only, never for a check

    def name(p):
        pegs = [labels[i] for i in range(n) if p >> i & 1]
        return "{%s} (%x)" % (" ".join(pegs), p) if len(pegs) <= 12 else f"{len(pegs)} pegs ({p:x})"

    def jump(j):
        return f"the jump {labels[j[0]]}-{labels[j[2]]}"

    def children(p):
        for a, b, t in jumps:
            if p >> a & 1 and p >> b & 1 and not p >> t & 1:
                yield p ^ (1 << a | 1 << b | 1 << t)

    def total(w, p):
        return sum(w[i] for i in range(n) if p >> i & 1)

    def floor(w):
        """The least total of w over the finishes (for any `pegs` pegs: the lightest holes)."""
        return min(total(w, f) for f in finishes) if pegs is None else sum(sorted(w)[:pegs])

    def broken(w):
        return next(((a, b, t) for a, b, t in jumps if w[a] + w[b] < w[t]), None)

    if kind == "class":
        sets = position_list(cert["sets"], n, "set")
        for k, s in enumerate(sets):
            for a, b, t in jumps:
                if ((s >> a & 1) + (s >> b & 1) + (s >> t & 1)) % 2:
                    return False, f"set {k} meets {jump((a, b, t))} in an odd number of holes"

        def pattern(p):
            return sum(1 << j for j, s in enumerate(sets) if popcount(p & s) % 2)

        if finishes is not None:
            for f in finishes:
                if pattern(f) == pattern(start):
                    return False, f"no set separates the finish {name(f)} from the start"
        else:
            # Every position of `pegs` pegs, without listing them: hole by hole, the parity
            # patterns the holes so far can give, each with the peg counts (a bitset) giving it.
            keep = (1 << (pegs + 1)) - 1
            reach = {0: 1}
            for h in range(n):
                col = pattern(1 << h)
                nxt = dict(reach)
                for v, counts in reach.items():
                    nxt[v ^ col] = nxt.get(v ^ col, 0) | (counts << 1 & keep)
                reach = nxt
                if len(reach) > MAX_PATTERNS:
                    return False, f"the sets give more than {MAX_PATTERNS} parity patterns, too many to check"
            if reach.get(pattern(start), 0) >> pegs & 1:
                return False, f"some position of {pegs} pegs has the start's parity on every set"
        return True, f"{len(sets)} sets meet every jump evenly and separate every finish{about}"

    if kind == "pagoda":
        ws = weight_lists(cert["pagodas"], n)
        if len(ws) != 1:
            raise Malformed("a pagoda certificate has exactly one function")
        w = ws[0]
        if broken(w):
            return False, f"the weights break {jump(broken(w))}"
        least = floor(w)
        if not total(w, start) < least:
            return False, f"the start totals {total(w, start)}, not less than the finishes' {least}"
        return True, f"a pagoda function: start {total(w, start)} < finishes {least}{about}"

    # search
    perms = cert["symmetries"]
    if type(perms) is not list or not all(type(g) is list and all(is_int(i) for i in g) for g in perms):
        raise Malformed("\"symmetries\" is not a list of lists of hole indices")
    functions = weight_lists(cert["pagodas"], n)
    members = position_list(cert["positions"], n, "position")
    if cert["dual"]:
        if finishes is None or len(finishes) != 1:
            return False, "a dual certificate needs exactly one finish"
        (f,) = finishes
        start, finishes = everything & ~f, {everything & ~start}
    # A position with no more pegs than the smallest finish, and not a finish, reaches none.
    goal = pegs if finishes is None else min(popcount(f) for f in finishes)

    def is_finish(p):
        return p in finishes if finishes is not None else popcount(p) == pegs

    def image(g, p):
        return sum(1 << g[i] for i in range(n) if p >> i & 1)

    triples = set(jumps)
    for k, g in enumerate(perms):
        if sorted(g) != list(range(n)):
            return False, f"symmetry {k} is not a permutation of the holes"
        if any((g[a], g[b], g[t]) not in triples for a, b, t in jumps):
            return False, f"symmetry {k} does not map jumps to jumps"
        if finishes is not None and any(image(g, f) not in finishes for f in finishes):
            return False, f"symmetry {k} moves a finish off the finishes"
    floors = []
    for k, w in enumerate(functions):
        if broken(w):
            return False, f"pagoda function {k} breaks {jump(broken(w))}"
        floors.append(floor(w))

    def cut(p):
        return any(total(w, p) < fl for w, fl in zip(functions, floors))

    member_set = set(members)

    def member(p):
        return p in member_set or any(image(g, p) in member_set for g in perms)

    if not ((members and members[0] == start) or cut(start)):
        return False, "the first position is not the start, and no function cuts the start"
    for p in members:
        if is_finish(p):
            return False, f"the member {name(p)} is a finish"
        for c in children(p):
            if not ((popcount(c) <= goal and not is_finish(c)) or cut(c) or member(c)):
                return False, f"the set is not closed: {name(p)} has the child {name(c)}"
    return True, (f"{len(members)} positions closed under jumps up to {len(perms) + 1} symmetries"
                  f" and {len(functions)} pagoda functions{about}")


def main(argv):
    if len(argv) != 2:
        print("usage: verify_certificate.py CERT.json")
        return 2
    try:
        cert, kind = read(argv[1])
        ok, what = check(cert, kind)
    except Malformed as e:
        print(f"cannot read the certificate: {e}")
        return 2
    except OSError as e:
        print(f"cannot read the certificate: {e}")
        return 2
    except (RecursionError, MemoryError) as e:
        print(f"cannot check the certificate: {type(e).__name__}")
        return 2
    except Exception as e:  # a fault of this checker: still a rejection, never a traceback
        print(f"cannot check the certificate: {type(e).__name__}: {e} (please report this)")
        return 2
    print(("verified: " if ok else "rejected: ") + what)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
