//! `liturgical_readings` and `saints_of_the_day`: thin adapters over [`ecclesia_liturgy::Liturgy`].

use crate::SkillEnv;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Choice, Ingester, Skill, SkillContext, SkillError, SkillRegistry,
    SkillRequest,
};
use ecclesia_directory::{elogium, Directory};
use ecclesia_liturgy::{Liturgy, LiturgyError, LiturgyIngester};
use serde_json::{json, Value};
use std::sync::Arc;

/// Exact text when a date has no readings.
pub const NO_READINGS: &str = "No mass readings found.";
/// Exact text when a date has no Martyrology entry.
pub const NO_MARTYROLOGY: &str = "No martyrology data found.";

/// The liturgy ingester.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    vec![Box::new(LiturgyIngester)]
}

/// The English name of a national calendar (`pl` → `Poland`), for labels.
pub fn nation_name(id: &str) -> Option<String> {
    static NAMES: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(
            || match ecclesia_liturgy::calendar::romcal_nations::nations() {
                Ok(v) => v.into_iter().map(|n| (n.id, n.name)).collect(),
                Err(e) => {
                    tracing::error!("national calendars: {e}");
                    Vec::new()
                }
            },
        )
        .iter()
        .find(|(i, _)| i == id)
        .map(|(_, n)| n.clone())
}

/// A calendar's label for a person and its place in a list: the General
/// Roman Calendar, the 1962 Missal, the nations by name, then the dioceses.
pub fn calendar_label(id: &str) -> (u8, String) {
    match id {
        "general-roman" => (0, "General Roman Calendar".into()),
        "1962" => (1, "1962 Missal (usus antiquior)".into()),
        _ => match nation_name(id) {
            Some(n) => (2, n),
            None => match id.rsplit_once('-') {
                Some((d, cc)) => (
                    3,
                    format!(
                        "Diocese: {d} ({})",
                        nation_name(cc).unwrap_or_else(|| cc.to_uppercase())
                    ),
                ),
                None => (2, id.to_string()),
            },
        },
    }
}

/// Register both skills when the datasets load.
pub fn register(reg: &mut SkillRegistry, env: &SkillEnv) {
    let t = std::time::Instant::now();
    match Liturgy::load(&env.data_dir) {
        Ok(l) => {
            let shared = Arc::new(l);
            tracing::info!("liturgy data loaded in {:?}", t.elapsed());
            reg.register(LiturgicalReadings {
                lit: shared.clone(),
                env: DateEnv::from(env),
            });
            let dir = crate::directory::shared_directory(env);
            if dir.is_none() {
                tracing::warn!("saints_of_the_day: no directory store, entries keep saint_id null");
            }
            reg.register(SaintsOfTheDay {
                lit: shared.clone(),
                env: DateEnv::from(env),
                dir,
            });
            reg.register_feed(crate::calendar_feed::CalendarFeed {
                lit: shared,
                env: DateEnv::from(env),
            });
        }
        Err(e) => tracing::warn!("liturgy skills not registered: {e}"),
    }
}

/// Where "today" comes from, and the default calendar and translation.
#[derive(Debug, Clone)]
pub struct DateEnv {
    today: Option<chrono::NaiveDate>,
    timezone: String,
    calendar: Option<String>,
    translation: Option<String>,
}

impl From<&SkillEnv> for DateEnv {
    fn from(env: &SkillEnv) -> Self {
        let section = env.section("liturgy");
        DateEnv {
            today: env.today,
            timezone: if env.timezone.is_empty() {
                "UTC".into()
            } else {
                env.timezone.clone()
            },
            calendar: section
                .get("calendar")
                .and_then(|v| v.as_str())
                .map(str::to_string),
            translation: section
                .get("translation")
                .and_then(|v| v.as_str())
                .map(str::to_string),
        }
    }
}

impl DateEnv {
    /// The configured default calendar (`[liturgy] calendar`).
    pub(crate) fn calendar(&self) -> Option<&str> {
        self.calendar.as_deref()
    }

