#!/usr/bin/env python3
"""Check crates/magisterium/data/registry.json against the papal documents catalogue.

The registry lists Magisterium documents the library does NOT hold (metadata
only).  For every row whose author is a pope this script looks the document up
in the read-only catalogue

    ../shared/data/corpus/papal-documents-catalog/documents-index.jsonl.gz

and reports the catalogue id, the catalogue date and the catalogue URL.  A row
matches a catalogue entry when (same pope, and) one of these holds:

  1. stem    - the file name of the row URL (without .html) is the catalogue id;
  2. title   - title_la or one of the names equals the catalogue title
               (case, accents and punctuation ignored);
  3. tail    - the part of the file name after its date stamp equals the
               catalogue id's, in the same vatican.va section (encyclicals,
               letters, ...).

Catalogue dates are sometimes malformed ("April, 11 1963", "28/03/1937",
"1st November 2024", "Germany", ""): they are parsed where possible, otherwise
the date stamp in the file name is used (ddmmyyyy or yyyymmdd).  A few file
stamps are not dates in either order; DATE_OVERRIDES gives their dates.

With --apply the matched rows get the catalogue date and URL, url_checked true
and source "catalogue: corpus/papal-documents-catalog <id>"; every other row
gets url_checked false.  The file is rewritten in the same layout.

It also checks the file itself: JSON, exact field set, unique ids, ISO dates,
known types and authors, 3-12 subjects (the common names of a subject count: "IVF", "test-tube babies"), and names shared by two rows (which
would make detection ambiguous).  Names are also compared the way the matcher
(crates/magisterium/src/fold.rs and registry.rs) sees them: folded (lower case,
marks removed -- which in Bengali and Devanagari removes the vowel signs,
virama and anusvara, leaving a consonant skeleton -- punctuation made spaces),
so two rows whose names fold alike are an error too, and names the matcher
ignores (under 6 folded characters, not Han, not an upper-case abbreviation)
are listed as warnings.  Counts, names by script included, are printed at the
end.

Usage:
    python3 scripts/registry-check.py [--apply] [--registry PATH] [--catalog PATH] [-v]
Exit status 1 when a check fails.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import gzip
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REGISTRY = os.path.join(HERE, "..", "crates", "magisterium", "data", "registry.json")
DEFAULT_CATALOG = "../shared/data/corpus/papal-documents-catalog/documents-index.jsonl.gz"

FIELDS = ["id", "title_la", "title_en", "names", "author", "date", "type", "url", "url_checked",
          "subjects", "source"]
TYPES = {"encyclical", "apostolic exhortation", "apostolic constitution", "dogmatic constitution",
         "pastoral constitution", "constitution", "decree", "declaration", "catechism",
         "code of canon law", "instruction", "doctrinal note", "letter", "apostolic letter",
         "motu proprio", "note"}
POPES = {  # registry author -> catalogue pope_id
    "Leo XIII": "leo-xiii", "Pius X": "pius-x", "Benedict XV": "benedict-xv", "Pius XI": "pius-xi",
    "Pius XII": "pius-xii", "John XXIII": "john-xxiii", "Paul VI": "paul-vi", "John Paul I": "john-paul-i",
    "John Paul II": "john-paul-ii", "Benedict XVI": "benedict-xvi", "Francis": "francesco", "Leo XIV": "leo-xiv",
}
OTHER_AUTHORS = {"Second Vatican Council", "Congregation for the Doctrine of the Faith",
                 "Dicastery for the Doctrine of the Faith"}
# catalogue ids whose date field is unusable AND whose file stamp is not a date
# in ddmmyyyy or yyyymmdd order: the document's own date.
DATE_OVERRIDES = {
    # "19990110" read as yyyymmdd gives 1999-01-10; the Letter to the Elderly is dated 1 October 1999.
    "hf_jp-ii_let_19990110_elderly": "1999-10-01",
}
LANG_PREFERENCE = ["en", "it", "la", "fr", "es", "pt", "de", "pl"]
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], 1)}
MONTHS.update({"mrch": 3})


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"^(pope\s+)?(pius|leo|benedict|john paul|john|paul|francis)\s+[ivxl]+\s*,\s*", "", text)
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


def rust_fold(text: str) -> str:
    """fold() of crates/magisterium/src/fold.rs: NFD, combining marks (General_Category M*)
    dropped, lower case, every run of non-alphanumerics one space, a space at each end."""
    out = [" "]
    gap = False
    for c in unicodedata.normalize("NFD", text):
        if unicodedata.category(c).startswith("M"):
            continue
        if c.isalnum():
            if gap and out[-1] != " ":
                out.append(" ")
            gap = False
            out.append(c.lower())
        else:
            gap = True
    if out[-1] != " ":
        out.append(" ")
    return "".join(out)


def is_han(c: str) -> bool:
    o = ord(c)
    return 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FA1F


def matcher_key(raw: str) -> str | None:
    """The key Name::of (registry.rs) gives a name: "abbr:CCC" for an upper-case abbreviation,
    the folded name otherwise; None when the matcher ignores the name."""
    raw = raw.strip()
    letters = sum(1 for c in raw if c.isalnum())
    if letters < 2:
        return None
    if letters <= 5 and " " not in raw and all(c.isascii() and (c.isupper() or c.isdigit()) for c in raw):
        return "abbr:" + raw
    key = rust_fold(raw)
    if not any(is_han(c) for c in key) and len(key.strip()) < 6:
        return None
    return key


SCRIPTS = [("Han", is_han), ("Bengali", lambda c: 0x0980 <= ord(c) <= 0x09FF),
           ("Devanagari", lambda c: 0x0900 <= ord(c) <= 0x097F),
           ("Latin", lambda c: c.isascii() and c.isalpha() or unicodedata.name(c, "").startswith("LATIN"))]


def script_of(name: str) -> str:
    for label, test in SCRIPTS:
        if any(test(c) for c in name):
            return label
    return "other"


def valid_iso(s: str) -> bool:
    if not ISO.match(s or ""):
        return False
    try:
        dt.date.fromisoformat(s)
        return True
    except ValueError:
        return False


def parse_free_date(s: str) -> str | None:
    """ISO from forms seen in the catalogue; None when no full date is there."""
    s = (s or "").strip()
    if valid_iso(s):
        return s
    m = re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", s)  # 28/03/1937
    if m:
        d, mo, y = map(int, m.groups())
        return _iso(y, mo, d)
    low = s.lower()
    m = re.search(r"([a-z]+),?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", low)  # April, 11 1963
    if m and m.group(1) in MONTHS:
        return _iso(int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)))
    m = re.search(r"(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+),?\s+(\d{4})", low)  # 1st November 2024
    if m and m.group(2) in MONTHS:
        return _iso(int(m.group(3)), MONTHS[m.group(2)], int(m.group(1)))
    return None


def _iso(y: int, mo: int, d: int) -> str | None:
    try:
        return dt.date(y, mo, d).isoformat()
    except ValueError:
        return None


STAMP = re.compile(r"(?:^|[_-])(\d{8})(?=[_-]|$)")


def stamp_date(stem: str) -> str | None:
    m = STAMP.search(stem)
    if not m:
        return None
    s = m.group(1)
    y, mo, d = int(s[:4]), int(s[4:6]), int(s[6:])
    if 1800 <= y <= 2100 and 1 <= mo <= 12:
        iso = _iso(y, mo, d)
        if iso:
            return iso
    d, mo, y = int(s[:2]), int(s[2:4]), int(s[4:])
    return _iso(y, mo, d)


def stem_tail(stem: str) -> str | None:
    m = STAMP.search(stem)
    if not m:
        return None
    tail = stem[m.end():].lstrip("_-")
    return tail or None


def url_stem(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1].split("#")[0].rsplit(".", 1)[0]


def url_section(url: str) -> str | None:
    m = re.search(r"/content/[^/]+/[^/]+/([^/]+)/", url)
    return m.group(1) if m else None


def load_catalog(path: str):
    by_pope = collections.defaultdict(list)
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            urls = d.get("vatican_urls") or {}
            lang = next((l for l in LANG_PREFERENCE if l in urls), next(iter(urls), None))
            d["_url"] = urls.get(lang) if lang else None
            d["_section"] = url_section(d["_url"] or "")
            d["_title"] = norm(d.get("title") or "")
            d["_tail"] = stem_tail(d["id"])
            iso = DATE_OVERRIDES.get(d["id"]) or parse_free_date(d.get("date") or "")
            d["_date_from"] = "override" if d["id"] in DATE_OVERRIDES else ("date field" if iso else "file name")
            d["_date"] = iso or stamp_date(d["id"])
            by_pope[d["pope_id"]].append(d)
    return by_pope


def load_popes_ids(catalog_path: str):
    p = os.path.join(os.path.dirname(catalog_path), "popes.json")
    ids = {}
    if os.path.exists(p):
        with open(p, encoding="utf-8") as f:
            for pope in json.load(f):
                for typ, lst in (pope.get("documents") or {}).items():
                    for i in lst:
                        ids[i] = (pope["id"], typ)
    return ids


def find_matches(row, entries):
    stem = url_stem(row["url"])
    titles = {norm(row["title_la"])} | {norm(n) for n in row["names"]}
    titles.discard("")
    tail, section = stem_tail(stem), url_section(row["url"])
    found = {}
    for d in entries:
        why = []
        if d["id"] == stem:
            why.append("stem")
        if d["_title"] and d["_title"] in titles:
            why.append("title")
        if tail and d["_tail"] == tail and d["_section"] == section:
            why.append("tail")
        if why:
            found[d["id"]] = (d, why)
    return list(found.values())


def pick(row, matches):
    """One catalogue entry for the row: stem first, then title_la, then the first."""
    stem = url_stem(row["url"])
    for d, why in matches:
        if d["id"] == stem:
            return d
    for d, why in matches:
        if d["_title"] == norm(row["title_la"]):
            return d
    return matches[0][0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--registry", default=DEFAULT_REGISTRY)
    ap.add_argument("--catalog", default=DEFAULT_CATALOG)
    ap.add_argument("--apply", action="store_true", help="write catalogue date/url/url_checked/source into the registry")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list rows without a catalogue match")
    a = ap.parse_args()

    with open(a.registry, encoding="utf-8") as f:
        rows = json.load(f)
    errors: list[str] = []
    warnings: list[str] = []

    # ---- structural checks
    if not isinstance(rows, list):
        print("registry is not a JSON array", file=sys.stderr)
        return 1
    seen_ids = collections.Counter(r.get("id") for r in rows)
    for i, c in seen_ids.items():
        if c > 1:
            errors.append(f"duplicate id {i} ({c} rows)")
    name_owner = collections.defaultdict(set)
    title_owner = collections.defaultdict(set)
    for r in rows:
        rid = r.get("id")
        if list(r.keys()) != FIELDS:
            errors.append(f"{rid}: fields {list(r.keys())} != {FIELDS}")
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rid or ""):
            errors.append(f"{rid}: id is not a lowercase slug")
        if not valid_iso(r.get("date", "")):
            errors.append(f"{rid}: date {r.get('date')!r} is not ISO YYYY-MM-DD")
        if r.get("type") not in TYPES:
            errors.append(f"{rid}: unknown type {r.get('type')!r}")
        if r.get("author") not in POPES and r.get("author") not in OTHER_AUTHORS:
            errors.append(f"{rid}: unknown author {r.get('author')!r}")
        if not isinstance(r.get("url_checked"), bool):
            errors.append(f"{rid}: url_checked is not a boolean")
        if not str(r.get("url", "")).startswith("https://"):
            errors.append(f"{rid}: url is not https")
        subj = r.get("subjects") or []
        if not (3 <= len(subj) <= 12):
            errors.append(f"{rid}: {len(subj)} subjects (want 3-12)")
        names = r.get("names") or []
        if not names or not all(isinstance(n, str) and n.strip() for n in names):
            errors.append(f"{rid}: names must be non-empty strings")
        low = [n.casefold() for n in names]
        if len(set(low)) != len(low):
            warnings.append(f"{rid}: repeated name in names")
        for n in set(low):
            name_owner[n].add(rid)
        title_owner[str(r.get("title_la", "")).casefold()].add(rid)
    for n, owners in sorted(name_owner.items()):
        if len(owners) > 1:
            errors.append(f"name {n!r} is shared by {sorted(owners)}")
    for n, owners in sorted(title_owner.items()):
        others = (owners | name_owner.get(n, set()))
        if len(others) > 1 and len(name_owner.get(n, set()) - owners) == 0 and len(owners) > 1:
            warnings.append(f"title_la {n!r} is shared by {sorted(owners)} (same incipit, different documents)")
        elif len(others) > 1:
            errors.append(f"title_la {n!r} of {sorted(owners)} is a name of {sorted(name_owner[n] - owners)}")

    # ---- names as the matcher sees them (folded; see rust_fold)
    key_owner = collections.defaultdict(set)
    key_names = collections.defaultdict(set)
    title_keys = collections.defaultdict(set)
    ignored = []
    by_script = collections.Counter()
    for r in rows:
        rid = r.get("id")
        for n in r.get("names") or []:
            if isinstance(n, str):
                by_script[script_of(n)] += 1
        for n in [r.get("title_la", ""), r.get("title_en", "")] + list(r.get("names") or []):
            if not isinstance(n, str) or not n.strip():
                continue
            k = matcher_key(n)
            if k is None:
                ignored.append(f"{rid}: {n!r}")
                continue
            key_owner[k].add(rid)
            key_names[k].add(n)
        k = matcher_key(str(r.get("title_la", "")))
        if k:
            title_keys[k].add(rid)
    for k, owners in sorted(key_owner.items()):
        if len(owners) < 2:
            continue
        if name_owner.get(k.strip().casefold(), set()) == owners or title_owner.get(k.strip(), set()) == owners:
            continue  # already reported above, by the exact-name checks
        if title_keys.get(k, set()) == owners:
            warnings.append(f"folded name {k.strip()!r} is the title of {sorted(owners)} (same incipit)")
        else:
            errors.append(f"names {sorted(key_names[k])} fold alike ({k.strip()!r}) in {sorted(owners)}")
    for i in ignored:
        warnings.append(f"name ignored by the matcher (too short once folded): {i}")

    # ---- catalogue cross-check
    catalog = load_catalog(a.catalog)
    popes_ids = load_popes_ids(a.catalog)
    matched = 0
    report = []
    for r in rows:
        pope = POPES.get(r["author"])
        if not pope:
            continue
        matches = find_matches(r, catalog.get(pope, []))
        if not matches:
            stem = url_stem(r["url"])
            extra = f" (popes.json lists id {stem} as {popes_ids[stem][1]}, not in documents-index)" if stem in popes_ids else ""
            if a.verbose or extra:
                report.append(f"  -- {r['id']}: no catalogue entry{extra}")
            if a.apply:
                r["url_checked"] = False
            continue
        d = pick(r, matches)
        matched += 1
        how = "+".join(next(w for e, w in matches if e["id"] == d["id"]))
        others = [e["id"] for e, _ in matches if e["id"] != d["id"]]
        line = (f"  ok {r['id']}: {d['id']} [{how}] date {d['_date']} ({d['_date_from']}"
                f"{'; raw ' + repr(d.get('date')) if d['_date_from'] != 'date field' else ''}) url {d['_url']}")
        if others:
            line += f"  (also matched: {', '.join(others)})"
        diffs = []
        if d["_date"] and r["date"] != d["_date"]:
            diffs.append(f"date {r['date']} -> {d['_date']}")
        if d["_url"] and r["url"] != d["_url"]:
            diffs.append(f"url {r['url']} -> {d['_url']}")
        src = f"catalogue: corpus/papal-documents-catalog {d['id']}"
        if r["source"] != src or not r["url_checked"]:
            diffs.append("source/url_checked")
        if diffs:
            line += "\n       " + ("applied: " if a.apply else "to apply: ") + "; ".join(diffs)
        report.append(line)
        if not d["_date"]:
            errors.append(f"{r['id']}: catalogue entry {d['id']} has no usable date")
        if a.apply:
            if d["_date"]:
                r["date"] = d["_date"]
            if d["_url"]:
                r["url"] = d["_url"]
            r["url_checked"] = True
            r["source"] = src

    pending = [ln for ln in report if "to apply:" in ln]
    print("Catalogue cross-check (rows by a pope):")
    print("\n".join(report) if report else "  (none)")

    if a.apply:
        with open(a.registry, "w", encoding="utf-8") as f:
            json.dump(rows, f, ensure_ascii=False, indent=1)
            f.write("\n")
        print(f"\nwritten: {a.registry}")

    # ---- counts
    print(f"\nrows: {len(rows)}")
    for label, key in (("by type", "type"), ("by author", "author")):
        c = collections.Counter(r[key] for r in rows)
        print(f"{label}:")
        for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {v:4d}  {k}")
    print("names by script:")
    for label, v in sorted(by_script.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {v:4d}  {label}")
    print(f"matched in catalogue: {matched}")
    print(f"url_checked true: {sum(1 for r in rows if r['url_checked'])}")
    print(f"url_checked false: {sum(1 for r in rows if not r['url_checked'])}")
    if pending and not a.apply:
        print(f"catalogue facts not yet applied: {len(pending)} rows (run with --apply)")
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)
    return 1 if errors or (pending and not a.apply) else 0


if __name__ == "__main__":
    sys.exit(main())
