//! `liturgical_readings` and `saints_of_the_day`: thin adapters over [`ecclesia_liturgy::Liturgy`].

use crate::SkillEnv;
use ecclesia_a2a::{AgentSkill, Artifact, Part};
use ecclesia_core::{
    artifact, skill_card, Ingester, Skill, SkillContext, SkillError, SkillRegistry, SkillRequest,
};
use ecclesia_liturgy::{Liturgy, LiturgyError, LiturgyIngester};
use serde_json::json;
use std::sync::Arc;

/// Exact text when a date has no readings.
pub const NO_READINGS: &str = "No mass readings found.";
/// Exact text when a date has no Martyrology entry.
pub const NO_MARTYROLOGY: &str = "No martyrology data found.";

/// The liturgy ingester.
pub fn ingesters() -> Vec<Box<dyn Ingester>> {
    vec![Box::new(LiturgyIngester)]
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
            reg.register(SaintsOfTheDay {
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
    fn today(&self) -> chrono::NaiveDate {
        self.today
            .unwrap_or_else(|| ecclesia_liturgy::clock::today_in(&self.timezone))
    }
}

fn map_err(e: LiturgyError) -> SkillError {
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
            "The liturgical day (celebration, rank, season and week, colour, Sunday and weekday cycles) and the Mass readings with their text, for a date phrase such as \"today\", \"next Sunday\", \"Easter Sunday 2026\", \"2026-03-19\". Optional data: calendar (general-roman, us), translation (cpdv, douay-rheims).",
            &["liturgy", "readings", "calendar", "lectionary"],
            &["today", "next Sunday", "Easter Sunday 2026", "Ash Wednesday 2027", "2026-03-19"],
        )
    }

    fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
        let calendar = req
            .str_field("calendar")?
            .or_else(|| self.env.calendar.clone());
        let translation = req
            .str_field("translation")?
            .or_else(|| self.env.translation.clone());
        let date = resolve(&self.lit, &self.env, req, calendar.as_deref())?;
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
}

/// `saints_of_the_day`.
pub struct SaintsOfTheDay {
    lit: Arc<Liturgy>,
    env: DateEnv,
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

    fn run(&self, req: &SkillRequest, _ctx: &SkillContext) -> Result<Vec<Artifact>, SkillError> {
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
        let data = json!({
            "date": date.format("%Y-%m-%d").to_string(),
            "language": language,
            "edition": if language == "la" { "Martyrologium Romanum, 1749 (Benedict XIV)" } else { "Roman Martyrology, English translation 1908 (Marquess of Bute)" },
            "source_day": day.source_day,
            "note": day.note,
            "heading": day.heading,
            "entries": day.entries.iter().enumerate().map(|(i, e)| json!({"position": i + 1, "text": e, "saint_id": null})).collect::<Vec<_>>(),
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
}
