#!/usr/bin/env python3
"""The house rules for src/: no file imports another that imports it back (directly or
round a longer circle), no file holds more than 450 lines of non-test code, and no
function outside tests is longer than a screen (100 lines, signature to closing brace).

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
FUNCTION_LIMIT = 100


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


def blanked(text):
    """The file without its test module, with comments, strings and char literals
    blanked out but every line kept, so that lines still count."""
    tests = re.search(r"#\[cfg\(test\)\]\n(pub(\([^)]*\))? )?mod tests", text)
    if tests:
        text = text[: tests.start()]
    out, i, n = [], 0, len(text)

    def blank(j):
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        return j

    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = blank(n if j < 0 else j)
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            i = blank(n if j < 0 else j + 2)
        elif re.match(r'r#*"', text[i : i + 8]) and not text[i - 1 : i].isalnum():
            hashes = re.match(r"r(#*)", text[i:]).group(1)
            j = text.find('"' + hashes, i + len(hashes) + 2)
            i = blank(n if j < 0 else j + 1 + len(hashes))
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = blank(j + 1)
        elif text[i] == "'" and re.match(r"'(\\[^']*|[^\\'])'", text[i : i + 12]):
            i = blank(i + re.match(r"'(\\[^']*|[^\\'])'", text[i : i + 12]).end())
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def long_functions(text):
    """Each function's name and length in lines, where that passes FUNCTION_LIMIT."""
    code = blanked(text)
    found = []
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        depth, i = 0, m.end()
        while i < len(code):
            ch = code[i]
            if code.startswith("->", i):
                i += 2
                continue
            if ch in "(<[":
                depth += 1
            elif ch in ")>]":
                depth -= 1
            elif ch == ";" and depth <= 0:
                break  # a declaration without a body
            elif ch == "{" and depth <= 0:
                break
            i += 1
        if i >= len(code) or code[i] != "{":
            continue
        braces, j = 0, i
        while j < len(code):
            if code[j] == "{":
                braces += 1
            elif code[j] == "}":
                braces -= 1
                if braces == 0:
                    break
            j += 1
        lines = code.count("\n", m.start(), j) + 1
        if lines > FUNCTION_LIMIT:
            found.append((m.group(1), code.count("\n", 0, m.start()) + 1, lines))
    return found


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
            for name, line, lines in long_functions(p.read_text()):
                ok = False
                print(f"too long: {p}:{line} fn {name} has {lines} lines (at most {FUNCTION_LIMIT})")
    print("layout: ok" if ok else "layout: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
