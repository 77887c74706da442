//! The five directory look-ups (`saint_lookup`, `person_lookup`, `pope_lookup`,
//! `diocese_lookup`, `diocese_statistics_lookup`) over one shared
//! [`ecclesia_directory::Directory`].

use crate::SkillEnv;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Ingester, QueryOrId, Skill, SkillContext, SkillError, SkillRegistry,
    SkillRequest,
};
use ecclesia_directory::{
    Directory, DirectoryError, DirectoryIngester, Kind, Lookup, INGESTER_NAME,
};
use std::sync::{Arc, OnceLock};

/// The directory ingester.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    vec![Box::new(DirectoryIngester::default())]
}

/// The open directory of this deployment, shared by the look-ups and
/// `saints_of_the_day`; `None` when the store was not built or cannot be opened.
pub fn shared_directory(env: &SkillEnv) -> Option<Arc<Directory>> {
    static OPEN: crate::OpenStores<Directory> = OnceLock::new();
    crate::shared_store(&OPEN, env.store(INGESTER_NAME)?, |dir| {
        Directory::open(dir)
            .map_err(|e| tracing::warn!("directory store {} unreadable: {e}", dir.display()))
            .ok()
    })
}

/// Register the five look-ups when the directory store is built.
pub fn register(reg: &mut SkillRegistry, env: &SkillEnv) {
    match shared_directory(env) {
        Some(d) => register_with(reg, d),
        None => tracing::warn!("directory store not built or unreadable: the five directory look-ups are off (run `ecclesia ingest`)"),
    }
}

/// Register the five look-ups over an opened directory.
pub fn register_with(reg: &mut SkillRegistry, dir: Arc<Directory>) {
    for kind in [Kind::Saint, Kind::Person, Kind::Pope, Kind::Diocese] {
        reg.register(LookupSkill {
            dir: dir.clone(),
            kind,
        });
    }
    reg.register(StatisticsSkill { dir });
}

fn map_err(e: DirectoryError) -> SkillError {
    match e {
        DirectoryError::InvalidInput(m) => SkillError::InvalidParams(m),
        DirectoryError::NotBuilt(m) => SkillError::Unavailable(m),
        DirectoryError::Store(m) => SkillError::Internal(m),
    }
}

/// One of the four profile look-ups.
pub struct LookupSkill {
    dir: Arc<Directory>,
    kind: Kind,
}

impl LookupSkill {
    fn spec(&self) -> (&'static str, &'static str, &'static str, &'static str) {
        // (skill id, id field, artifact name, what)
        match self.kind {
            Kind::Saint => ("saint_lookup", "saint_id", "saint_profile", "saint"),
            Kind::Person => ("person_lookup", "person_id", "person_profile", "person"),
            Kind::Pope => ("pope_lookup", "pope_id", "pope_profile", "pope"),
            Kind::Diocese => (
                "diocese_lookup",
                "source_code",
                "diocese_profile",
                "diocese",
            ),
        }
    }
}

impl Skill for LookupSkill {
    fn card(&self) -> AgentSkill {
        match self.kind {
            Kind::Saint => skill_card(
                "saint_lookup",
                "Saint lookup",
                "Look up a saint, blessed, venerable or servant of God: status, vocation, life and death, feast days, Martyrology entry and elogium. Input: a name as text or data.query, or data.saint_id.",
                &["saints", "directory"],
                &["Therese of Lisieux", "St. Jerome", "Padre Pio"],
            ),
            Kind::Person => skill_card(
                "person_lookup",
                "Clergy lookup",
                "Look up a Catholic cleric (cardinal, archbishop, bishop): position, ordination, consecration, cardinal elevation, episcopal lineage both ways. Input: a name as text or data.query, or data.person_id.",
                &["clergy", "directory"],
                &["Cardinal Tagle", "Wilton Gregory"],
            ),
            Kind::Pope => skill_card(
                "pope_lookup",
                "Pope lookup",
                "Look up one of the 267 popes: regnal and birth names, origin, pontificate (start, end, how it ended, date precision), canonization status. Input: a name as text or data.query, or data.pope_id.",
                &["popes", "directory"],
                &["Pope Francis", "John Paul II", "Benedict the Sixteenth"],
            ),
            Kind::Diocese => skill_card(
                "diocese_lookup",
                "Diocese lookup",
                "Look up a diocese, archdiocese or other jurisdiction: type, country, province, cathedral, current bishop, recent statistics and latest financials when loaded. Input: a name as text or data.query, or data.source_code.",
                &["dioceses", "directory"],
                &["Archdiocese of Manila", "Diocese of Raleigh"],
            ),
        }
    }

