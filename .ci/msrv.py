"""Checks the declared minimum Rust version against the locked dependencies.

Reads `cargo metadata --format-version 1` on standard input. Every locked package that states a
`rust-version` must need no newer compiler than the workspace declares, and the workspace
must declare exactly the newest one (so the figure in Cargo.toml and the README is the true
minimum, not a guess). Exits non-zero with the offending packages otherwise.
"""

import json
import sys


def version(text):
    parts = [int(x) for x in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


meta = json.load(sys.stdin)
ours = {p["name"]: p for p in meta["packages"] if p["id"] in meta["workspace_members"]}
declared = {version(p["rust_version"]) for p in ours.values() if p.get("rust_version")}
if len(declared) != 1:
    sys.exit(f"msrv: the workspace members declare {sorted(declared)}; declare one rust-version")
declared = declared.pop()
needs = sorted(
    (version(p["rust_version"]), p["name"], p["version"])
    for p in meta["packages"]
    if p.get("rust_version") and p["name"] not in ours
)
newest = needs[-1][0] if needs else (0, 0, 0)
too_new = [n for n in needs if n[0] > declared]
if too_new:
    sys.exit(f"msrv: declared {declared}, but these need newer: {too_new}")
if newest != declared:
    sys.exit(f"msrv: declared {declared}, but the newest any dependency needs is {newest}")
print(f"msrv: {'.'.join(map(str, declared[:2]))}, as the locked dependencies need ({needs[-1][1]} {needs[-1][2]})")
