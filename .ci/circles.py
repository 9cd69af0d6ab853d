#!/usr/bin/env python3
"""Import circles between a crate's files: exits 1 and names them if a file that uses another
is used back by it, directly or round a longer loop.

A file "uses" a module when its code names it by a path (`crate::a::b`, `super::x`,
`self::y`, or a child declared with `mod c;` and named as `c::`). A `pub use` in a module's
own `mod.rs`, `lib.rs` or `main.rs` is a re-export (the facade the house style asks for), not
a use; a path through the crate root's re-exports is followed to the file that defines the
item. Comments and `#[cfg(test)] mod tests` blocks are left out (tests may use what they test).

Usage: circles.py SRC_DIR [SRC_DIR ...]
"""
import os
import re
import sys


def modules(root):
    files = {}
    for d, _, names in os.walk(root):
        for f in names:
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                parts = os.path.relpath(p, root)[:-3].split("/")
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                files[tuple(parts)] = p
    return files


def graph(root):
    files = modules(root)
    reexports = {}
    root_src = re.sub(r"//[^\n]*", "", open(files[()]).read())
    for m in re.finditer(r"pub use ((?:\w+::)+)(\{[^}]*\}|\w+)\s*;", root_src):
        path = m.group(1).split("::")[:-1]
        for item in m.group(2).strip("{}").split(","):
            item = item.strip().split(" as ")[-1].strip()
            if item:
                reexports[item] = path

    def resolve(path):
        if path and path[0] in reexports and tuple(path[:1]) not in files:
            path = reexports[path[0]] + path[1:]
        for k in range(len(path), -1, -1):
            if tuple(path[:k]) in files:
                return tuple(path[:k])
        return None

    edges = {}
    for mod, p in files.items():
        src = re.sub(r"//[^\n]*", "", open(p).read())
        cut = src.find("#[cfg(test)]\nmod tests")
        if cut >= 0:
            src = src[:cut]
        if p.endswith(("mod.rs", "lib.rs", "main.rs")):
            src = re.sub(r"pub use [^;]*;", "", src)
        deps = set()
        for m in re.finditer(r"\b(crate|super|self)((?:::\w+)+)", src):
            head, rest = m.group(1), m.group(2).split("::")[1:]
            base = [] if head == "crate" else list(mod[:-1]) if head == "super" else list(mod)
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
            deps.add(resolve(base + rest))
        for m in re.finditer(r"\bcrate::\{([^}]*)\}", src):
            for item in m.group(1).split(","):
                item = item.strip().split(" as ")[0]
                if item:
                    deps.add(resolve(item.split("::")))
        for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", src, re.M):
            child = m.group(1)
            if re.search(r"(?<![:\w])" + child + r"::", src):
                deps.add(resolve(list(mod) + [child]))
        deps.discard(None)
        deps.discard(mod)
        edges[mod] = deps
    return edges


def loops(edges):
    """Strongly connected components of more than one file (Tarjan's algorithm)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    bad = False
    for root in sys.argv[1:]:
        for comp in loops(graph(root)):
            bad = True
            names = sorted("/".join(m) or "(crate root)" for m in comp)
            print(f"{root}: import circle among {', '.join(names)}", file=sys.stderr)
    if bad:
        sys.exit(1)
    print("no import circles in " + ", ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