    pub(crate) fn today(&self) -> chrono::NaiveDate {
        self.today
            .unwrap_or_else(|| ecclesia_liturgy::clock::today_in(&self.timezone))
    }
}

pub(crate) fn map_err(e: LiturgyError) -> SkillError {
    if e.is_user_error() {
        SkillError::InvalidParams(e.to_string())
    } else {
        SkillError::internal(e)
    }
}

fn resolve(
    lit: &Liturgy,
    env: &DateEnv,
    req: &SkillRequest,
    calendar: Option<&str>,
) -> Result<chrono::NaiveDate, SkillError> {
    let input = req.date_input()?;
    lit.resolve_date(&input.phrase, env.today(), calendar)
        .map_err(map_err)
}

/// `liturgical_readings`.
pub struct LiturgicalReadings {
    lit: Arc<Liturgy>,
    env: DateEnv,
}

impl Skill for LiturgicalReadings {
    fn card(&self) -> AgentSkill {
        skill_card(
            "liturgical_readings",
            "Mass readings for a date",
            "The liturgical day (celebration, rank, season and week, colour, Sunday and weekday cycles) and the Mass readings with their text, for a date phrase such as \"today\", \"next Sunday\", \"Easter Sunday 2026\", \"2026-03-19\". Optional data: calendar (general-roman; a nation by its ISO 3166 code: us, pl, br, ph, ie, gb-eng, …; a diocese: boston-us, …; or 1962 for the 1962 Missal: class, colour, commemorations, Latin proper, Epistle and Gospel in Douay-Rheims; or name it in the phrase: \"next Sunday in the 1962 calendar\"), translation (cpdv, douay-rheims).",
            &["liturgy", "readings", "calendar", "lectionary"],
            &["today", "next Sunday", "Easter Sunday 2026", "Ash Wednesday 2027", "2026-03-19"],
        )
    }

    fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let asked = req.str_field("calendar")?;
        let translation = req.str_field("translation")?;
        let phrase = req.date_input()?.phrase;
        // "next Sunday in the 1962 calendar": the phrase names the calendar.
        let named = asked
            .is_none()
            .then(|| ecclesia_liturgy::missal1962::phrases::strip_calendar_name(&phrase))
            .flatten();
        let (calendar, phrase) = match named {
            Some(rest) => (
                Some(ecclesia_liturgy::missal1962::CALENDAR_ID.to_string()),
                rest,
            ),
            None => (asked.or_else(|| self.env.calendar.clone()), phrase),
        };
        let date = self
            .lit
            .resolve_date(&phrase, self.env.today(), calendar.as_deref())
            .map_err(map_err)?;
        if Liturgy::is_1962(calendar.as_deref()) {
            let answer = self
                .lit
                .readings_1962(date, translation.as_deref())
                .map_err(map_err)?;
            let name = self.lit.translation_name(&answer.translation);
            return Ok(vec![artifact(
                "mass_readings",
                vec![Part::text(answer.text(&name)), Part::data(answer.data())],
            )]);
        }
        let translation = translation.or_else(|| self.env.translation.clone());
        let answer = self
            .lit
            .readings(date, calendar.as_deref(), translation.as_deref())
            .map_err(map_err)?;
        if answer.is_empty() {
            return Ok(vec![artifact(
                "mass_readings",
                vec![Part::text(NO_READINGS)],
            )]);
        }
        let name = self.lit.translation_name(&answer.translation);
        Ok(vec![artifact(
            "mass_readings",
            vec![Part::text(answer.text(&name)), Part::data(answer.data())],
        )])
    }

    fn choices(&self, field: &str) -> Vec<Choice> {
        let choice = |id: String, label: String| Choice { id, label };
        match field {
            "calendar" => {
                let mut v: Vec<(u8, Choice)> = self
                    .lit
                    .calendar_ids()
                    .into_iter()
                    .map(|id| {
                        let (rank, label) = calendar_label(&id);
                        (rank, choice(id, label))
                    })
                    .collect();
                v.sort_by(|a, b| (a.0, &a.1.label).cmp(&(b.0, &b.1.label)));
                v.into_iter().map(|(_, c)| c).collect()
            }
            "translation" => self
                .lit
                .translation_ids()
                .into_iter()
                .map(|id| {
                    let label = self.lit.translation_name(&id);
                    choice(id, label)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// `saints_of_the_day`.
pub struct SaintsOfTheDay {
    lit: Arc<Liturgy>,
    env: DateEnv,
    /// The saints directory, to link the commemorated saints; `None` = no links.
    dir: Option<Arc<Directory>>,
}

impl SaintsOfTheDay {
    /// The data part's `entries` (with `saint_id`/`saint_name` where linked)
    /// and the `saints` list of every linked saint of the day.
    fn link(
        &self,
        date: chrono::NaiveDate,
        day: &ecclesia_liturgy::martyrology::MartyrologyDay,
        ctx: &SkillContext,
    ) -> Result<(Vec<Value>, Vec<Value>), SkillError> {
        use chrono::Datelike;
        let mut days = vec![(date.month(), date.day())];
        // the day whose entries are read (late February of leap years)
        if let Some((m, d)) = day.source_day.split_once('-') {
            if let (Ok(m), Ok(d)) = (m.parse::<u32>(), d.parse::<u32>()) {
                if !days.contains(&(m, d)) {
                    days.push((m, d));
                }
            }
        }
        ctx.check()?;
        let kept = match &self.dir {
            Some(dir) => elogium::link_entries(dir, &day.entries, &days),
            None => vec![Vec::new(); day.entries.len()],
        };
        ctx.check()?;
        let mut entries = Vec::new();
        let mut saints: Vec<Value> = Vec::new();
        for (i, (e, ls)) in day.entries.iter().zip(&kept).enumerate() {
            for l in ls {
                if !saints.iter().any(|s| s["saint_id"] == l.saint_id.as_str()) {
                    saints.push(
                        json!({"saint_id": l.saint_id, "name": l.primary_name, "position": i + 1}),
                    );
                }
            }
            entries.push(match ls.first() {
                Some(l) => {
                    json!({"position": i + 1, "text": e, "saint_id": l.saint_id, "saint_name": l.primary_name})
                }
                None => json!({"position": i + 1, "text": e, "saint_id": null}),
            });
        }
        Ok((entries, saints))
    }
}

impl Skill for SaintsOfTheDay {
    fn card(&self) -> AgentSkill {
        skill_card(
            "saints_of_the_day",
            "Roman Martyrology of a date",
            "The Roman Martyrology entry of a date (English 1908 edition; Latin 1749 with data.language \"la\"), with the traditional leap-year shift of late February. Input: data.date (ISO) or a date phrase.",
            &["liturgy", "saints", "martyrology"],
            &["today", "2026-03-19", "tomorrow"],
        )
    }

    fn run(&self, req: &SkillRequest, ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let language = req
            .str_field("language")?
            .unwrap_or_else(|| "en".into())
            .to_lowercase();
        let language = match language.as_str() {
            "en" | "english" | "en-us" | "en-gb" => "en",
            "la" | "latin" | "lat" => "la",
            other => {
                return Err(SkillError::InvalidParams(format!(
                    "data.language {other:?} is not available; use \"en\" (English, 1908) or \"la\" (Latin, 1749)"
                )))
            }
        };
        let date = resolve(&self.lit, &self.env, req, None)?;
        let Some(day) = self.lit.martyrology_day(date, language) else {
            return Ok(vec![artifact(
                "martyrology",
                vec![Part::text(NO_MARTYROLOGY)],
            )]);
        };
        let text = ecclesia_liturgy::martyrology::format_day(date, &day);
        let (entries, saints) = self.link(date, &day, ctx)?;
        let data = json!({
            "date": date.format("%Y-%m-%d").to_string(),
            "language": language,
            "edition": if language == "la" { "Martyrologium Romanum, 1749 (Benedict XIV)" } else { "Roman Martyrology, English translation 1908 (Marquess of Bute)" },
            "source_day": day.source_day,
            "note": day.note,
            "heading": day.heading,
            "entries": entries,
            "saints": saints,
        });
        Ok(vec![artifact(
            "martyrology",
            vec![Part::text(text), Part::data(data)],
        )])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    fn lit() -> Arc<Liturgy> {
        static L: OnceLock<Arc<Liturgy>> = OnceLock::new();
        L.get_or_init(|| {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data");
            Arc::new(Liturgy::load(std::path::Path::new(dir)).unwrap())
        })
        .clone()
    }

    fn env() -> DateEnv {
        DateEnv {
            today: chrono::NaiveDate::from_ymd_opt(2026, 3, 1),
            timezone: "UTC".into(),
            calendar: None,
            translation: None,
        }
    }

    fn req(parts: Vec<Part>) -> SkillRequest {
        SkillRequest::from_parts(&parts).unwrap()
    }

    /// `liturgical_readings` for a date phrase in a calendar.
    fn readings_in(phrase: &str, calendar: &str) -> Result<Vec<Artifact>, SkillError> {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        s.run(
            &req(vec![
                Part::text(phrase),
                Part::data(json!({ "calendar": calendar })),
            ]),
            &SkillContext::default(),
        )
    }

    fn text_of(a: &Artifact) -> String {
        match &a.parts[0] {
            Part::Text { text, .. } => text.clone(),
            _ => panic!("not text"),
        }
    }

    #[test]
    fn readings_for_st_joseph() {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let out = s
            .run(&req(vec![Part::text("March 19")]), &SkillContext::default())
            .unwrap();
        assert_eq!(out[0].name.as_deref(), Some("mass_readings"));
        let t = text_of(&out[0]);
        assert!(t.contains("Saint Joseph"), "{t}");
        assert!(t.contains("Gospel — Matthew 1:16, 18-21, 24a"), "{t}");
        match &out[0].parts[1] {
            Part::Data { data, .. } => {
                assert_eq!(data["date"], "2026-03-19");
                assert_eq!(data["rank"], "SOLEMNITY");
                assert_eq!(data["sunday_cycle"], "A");
                assert!(data["readings"].as_array().unwrap().len() >= 4);
            }
            _ => panic!("no data part"),
        }
    }

    #[test]
    fn a_national_calendar_by_its_iso_code_and_the_choices_listed() {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let out = readings_in("2027-05-03", "pl").unwrap();
        let t = text_of(&out[0]);
        assert!(t.contains("Poland"), "{t}");
        // The Assumption in Polish beside the English.
        let out = readings_in("2027-08-15", "pl").unwrap();
        match &out[0].parts[1] {
            Part::Data { data, .. } => assert!(
                data.get("celebration_local")
                    .and_then(|v| v.as_str())
                    .is_some_and(|n| n.contains("Wniebowzię")),
                "{data:?}"
            ),
            _ => panic!("no data part"),
        }
        let calendars = s.choices("calendar");
        assert_eq!(calendars[0].id, "general-roman");
        let label = |id: &str| {
            calendars
                .iter()
                .find(|c| c.id == id)
                .map(|c| c.label.clone())
        };
        assert_eq!(label("pl").as_deref(), Some("Poland"));
        assert_eq!(label("gb-sct").as_deref(), Some("Scotland"));
        assert_eq!(label("gr").as_deref(), Some("Greece"));
        assert!(label("boston-us").unwrap().starts_with("Diocese: boston"));
        assert!(!s.choices("translation").is_empty());
        assert!(s.choices("date").is_empty());
    }

    #[test]
    fn readings_in_the_1962_calendar_by_data_or_by_phrase() {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let by_data = readings_in("Septuagesima Sunday 2027", "1962").unwrap();
        let by_phrase = s
            .run(
                &req(vec![Part::text(
                    "Septuagesima Sunday 2027 in the 1962 calendar",
                )]),
                &SkillContext::default(),
            )
            .unwrap();
        for out in [&by_data, &by_phrase] {
            assert_eq!(out[0].name.as_deref(), Some("mass_readings"));
            let t = text_of(&out[0]);
            assert!(t.contains("Septuagesima Sunday — II class · violet"), "{t}");
            assert!(t.contains("Gospel — Matthew 20:1-16"), "{t}");
            match &out[0].parts[1] {
                Part::Data { data, .. } => {
                    assert_eq!(data["date"], "2027-01-24");
                    assert_eq!(data["calendar"], "1962");
                    assert_eq!(data["celebration"]["class"], "II");
                    assert_eq!(data["celebration"]["title_la"], "Dominica in Septuagesima");
                }
                _ => panic!("no data part"),
            }
        }
        // An unknown calendar lists the known ones, 1962 among them.
        let err = readings_in("today", "zz").unwrap_err();
        assert!(err.to_string().contains("1962"), "{err}");
    }

    #[test]
    fn readings_translation_and_calendar_inputs() {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let out = s
            .run(
                &req(vec![
                    Part::text("Ascension 2026"),
                    Part::data(json!({"calendar": "us", "translation": "douay-rheims"})),
                ]),
                &SkillContext::default(),
            )
            .unwrap();
        let t = text_of(&out[0]);
        assert!(t.contains("Sunday, 17 May 2026"), "{t}");
        assert!(t.contains("Douay-Rheims"), "{t}");
        let err = s
            .run(
                &req(vec![
                    Part::text("today"),
                    Part::data(json!({"translation": "kjv"})),
                ]),
                &SkillContext::default(),
            )
            .unwrap_err();
        assert!(matches!(err, SkillError::InvalidParams(_)));
    }

    #[test]
    fn bad_phrase_is_invalid_params() {
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let err = s
            .run(
                &req(vec![Part::text("the day my cat was born")]),
                &SkillContext::default(),
            )
            .unwrap_err();
        match err {
            SkillError::InvalidParams(m) => assert!(m.contains("accepted date forms"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn no_readings_string() {
        // Year 1900 is outside the calendar: an error, not "no readings"; the exact string is for empty days.
        assert_eq!(NO_READINGS, "No mass readings found.");
        let s = LiturgicalReadings {
            lit: lit(),
            env: env(),
        };
        let err = s
            .run(
                &req(vec![Part::text("1900-01-01")]),
                &SkillContext::default(),
            )
            .unwrap_err();
        assert!(matches!(err, SkillError::InvalidParams(_)));
    }

    #[test]
    fn martyrology_data_date_and_languages() {
        let s = SaintsOfTheDay {
            lit: lit(),
            env: env(),
            dir: None,
        };
        let out = s
            .run(
                &req(vec![Part::data(json!({"date": "2026-01-21"}))]),
                &SkillContext::default(),
            )
            .unwrap();
        assert_eq!(out[0].name.as_deref(), Some("martyrology"));
        let t = text_of(&out[0]);
        assert!(t.contains("Agnes"), "{t}");
        let out = s
            .run(
                &req(vec![Part::data(
                    json!({"date": "2026-01-21", "language": "la"}),
                )]),
                &SkillContext::default(),
            )
            .unwrap();
        assert!(text_of(&out[0]).contains("Agn"));
        // Leap year: 25 Feb 2028 reads the entries of the 24th (St Matthias).
        let out = s
            .run(
                &req(vec![Part::data(json!({"date": "2028-02-25"}))]),
                &SkillContext::default(),
            )
            .unwrap();
        assert!(
            text_of(&out[0]).contains("Matthias"),
            "{}",
            text_of(&out[0])
        );
        let out = s
            .run(
                &req(vec![Part::data(json!({"date": "2026-02-24"}))]),
                &SkillContext::default(),
            )
            .unwrap();
        assert!(text_of(&out[0]).contains("Matthias"));
        let out = s
            .run(
                &req(vec![Part::data(json!({"date": "2028-02-29"}))]),
                &SkillContext::default(),
            )
            .unwrap();
        assert!(
            text_of(&out[0]).contains("28th day of February"),
            "{}",
            text_of(&out[0])
        );
        assert_eq!(NO_MARTYROLOGY, "No martyrology data found.");
        let err = s
            .run(
                &req(vec![Part::data(
                    json!({"date": "2026-01-21", "language": "xx"}),
                )]),
                &SkillContext::default(),
            )
            .unwrap_err();
        assert!(matches!(err, SkillError::InvalidParams(_)));
        let err = s
            .run(
                &req(vec![Part::text("blah blah")]),
                &SkillContext::default(),
            )
            .unwrap_err();
        assert!(matches!(err, SkillError::InvalidParams(_)));
    }

    fn linked(s: &SaintsOfTheDay, date: &str) -> Value {
        let out = s
            .run(
                &req(vec![Part::data(json!({ "date": date }))]),
                &SkillContext::default(),
            )
            .unwrap();
        match &out[0].parts[1] {
            Part::Data { data, .. } => Value::Object(data.clone()),
            _ => panic!("no data part"),
        }
    }

    #[test]
    fn martyrology_links_saints_to_the_directory() {
        let s = SaintsOfTheDay {
            lit: lit(),
            env: env(),
            dir: Some(crate::directory::tests::test_directory()),
        };
        let v = linked(&s, "2026-03-19");
        assert_eq!(v["entries"][0]["saint_id"], "joseph", "{v:#}");
        assert_eq!(v["entries"][0]["saint_name"], "Joseph");
        assert!(v["saints"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["saint_id"] == "joseph" && x["name"] == "Joseph"));
        // the Sorrento martyrs have no record kept on 19 March: no link
        let sorrento = v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["text"].as_str().unwrap().contains("Sorrento"))
            .unwrap();
        assert_eq!(sorrento["saint_id"], Value::Null, "{sorrento}");
        let v = linked(&s, "2026-01-21");
        assert_eq!(v["entries"][0]["saint_id"], "agnes", "{v:#}");
        let v = linked(&s, "2026-11-22");
        assert_eq!(v["entries"][0]["saint_id"], "cecilia", "{v:#}");
        // Valentine's directory records carry no 14 February day and are
        // ambiguous by name: better no link than a wrong one
        let v = linked(&s, "2026-02-14");
        assert_eq!(v["entries"][0]["saint_id"], Value::Null, "{v:#}");
        assert_eq!(v["entries"][2]["saint_id"], Value::Null, "{v:#}");
        // "Denis" names Denis of Paris (9 October) in the directory: not linked to him on
        // 14 February (the entry's other martyr, Ammonius, is a unique exact name and may link)
        assert_ne!(v["entries"][5]["saint_id"], "denis", "{v:#}");
        assert_eq!(v["entries"][1]["saint_id"], "vitalis", "{v:#}");
        // "Lawrence" must not link to "Laurentius of Kaluga", whatever his day
        let v = linked(&s, "2026-08-10");
        assert_ne!(v["entries"][0]["saint_id"], "laurentius-of-kaluga", "{v:#}");
        for d in [
            "2026-03-19",
            "2026-02-14",
            "2026-01-21",
            "2026-08-10",
            "2026-11-22",
        ] {
            let v = linked(&s, d);
            let entries = v["entries"].as_array().unwrap();
            let linked = entries.iter().filter(|e| !e["saint_id"].is_null()).count();
            eprintln!(
                "{d}: {linked} of {} entries linked; saints: {}",
                entries.len(),
                v["saints"]
            );
        }
    }
}
