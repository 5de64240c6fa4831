#!/usr/bin/env python3
"""The core's shape, as issue 28 measures it: BackgroundSystem's functions and stored properties, the writes to a
subsystem's state from BackgroundSystem's code outside the subsystem's folder (calls of its mutating methods and
assignments; writes to the per-app records in `apps` are not counted), and the pairs of core files that use each
other's declarations.

A textual approximation (no compiler): comments and string literals are blanked, declarations are found by
keyword at the brace depth of their type or extension, and a file "uses" a declaration when the name appears as a
word in it and is declared in exactly one core file (names declared in several files, such as `record` or `now`,
are left out: the pairs are a lower bound). Usage: scripts/core-shape.py [Sources/OffstageCore] [--pairs] [--writes]
"""
import os
import re
import sys
from collections import defaultdict

ROOT = next((a for a in sys.argv[1:] if not a.startswith("--")), "Sources/OffstageCore")
SHOW_PAIRS = "--pairs" in sys.argv
SHOW_WRITES = "--writes" in sys.argv


def blank(text):
    """The text with comments and string literals replaced by spaces (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i)); i = j + 1
        else:
            out.append(text[i]); i += 1
    return "".join(out)


files = {}
for folder, _, names in os.walk(ROOT):
    for name in sorted(names):
        if name.endswith(".swift"):
            path = os.path.join(folder, name)
            files[path] = blank(open(path, encoding="utf-8").read())


def folder_of(path):
    rel = os.path.relpath(path, ROOT)
    return os.path.dirname(rel) or "."


def blocks(text, header):
    """(start, end) of each `header … { … }` block's body."""
    for match in re.finditer(header, text):
        start = text.find("{", match.end())
        depth, i = 0, start
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        yield start + 1, i


def top_level(body):
    """The body's text at depth 0 (nested bodies removed)."""
    out, depth = [], 0
    for ch in body:
        if ch == "{":
            depth += 1
        if depth == 0:
            out.append(ch)
        if ch == "}":
            depth -= 1
    return "".join(out)


def computed(body, line):
    """Whether the top-level declaration `line` in `body` is a computed property: a body of its own with no
    `didSet` or `willSet` (an observed property is stored)."""
    declaration = line.strip()
    at = body.find(declaration)
    if at < 0 or not body[at + len(declaration):].lstrip(" ").startswith("{"):
        return False
    start, end = next(blocks(body[at:], re.escape(declaration)))
    return not re.search(r"\b(?:didSet|willSet)\b", body[at + start:at + end])


SYSTEM = r"\b(?:public\s+)?(?:struct\s+BackgroundSystem\b|extension\s+BackgroundSystem\b)"
FUNC = re.compile(r"\b(?:mutating\s+|static\s+|nonisolated\s+)*func\s+([A-Za-z_][A-Za-z0-9_]*)")
functions, stored = [], []
for path, text in files.items():
    for start, end in blocks(text, SYSTEM):
        body = text[start:end]
        level = top_level(body)
        functions += [(path, m.group(1)) for m in FUNC.finditer(level)]
        functions += [(path, "init") for _ in re.finditer(r"\binit\s*\(", level)]
        if re.search(r"struct\s+BackgroundSystem\b", text[max(0, start - 200):start]):
            for line in level.split("\n"):
                m = re.match(r"\s*(?:public\s+|private\s+|internal\s+|public internal\(set\)\s+|private\(set\)\s+|"
                             r"public private\(set\)\s+)*(?:var|let)\s+([A-Za-z_][A-Za-z0-9_]*)", line)
                if m and "static" not in line and not computed(body, line):
                    stored.append(m.group(1))

# Subsystems: the types declared in each folder other than the root, with their mutating methods.
types_in = defaultdict(set)
mutating_of = defaultdict(set)


def note_mutating(kind, text, match):
    """Adds the mutating methods declared in the body that `match` (a type's or extension's header) opens."""
    for start, end in blocks(text[match.start():], re.escape(match.group(0))):
        body = top_level(text[match.start() + start:match.start() + end])
        mutating_of[kind].update(re.findall(r"mutating\s+func\s+([A-Za-z_][A-Za-z0-9_]*)", body))
        break


for path, text in files.items():
    for m in re.finditer(r"\b(?:struct|enum|final class|class|actor)\s+([A-Z][A-Za-z0-9_]*)", text):
        types_in[folder_of(path)].add(m.group(1))
        note_mutating(m.group(1), text, m)
    for m in re.finditer(r"\bextension\s+([A-Z][A-Za-z0-9_]*)\b", text):
        note_mutating(m.group(1), text, m)

