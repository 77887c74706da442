#!/usr/bin/env python3
"""Per-day comparison of our calendar jsonl with a romcal 3 dump (tools/romcal_dump.js).

Not part of the test suite (romcal is an npm package, not installed in CI). Usage:
  python3 compare_romcal.py ours.jsonl romcal.jsonl [--examples N] [--only FIELD]
Celebrations are matched by a key map learned from co-occurrence on the same date over the whole
range (ties broken by name similarity), so the map needs no hand-written table. Our side is identified
by key (+ weekday for the Christmas weekdays after Epiphany, whose keys count by position).
"""
import json, re, sys, collections

COLOR = {"PURPLE": "VIOLET", "ROSE": "ROSE", "WHITE": "WHITE", "RED": "RED", "GREEN": "GREEN",
         "BLACK": "BLACK", "GOLD": "WHITE"}
SEASON = {"ADVENT": "ADVENT", "CHRISTMAS_TIME": "CHRISTMAS", "ORDINARY_TIME": "ORDINARY_TIME",
          "LENT": "LENT", "PASCHAL_TRIDUUM": "PASCHAL_TRIDUUM", "EASTER_TIME": "EASTER"}
CYCLE = {"YEAR_A": "A", "YEAR_B": "B", "YEAR_C": "C", "YEAR_1": "I", "YEAR_2": "II"}


def toks(s):
    return set(w for w in re.split(r"[^a-z]+", (s or "").lower()) if len(w) > 2)


def ident(c):
    if "AfterEpiphany" in c["key"]:
        return c["key"] + "|" + c["name"].split()[0]
    return c["key"]


def load(path):
    with open(path) as f:
        return {d["date"]: d for d in map(json.loads, f)}


def learn_map(ours, rom):
    cooc = collections.Counter()
    names_o, names_r = {}, {}
    for date, o in ours.items():
        r = rom.get(date)
        if not r:
            continue
        for co in o["celebrations"]:
            names_o[ident(co)] = co["name"]
            for cr in r["celebrations"]:
                names_r[cr["id"]] = cr["name"]
                cooc[(ident(co), cr["id"])] += 1
    scored = []
    for (k, i), n in cooc.items():
        a, b = toks(names_o[k]), toks(names_r[i])
        sim = len(a & b) / max(1, len(a | b))
        scored.append((n + sim, k, i))
    scored.sort(reverse=True)
    m = {}
    for _, k, i in scored:
        m.setdefault(k, i)
    return m


def main():
    ours, rom = load(sys.argv[1]), load(sys.argv[2])
    nex = int(sys.argv[sys.argv.index("--examples") + 1]) if "--examples" in sys.argv else 4
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    kmap = learn_map(ours, rom)
    fields = ["celebrated", "rank", "color", "season", "week", "sunday_cycle", "weekday_cycle", "optional_set"]
    agree = collections.Counter()
    cats = collections.defaultdict(list)
    n = 0
    for date in sorted(ours):
        o, r = ours[date], rom.get(date)
        if r is None:
            continue
        n += 1
        oc, rc = o["celebrations"][0], r["celebrations"][0]
        vals = {
            "celebrated": (kmap.get(ident(oc), "?" + ident(oc)), rc["id"]),
            "rank": (oc["rank"], rc["rank"]),
            "color": (oc["color"], COLOR.get((rc["colors"] or ["NONE"])[0], (rc["colors"] or ["NONE"])[0])),
            "season": (o["season"], SEASON.get((r["season"] or ["NONE"])[0], "NONE")),
            "week": (o["week_of_season"], r["week"]),
            "sunday_cycle": (o["sunday_cycle"], CYCLE.get(r["sunday_cycle"])),
            "weekday_cycle": (o["weekday_cycle"], CYCLE.get(r["weekday_cycle"])),
            "optional_set": (sorted(kmap.get(ident(c), "?" + ident(c)) for c in o["celebrations"][1:]),
                             sorted(c["id"] for c in r["celebrations"][1:])),
        }
        for f in fields:
            a, b = vals[f]
            if a == b:
                agree[f] += 1
                continue
            if f == "optional_set":
                sig = ("+ours " + ",".join(sorted(set(a) - set(b))), "+romcal " + ",".join(sorted(set(b) - set(a))))
            elif f in ("celebrated",):
                sig = (a, b)
            else:
                sig = (f"{a}", f"{b}", oc["key"])
            cats[(f, sig)].append(date)
    print(f"days compared: {n}")
    for f in fields:
        print(f"  {f:14} agree {agree[f]:6} ({100*agree[f]/n:.2f}%)  differ {n-agree[f]}")
    for f in fields:
        if only and f != only:
            continue
        items = [(k, v) for k, v in cats.items() if k[0] == f]
        if not items:
            continue
        print(f"\n== {f}: {sum(len(v) for _, v in items)} days in {len(items)} categories")
        for (ff, sig), dates in sorted(items, key=lambda kv: -len(kv[1])):
            print(f"  {len(dates):5}  ours={sig[0]!s:40} romcal={sig[1]!s:40} {sig[2] if len(sig) > 2 else ''}  e.g. {', '.join(dates[:nex])}")


if __name__ == "__main__":
    main()
