#!/usr/bin/env python3
"""Check crates/corpus/data/glossary.tsv (the multilingual glossary).

Errors (exit status 1):
  - a concept line without exactly 10 tab-separated columns;
  - an empty English or Latin column;
  - two concepts with the same first English variant (case-insensitive);
  - an empty variant (`a||b`, a leading or trailing `|`) or a lone `*`.

Warnings (printed, exit status 0), with --warn:
  - empty cells in the other columns;
  - the same folded variant (a word pattern or a Chinese substring) in two
    concepts, in any column but English: a query that names it is expanded to
    both concepts.

Usage: scripts/glossary-check.py [--warn] [path]
       scripts/glossary-check.py --probe "query" [...]   (which concepts match)

Matching is re-implemented from crates/corpus/src/query/{normalize,glossary}.rs
(accents of Latin letters folded, words split on what is not a letter, digit
or mark, `*` a word prefix, Chinese variants substrings) for the warnings and
--probe only; the Rust code is the reference.
"""

import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

COLUMNS = ["en", "la", "cs", "zh", "bn", "kok", "it", "es", "pt", "fr"]
DEFAULT = Path(__file__).resolve().parent.parent / "crates/corpus/data/glossary.tsv"
ENGLISH_MARKERS = set(
    "the what does is are of and how why who about with was were which when where "
    "this that teach teaches say says mean means my can should did you we".split()
)


def is_han(c):
    o = ord(c)
    return (0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
            or 0x20000 <= o <= 0x2FA1F)


def fold_char(c):
    special = {"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "ß": "ss", "æ": "ae", "Æ": "ae",
               "œ": "oe", "Œ": "oe", "’": "'", "ʼ": "'", "‘": "'"}
    if c in special:
        return special[c]
    o = ord(c)
    if o < 0x0250 or 0x1E00 <= o < 0x1F00:
        d = unicodedata.normalize("NFD", c)
        base = next((x for x in d if not unicodedata.combining(x)), c)
        return base.lower()
    return c.lower()


def is_word_char(c):
    return c.isalnum() or unicodedata.category(c).startswith("M")


def normalize(s):
    folded = "".join(fold_char(c) for c in s)
    words, cur = [], []
    for c in folded:
        if is_word_char(c):
            cur.append(c)
        elif cur:
            words.append("".join(cur))
            cur = []
    if cur:
        words.append("".join(cur))
    return words, folded


def pattern(variant):
    v = variant.strip()
    if not v:
        return None
    if any(is_han(c) for c in v):
        return ("han", v.lower())
    words = []
    for w in v.split():
        prefix = w.endswith("*")
        parts, _ = normalize(w.rstrip("*"))
        for i, p in enumerate(parts):
            words.append((p, prefix and i + 1 == len(parts)))
    return ("words", tuple(words)) if words else None


def matches(pat, words, folded):
    kind, p = pat
    if kind == "han":
        return p in folded
    n = len(p)
    for i in range(len(words) - n + 1):
        if all((words[i + k].startswith(t) if pre else words[i + k] == t)
               for k, (t, pre) in enumerate(p)):
            return True
    return False


def load(path):
    errors, concepts = [], []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        cells = line.split("\t")
        if cells[0] == "en":
            continue
        if len(cells) != len(COLUMNS):
            errors.append(f"line {no}: {len(cells)} columns, want {len(COLUMNS)}: {line[:60]!r}")
            continue
        for col, cell in zip(COLUMNS, cells):
            if cell.strip() and any(not v.strip() or v.strip() == "*" for v in cell.split("|")):
                errors.append(f"line {no}: empty variant in {col}: {cell!r}")
        if not cells[0].strip():
            errors.append(f"line {no}: empty English column")
        if not cells[1].strip():
            errors.append(f"line {no}: empty Latin column")
        concepts.append((no, cells))
    return errors, concepts


def main(argv):
    warn = "--warn" in argv
    args = [a for a in argv if a != "--warn"]
    probes = []
    if "--probe" in args:
        i = args.index("--probe")
        probes, args = args[i + 1:], args[:i]
    path = Path(args[0]) if args else DEFAULT
    errors, concepts = load(path)

    seen = {}
    for no, cells in concepts:
        head = cells[0].split("|")[0].strip().lower()
        if head in seen:
            errors.append(f"line {no}: first English variant {head!r} already on line {seen[head]}")
        else:
            seen[head] = no

    if probes:
        for q in probes:
            words, folded = normalize(q)
            english = any(w in ENGLISH_MARKERS for w in words)
            hits = []
            for no, cells in concepts:
                for col, cell in list(zip(COLUMNS, cells))[1:]:
                    hit = next((v for v in cell.split("|")
                                if (p := pattern(v)) and matches(p, words, folded)), None)
                    if hit:
                        hits.append(f"{cells[0].split('|')[0]} ({col}: {hit})")
                        break
            note = " [English marker: nothing translated]" if english else ""
            print(f"{q!r}{note}: {'; '.join(hits) or '-'}")

    if warn:
        owners = defaultdict(set)
        for no, cells in concepts:
            for col, cell in list(zip(COLUMNS, cells))[1:]:
                if not cell.strip():
                    print(f"warning: line {no}: empty {col} cell ({cells[0].split('|')[0]})")
                for v in cell.split("|"):
                    p = pattern(v)
                    if p:
                        owners[p].add(cells[0].split("|")[0])
        for p, heads in sorted(owners.items(), key=lambda x: str(x[0])):
            if len(heads) > 1:
                shown = p[1] if p[0] == "han" else " ".join(t + ("*" if pre else "") for t, pre in p[1])
                print(f"warning: {shown!r} names {len(heads)} concepts: {sorted(heads)}")

    for e in errors:
        print("error:", e)
    print(f"{path}: {len(concepts)} concepts, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
