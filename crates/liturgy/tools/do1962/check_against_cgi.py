#!/usr/bin/env python3
"""Cross-check reference.pl's table against Divinum Officium's rendered Mass page.

Usage: check_against_cgi.py DO_CHECKOUT TABLE.tsv[.gz] [N_RANDOM_DAYS]

Runs DO's own CGI script (web/cgi-bin/missa/missa.pl) for N random days (default 110)
plus every day with several Masses or a commemoration, strips the HTML and compares:
title (page head), class, commemorations ("Commemoratio X" lines of the Latin Collect),
the Lesson and Gospel citations (first citation line after the Latin "Lectio" /
"Evangelium" headings). Days without an "Evangelium" heading (Good Friday, Holy
Saturday: "Full text" rite) are compared on title/class/commemorations only.
Prints the differing days and a count; exit status 1 if any differ.
Known expected difference: 10-07 (Rosary) - the Latin Gospel is "missing" in DO
(bad include @Sancti/9-12), so the first citation found is the English column's.
"""
import csv, gzip, html, random, re, subprocess, sys

do, table = sys.argv[1], sys.argv[2]
n_random = int(sys.argv[3]) if len(sys.argv) > 3 else 110
missa_dir = f"{do.rstrip('/')}/web/cgi-bin/missa"
opener = gzip.open if table.endswith('.gz') else open
with opener(table, 'rt', encoding='utf-8') as f:
    rows = {r[0]: r for r in csv.reader(f, delimiter='\t', quoting=csv.QUOTE_NONE) if r[0] != 'date'}
dates = sorted(rows)
random.seed(1962)
sample = set(random.sample(dates, min(n_random, len(dates))))
sample |= {d for d in dates if rows[d][7] != '1' or rows[d][4]}
cit = re.compile(r'^\s*((?:[1-4]\.?\s*)?[^\W\d_][\w\.]*,?\s*\d+\s*[:.,]\s*\d.*?)\s*$')
bad = 0
for d in sorted(sample):
    y, m, dd = d.split('-')
    out = subprocess.run(['perl', 'missa.pl', f'date={m}-{dd}-{y}', 'version=Rubrics 1960 - 1960',
                          'lang1=Latin', 'lang2=English', 'command=praySanctaMissa'],
                         cwd=missa_dir, capture_output=True).stdout.decode('utf-8')
    lines = [html.unescape(l).replace('\xa0', ' ').strip() for l in re.sub(r'<[^>]*>', '\n', out).split('\n')]
    lines = [l for l in lines if l]
    head = next(l for l in lines if ' ~ ' in l)
    title, cls = head.split(' ~ ', 1)
    mc = re.search(r'\b(I{1,3}|IV)\. classis', cls)
    r = rows[d]
    ep = ev = comm = None
    if 'Evangelium' in lines:
        ev_i = lines.index('Evangelium')
        li = max(i for i, l in enumerate(lines[:ev_i]) if l == 'Lectio')
        ep = next((l for l in lines[li + 1:ev_i] if cit.match(l) and not re.match('L[ée]ctio', l)), '')
        end = next(i for i in range(ev_i + 1, len(lines)) if lines[i] in ('Credo', 'Offertorium'))
        ev = next((l for l in lines[ev_i + 1:end] if cit.match(l)), '')
        or_i = lines.index('Oratio') if 'Oratio' in lines else 0
        comm = []
        for l in lines[or_i:li]:
            if l.startswith('Commemoratio ') and l[13:].strip() not in comm:
                comm.append(l[13:].strip())
        comm = ' | '.join(comm)
    mine = (r[1], r[2], r[4], r[5], r[6])
    theirs = (title.strip(), mc.group(1) if mc else cls, r[4] if comm is None else comm,
              r[5] if ep is None else ep, r[6] if ev is None else ev)
    if mine != theirs:
        bad += 1
        print('DIFF', d, '\n  table', mine, '\n  cgi  ', theirs)
print('checked', len(sample), 'days; differing:', bad)
sys.exit(1 if bad else 0)
