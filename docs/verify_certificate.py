#!/usr/bin/env python3
"""Checks a pegsol certificate file (docs/certificates.md) on its own: no pegsol code.

Usage: python3 verify_certificate.py CERT.json
Prints what it checked; exit 0 when the certificate proves that no line of play leads from
the start to a finish, 1 when it does not, 2 when the file cannot be read.
"""

import json
import sys
from itertools import combinations

STEPS = {
    "orthogonal": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "diagonal": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)],
    "triangular": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
}


def parse_board(text):
    """The holes' (row, column) in reading order, and the lattice, as board files say."""
    lattice, columns, cells, started = "orthogonal", None, [], False
    for line_no, line in enumerate(text.splitlines()):
        stripped = line.strip()
        if not started and not stripped:
            continue
        if not started and ":" in stripped:
            key, value = (s.strip() for s in stripped.split(":", 1))
            if key == "lattice":
                lattice = value
            elif key == "columns":
                columns = value == "spaced"
            else:
                raise ValueError(f"unknown header {stripped!r}")
            continue
        for col, ch in enumerate(line):
            if ch in "oO.":
                started = True
                cells.append((line_no, col))
            elif ch != " ":
                raise ValueError(f"bad character {ch!r} in the board")
    if columns is None:
        parity = cells[0][1] % 2
        columns = all(c % 2 == parity for _, c in cells) and any(
            a[0] == b[0] and b[1] == a[1] + 2 for a, b in zip(cells, cells[1:])
        )
    if columns:
        cells = [(r, c // 2) for r, c in cells]
    return cells, lattice


def main(path):
    cert = json.load(open(path))
    if cert.get("format") != "pegsol certificate" or cert.get("version") != 1:
        raise ValueError("not a pegsol certificate of version 1")
    cells, lattice = parse_board(cert["board"])
    n = len(cells)
    index = {c: i for i, c in enumerate(cells)}
    jumps = []
    for i, (r, c) in enumerate(cells):
        for dr, dc in STEPS[lattice]:
            over, to = index.get((r + dr, c + dc)), index.get((r + 2 * dr, c + 2 * dc))
            if over is not None and to is not None:
                jumps.append((1 << i, 1 << over, 1 << to))
    everything = (1 << n) - 1
    start = int(cert["start"], 16)
    fin = cert["finishes"]
    explicit = None if isinstance(fin, dict) else {int(f, 16) for f in fin}
    pegs = fin["pegs"] if explicit is None else None

    def children(p):
        for a, b, t in jumps:
            if p & a and p & b and not p & t:
                yield p ^ a ^ b ^ t

    def total(w, p):
        return sum(w[i] for i in range(n) if p >> i & 1)

    def valid(w):
        return all(w[a.bit_length() - 1] + w[b.bit_length() - 1] >= w[t.bit_length() - 1] for a, b, t in jumps)

    kind = cert["kind"]
    if kind == "search" and cert["dual"]:
        if explicit is None or len(explicit) != 1:
            return False, "a dual certificate needs exactly one finish"
        (f,) = explicit
        start, explicit = everything & ~f, {everything & ~start}
    finishes = explicit if explicit is not None else None

    def is_finish(p):
        return p in finishes if finishes is not None else bin(p).count("1") == pegs

    def floor(w):
        if finishes is not None:
            return min(total(w, f) for f in finishes)
        return sum(sorted(w)[:pegs])

    if kind == "class":
        sets = [int(s, 16) for s in cert["sets"]]
        if any(bin((a | b | t) & s).count("1") % 2 for s in sets for a, b, t in jumps):
            return False, "a set meets a jump in an odd number of holes"
        each = finishes if finishes is not None else (
            sum(1 << i for i in c) for c in combinations(range(n), pegs))
        parity = lambda p, s: bin(p & s).count("1") % 2
        if not all(any(parity(start, s) != parity(f, s) for s in sets) for f in each):
            return False, "some finish is not separated from the start"
        return True, f"{len(sets)} sets meet every jump evenly and separate every finish"
    if kind == "pagoda":
        (w,) = cert["pagodas"]
        if not valid(w):
            return False, "the weights break a jump"
        if not total(w, start) < floor(w):
            return False, "the start does not total less than every finish"
        return True, f"a pagoda function: start {total(w, start)} < finishes {floor(w)}"
    if kind != "search":
        return False, f"unknown kind {kind}"
    goal = pegs if finishes is None else bin(next(iter(finishes))).count("1")
    triples = set(jumps)
    perms = cert["symmetries"]
    image = lambda g, p: sum(1 << g[i] for i in range(n) if p >> i & 1)
    for g in perms:
        if sorted(g) != list(range(n)):
            return False, "a symmetry is not a permutation"
        if any((image(g, a), image(g, b), image(g, t)) not in triples for a, b, t in jumps):
            return False, "a symmetry does not map jumps to jumps"
        if finishes is not None and any(image(g, f) not in finishes for f in finishes):
            return False, "a symmetry moves a finish off the finishes"
    functions = [(w, floor(w)) for w in cert["pagodas"]]
    if not all(valid(w) for w, _ in functions):
        return False, "a pagoda function breaks a jump"
    cut = lambda p: any(total(w, p) < fl for w, fl in functions)
    members = [int(p, 16) for p in cert["positions"]]
    member_set = set(members)
    member = lambda p: p in member_set or any(image(g, p) in member_set for g in perms)
    if not ((members and members[0] == start) or cut(start)):
        return False, "the set does not start with the start"
    for p in members:
        if is_finish(p):
            return False, "a member is a finish"
        for c in children(p):
            if not ((bin(c).count("1") <= goal and not is_finish(c)) or cut(c) or member(c)):
                return False, f"the set is not closed: {p:x} has the child {c:x}"
    return True, f"{len(members)} positions closed under jumps up to {len(perms) + 1} symmetries and {len(functions)} pagoda functions"


if __name__ == "__main__":
    try:
        ok, what = main(sys.argv[1])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"cannot read the certificate: {e}")
        sys.exit(2)
    print(("verified: " if ok else "rejected: ") + what)
    sys.exit(0 if ok else 1)