# BackgroundSystem's stored properties whose type is declared in a subsystem folder.
main = files[os.path.join(ROOT, "BackgroundSystem.swift")]
subsystem_of = {}
for m in re.finditer(r"\bvar\s+([a-z][A-Za-z0-9_]*)\s*(?::\s*([A-Z][A-Za-z0-9_]*)|=\s*([A-Z][A-Za-z0-9_]*)\s*\()",
                     main):
    name, kind = m.group(1), m.group(2) or m.group(3)
    for folder, declared in types_in.items():
        if folder != "." and kind in declared:
            subsystem_of[name] = (folder, kind)

COLLECTION_MUTATIONS = ["append", "insert", "remove", "removeAll", "removeValue", "removeFirst", "removeLast",
                        "removeSubrange", "popFirst", "popLast", "formUnion", "formIntersection", "subtract",
                        "sort", "reverse", "updateValue", "merge", "reserveCapacity", "replaceSubrange"]
writes = defaultdict(lambda: defaultdict(int))
write_lines = []
for prop, (folder, kind) in subsystem_of.items():
    methods = mutating_of.get(kind, set())
    pattern = re.compile(r"\b" + prop + r"\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)(\s*\(|\s*(?:=[^=]|\+=|-=))|\b"
                         + prop + r"\s*(=[^=])")
    # A member's own parts changed: `prop.member[key] = …`, `prop.member[key]?.field = …`, `prop.member.append(…)`.
    nested = re.compile(r"\b" + prop + r"\s*\.\s*[A-Za-z_][A-Za-z0-9_]*\s*(?:\[[^\]\n]*\]\s*)?(?:\??\.\s*"
                        r"[A-Za-z_][A-Za-z0-9_]*\s*)*(?:=[^=]|\+=|-=)|\b" + prop + r"\s*\.\s*[A-Za-z_][A-Za-z0-9_]*\s*\."
                        r"\s*(?:" + "|".join(COLLECTION_MUTATIONS) + r")\s*[({]")
    for path, whole in files.items():
        if folder_of(path) == folder:
            continue
        # Only BackgroundSystem's own code names its properties: other types' members may share a name.
        text = "".join(whole[a:b] for a, b in blocks(whole, SYSTEM))
        # The initializer constructs every stored property (Swift requires it): construction, not a write.
        text = "".join(text[:a] + " " * (b - a) + text[b:] for a, b in list(blocks(text, r"\binit\s*\("))[:1]) \
            if path == os.path.join(ROOT, "BackgroundSystem.swift") else text
        for m in sorted([*pattern.finditer(text), *nested.finditer(text)], key=lambda m: m.start()):
            line = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.start())]
            if re.match(r"\s*(?:[a-z()]+\s+)*(?:var|let)\s+" + prop + r"\b", line):
                continue  # the property's declaration, not a write
            if m.re is nested or m.group(3) or (m.group(2).strip().startswith("(") and m.group(1) in methods) or (
                    m.group(2).strip() and not m.group(2).strip().startswith("(")):
                writes[prop][os.path.relpath(path, ROOT)] += 1
                write_lines.append(f"    {os.path.relpath(path, ROOT)}: {line.strip()}")

# Pairs of files that use each other's declarations.
declared_in = defaultdict(set)
DECL = re.compile(r"\b(?:func|struct|enum|class|protocol|typealias|case|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)")
for path, text in files.items():
    for m in DECL.finditer(text):
        declared_in[m.group(1)].add(path)
unique = {name: next(iter(paths)) for name, paths in declared_in.items() if len(paths) == 1 and len(name) > 3}
uses = defaultdict(set)
for path, text in files.items():
    for word in set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)):
        other = unique.get(word)
        if other and other != path:
            uses[path].add(other)
pairs = sorted({tuple(sorted((a, b))) for a in uses for b in uses[a] if a in uses.get(b, set())})
across = [p for p in pairs if folder_of(p[0]) != folder_of(p[1])]
either = {tuple(sorted((a, b))) for a in uses for b in uses[a]}
either_across = [p for p in either if folder_of(p[0]) != folder_of(p[1])]

print(f"BackgroundSystem: {len(functions)} functions (its body and {len({p for p, _ in functions})} files), "
      f"{len(stored)} stored properties")
print(f"subsystem state written from outside its folder: "
      f"{sum(len(v) for v in writes.values())} (property, file) pairs")
for prop in sorted(writes):
    folder, kind = subsystem_of[prop]
    print(f"  {prop} ({kind}, {folder}/): " + ", ".join(f"{f} {n}" for f, n in sorted(writes[prop].items())))
if SHOW_WRITES:
    print("\n".join(write_lines))
print(f"core files using each other's declarations: {len(pairs)} pairs, {len(across)} across folders "
      f"(one using the other: {len(either)} pairs, {len(either_across)} across folders)")
if SHOW_PAIRS:
    for a, b in across:
        print(f"  {os.path.relpath(a, ROOT)} <-> {os.path.relpath(b, ROOT)}")