    /// A look-up is the in-memory name index and one row of the directory's SQLite file.
    fn is_instant(&self) -> bool {
        true
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let (_, id_key, name, _) = self.spec();
        let what = req.query_or_id(id_key)?;
        ctx.check()?;
        let lookup = match &what {
            QueryOrId::Id(id) => Lookup::Id(id),
            QueryOrId::Query(q) => Lookup::Query(q),
        };
        let out = self.dir.lookup(self.kind, lookup).map_err(map_err)?;
        Ok(vec![artifact(name, vec![Part::data(out.to_json())])])
    }
}

/// `diocese_statistics_lookup`: the 19-metric yearly series.
pub struct StatisticsSkill {
    dir: Arc<Directory>,
}

impl Skill for StatisticsSkill {
    fn card(&self) -> AgentSkill {
        skill_card(
            "diocese_statistics_lookup",
            "Diocese statistics",
            "A diocese's yearly statistics, all 19 metrics (Catholics, population, priests, deacons, religious, parishes, baptisms, …), for an inclusive year range. Input: data.source_code or data.query (or text), optional data.start_year and data.end_year.",
            &["dioceses", "statistics", "directory"],
            &["{\"source_code\": \"manila_ph\", \"start_year\": 2010, \"end_year\": 2024}"],
        )
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let what = req.query_or_id("source_code")?;
        let start = req.int_field("start_year")?;
        let end = req.int_field("end_year")?;
        ctx.check()?;
        let lookup = match &what {
            QueryOrId::Id(id) => Lookup::Id(id),
            QueryOrId::Query(q) => Lookup::Query(q),
        };
        let out = self
            .dir
            .statistics_series(lookup, start, end)
            .map_err(map_err)?;
        Ok(vec![artifact(
            "diocese_statistics_time_series",
            vec![Part::data(out.to_json())],
        )])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ecclesia_core::{IngestContext, NoProgress};
    use serde_json::{json, Value};

    /// The directory built once per test binary from the shared data (plus a
    /// tiny synthetic operator file), shared with the liturgy tests.
    pub(crate) fn test_directory() -> Arc<Directory> {
        static D: OnceLock<Arc<Directory>> = OnceLock::new();
        D.get_or_init(|| {
            // One folder beside the test binary (target/debug), emptied at
            // each run: a TempDir in a static is never dropped.
            let tmp = std::env::current_exe()
                .unwrap()
                .parent()
                .and_then(|deps| deps.parent())
                .unwrap()
                .join("tmp-skills-directory");
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).unwrap();
            // clearly synthetic figures for one real see, written for this test only
            let ops = tmp.join("operator");
            std::fs::create_dir_all(&ops).unwrap();
            std::fs::write(
                ops.join("statistics-test.csv"),
                "source_code,year,catholics,total_population,parishes,baptisms\n\
                 manila_ph,2020,1000,2000,10,5\nmanila_ph,2021,1100,2100,11,6\nmanila_ph,2022,1200,2200,12,7\n",
            )
            .unwrap();
            std::fs::write(
                ops.join("financials-test.jsonl"),
                "{\"source_code\":\"manila_ph\",\"fiscal_year\":2022,\"currency\":\"PHP\",\"total_revenue\":100,\"total_expenses\":90}\n",
            )
            .unwrap();
            let out = tmp.join("store");
            let data = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"));
            let ctx = IngestContext { data_dir: data, out_dir: out.clone(), progress: &NoProgress };
            DirectoryIngester::with_extra(vec![ops]).ingest(&ctx).unwrap();
            Arc::new(Directory::open(&out).unwrap())
        })
        .clone()
    }

