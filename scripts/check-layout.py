#!/usr/bin/env python3
"""The house rules for src/: no file imports another that imports it back (directly or
round a longer circle), and no file holds more than 450 lines of non-test code.

A file imports another when it names an item of it: `use crate::a::b`, `super::x`,
`crate::a::b::c(...)` inline, or a child module's items (`child::thing`). Declaring a
module (`mod x;`) is not an import. Test modules (`#[cfg(test)]` to the end of the file)
are left out. Lines counted: everything above the tests but blank lines and comments.

Usage: scripts/check-layout.py [SRC]   (exit 1 on a circle or an oversized file)
"""

import re
import sys
from pathlib import Path

LIMIT = 450


def module_of(path, src):
    """The module path of a file: src/a/b.rs and src/a/b/mod.rs are ['a', 'b']."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def strip(text):
    """The file without its test module, comments and string contents (strings continued
    over lines with a backslash included)."""
    tests = re.search(r"#\[cfg\(test\)\]\n(pub(\([^)]*\))? )?mod tests", text)
    if tests:
        text = text[: tests.start()]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text, flags=re.S)
    return text


def expand_uses(code):
    """Every path a `use` statement names, braces expanded."""
    paths = []
    for stmt in re.findall(r"\buse\s+([^;]+);", code):
        prefix = []
        token = ""
        for ch in re.sub(r"\s+", "", stmt):
            if ch == "{":
                prefix.append(token)
                token = ""
            elif ch == ",":
                if token:
                    paths.append("".join(prefix) + token)
                token = ""
            elif ch == "}":
                if token:
                    paths.append("".join(prefix) + token)
                token = ""
                prefix.pop()
            else:
                token += ch
        if token:
            paths.append("".join(prefix) + token)
    return [p.split("as")[0] if "::as" not in p else p for p in paths]


def main():
    src = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    files = sorted(p for p in src.rglob("*.rs") if p.name != "main.rs" and "app" not in p.parts)
    app = sorted(p for p in src.rglob("*.rs") if "app" in p.parts or p.name == "main.rs")
    ok = True
    for group in (files, app):
        modules = {tuple(module_of(p, src)): p for p in group}
        edges = {p: set() for p in group}
        for p in group:
            here = module_of(p, src)
            base = here  # a file's children live under its own module path
            code = strip(p.read_text())
            names = expand_uses(code)
            names += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", code)
            children = set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code, re.M))
            names += [m for m in re.findall(r"\b(\w+(?:::\w+)+)", code) if m.split("::")[0] in children]
            for name in names:
                parts = name.split("::")
                if parts[0] == "crate":
                    target = parts[1:]
                elif parts[0] == "super":
                    target = list(here[:-1])
                    parts = parts[1:]
                    while parts and parts[0] == "super":
                        target = target[:-1]
                        parts = parts[1:]
                    target += parts
                elif parts[0] == "self":
                    target = list(base) + parts[1:]
                elif parts[0] in children:
                    target = list(base) + parts
                else:
                    continue
                # The longest prefix that is a file.
                for k in range(len(target), -1, -1):
                    hit = modules.get(tuple(target[:k]))
                    if hit is not None:
                        if hit != p:
                            edges[p].add(hit)
                        break
        # Circles: strongly connected components of more than one file.
        index, low, on, stack, sccs = {}, {}, set(), [], []
        counter = [0]

        def visit(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in edges[v]:
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
                    sccs.append(comp)

        sys.setrecursionlimit(10000)
        for v in group:
            if v not in index:
                visit(v)
        for comp in sccs:
            ok = False
            names = sorted(str(c) for c in comp)
            print("circle: " + " <-> ".join(names))
            for a in comp:
                for b in sorted(edges[a] & set(comp)):
                    print(f"    {a} imports {b}")
        for p in group:
            code = [ln for ln in strip(p.read_text()).splitlines() if ln.strip()]
            if len(code) > LIMIT:
                ok = False
                print(f"too long: {p} has {len(code)} lines of non-test code (at most {LIMIT})")
    print("layout: ok" if ok else "layout: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
