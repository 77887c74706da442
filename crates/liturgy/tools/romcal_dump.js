// node dump.js general-roman|us FROM TO > out.jsonl
const Romcal = require('romcal');
const { GeneralRoman_En } = require('@romcal/calendar.general-roman');
const { UnitedStates_En } = require('@romcal/calendar.united-states');
(async () => {
  const [cal, from, to] = [process.argv[2], +process.argv[3], +process.argv[4]];
  const r = new Romcal({ localizedCalendar: cal === 'us' ? UnitedStates_En : GeneralRoman_En });
  for (let y = from; y <= to; y++) {
    const c = await r.generateCalendar(y);
    for (const date of Object.keys(c).sort()) {
      const ds = c[date];
      const out = {
        date,
        season: ds[0].seasons,
        week: ds[0].calendar.weekOfSeason,
        sunday_cycle: ds[0].cycles.sundayCycle,
        weekday_cycle: ds[0].cycles.weekdayCycle,
        celebrations: ds.map((x) => ({ id: x.id, name: x.name, rank: x.rank, colors: x.colors, optional: x.isOptional, precedence: x.precedence, seasons: x.seasons, periods: x.periods })),
      };
      process.stdout.write(JSON.stringify(out) + '\n');
    }
  }
})();