    fn registry() -> &'static SkillRegistry {
        static R: OnceLock<SkillRegistry> = OnceLock::new();
        R.get_or_init(|| {
            let mut reg = SkillRegistry::default();
            register_with(&mut reg, test_directory());
            reg
        })
    }

    fn call(skill: &str, parts: Vec<Part>) -> Result<(String, Value), SkillError> {
        let req = SkillRequest::from_parts(&parts).unwrap();
        let out = registry()
            .get(skill)
            .unwrap()
            .run(&req, &SkillContext::default())?;
        assert_eq!(out.len(), 1);
        let a = &out[0];
        let Part::Data { data, .. } = &a.parts[0] else {
            panic!("not a data part")
        };
        Ok((a.name.clone().unwrap(), Value::Object(data.clone())))
    }

    #[test]
    fn five_skills_with_their_artifacts() {
        let (n, v) = call("saint_lookup", vec![Part::text("Thérèse de Lisieux")]).unwrap();
        assert_eq!(n, "saint_profile");
        assert_eq!(v["saint_id"], "therese-of-lisieux");
        let (n, v) = call(
            "pope_lookup",
            vec![Part::data(json!({"pope_id": "benedict-xvi"}))],
        )
        .unwrap();
        assert_eq!(n, "pope_profile");
        assert_eq!(v["papal_name"], "Benedict XVI");
        let (n, v) = call(
            "person_lookup",
            vec![Part::data(json!({"query": "Cardinal Tagle"}))],
        )
        .unwrap();
        assert_eq!(n, "person_profile");
        assert_eq!(v["person_id"], "luis-antonio-tagle");
        let (n, v) = call("diocese_lookup", vec![Part::text("Archdiocese of Manila")]).unwrap();
        assert_eq!(n, "diocese_profile");
        assert_eq!(v["source_code"], "manila_ph");
        assert_eq!(v["recent_statistics"][0]["year"], 2022);
        assert_eq!(v["recent_statistics"][0]["catholics"], 1200);
        assert_eq!(v["latest_financials"]["currency"], "PHP");
        let (n, v) = call(
            "diocese_statistics_lookup",
            vec![Part::data(
                json!({"source_code": "manila_ph", "start_year": 2021, "end_year": 2024}),
            )],
        )
        .unwrap();
        assert_eq!(n, "diocese_statistics_time_series");
        assert_eq!(v["year_range"], json!({"start": 2021, "end": 2024}));
        assert_eq!(v["rows"].as_array().unwrap().len(), 2);
        assert_eq!(v["rows"][0]["seminarians"], Value::Null);
        assert_eq!(v["rows"][0].as_object().unwrap().len(), 21);
    }

    #[test]
    fn not_found_hints_and_invalid_params() {
        let (_, v) = call("person_lookup", vec![Part::text("Pope Francis")]).unwrap();
        assert_eq!(
            v,
            json!({"error": "not_found", "query": "Pope Francis", "hint": ecclesia_directory::HINT_POPE})
        );
        let (_, v) = call("pope_lookup", vec![Part::text("Cardinal Tagle")]).unwrap();
        assert_eq!(v["hint"], ecclesia_directory::HINT_PERSON);
        let (_, v) = call(
            "saint_lookup",
            vec![Part::data(json!({"saint_id": "no-such-saint"}))],
        )
        .unwrap();
        assert_eq!(v, json!({"error": "not_found", "query": "no-such-saint"}));
        for s in [
            "saint_lookup",
            "person_lookup",
            "pope_lookup",
            "diocese_lookup",
            "diocese_statistics_lookup",
        ] {
            assert!(
                matches!(
                    call(s, vec![Part::data(json!({"start_year": 2020}))]),
                    Err(SkillError::InvalidParams(_))
                ),
                "{s}"
            );
        }
        assert!(matches!(
            call(
                "diocese_statistics_lookup",
                vec![Part::data(
                    json!({"source_code": "manila_ph", "start_year": 2024, "end_year": 2020})
                )]
            ),
            Err(SkillError::InvalidParams(_))
        ));
    }
}
