// Regenerate tests/fixtures/romcal-nations/ (romcal 3's calendars 2026-2030 for every nation of
// data/nations.tsv, run with that table's Sunday transfers):
//   cd "$ROMCAL_DIR" && npm install romcal@3.0.0 @romcal/calendar.general-roman \
//       @romcal/calendar.<each romcal name in data/nations.tsv> @romcal/calendar.europe @romcal/calendar.americas --legacy-peer-deps
//   NODE_PATH="$ROMCAL_DIR/node_modules" node tools/romcal_nations_fixture.js crates/liturgy
// ($ROMCAL_DIR: any scratch folder outside the checkout.)
// Writes general-roman.tsv.gz (date, first celebration id, seasons (comma-separated) of every day) and nations.tsv.gz
// (calendar, date, id, season: only the days where a nation differs from the General Roman one).
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const Romcal = require('romcal');
const [FROM, TO] = [2026, 2030];
const crate = process.argv[2] || '.';
const rows = fs.readFileSync(path.join(crate, 'data/nations.tsv'), 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#') && !l.startsWith('id\t')).map((l) => l.split('\t'));

function bundle(romcalName) {
  const m = require('@romcal/calendar.' + romcalName);
  const k = Object.keys(m).find((x) => x.endsWith('_En'));
  return m[k];
}

async function days(localizedCalendar, settings) {
  const r = new Romcal({ localizedCalendar, ...settings });
  const out = new Map();
  for (let y = FROM; y <= TO; y++) {
    const c = await r.generateCalendar(y);
    for (const date of Object.keys(c).sort()) {
      const d = c[date][0];
      out.set(date, [d.id, (d.seasons || []).join(',') || 'NONE']);
    }
  }
  return out;
}

(async () => {
  const general = await days(bundle('general-roman'), {});
  const gLines = [...general].map(([date, [id, season]]) => `${date}\t${id}\t${season}`);
  const nLines = [];
  for (const [id, , romcalName, , , epiphany, ascension, corpus] of rows) {
    const settings = {
      epiphanyOnSunday: epiphany === 'sunday',
      ascensionOnSunday: ascension === 'sunday',
      corpusChristiOnSunday: corpus === 'sunday',
    };
    const nat = await days(bundle(romcalName), settings);
    for (const [date, [cid, season]] of nat) {
      const g = general.get(date);
      if (!g || g[0] !== cid || g[1] !== season) nLines.push(`${id}\t${date}\t${cid}\t${season}`);
    }
    process.stderr.write(`${id} done\n`);
  }
  const dir = path.join(crate, 'tests/fixtures/romcal-nations');
  fs.mkdirSync(dir, { recursive: true });
  const head = `# romcal ${require('romcal/package.json').version}, ${FROM}-${TO}; regenerate with tools/romcal_nations_fixture.js\n`;
  fs.writeFileSync(path.join(dir, 'general-roman.tsv.gz'), zlib.gzipSync(head + gLines.join('\n') + '\n', { level: 9 }));
  fs.writeFileSync(path.join(dir, 'nations.tsv.gz'), zlib.gzipSync(head + nLines.join('\n') + '\n', { level: 9 }));
  process.stderr.write(`${gLines.length} general days, ${nLines.length} national differences\n`);
})();
