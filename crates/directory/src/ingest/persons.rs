//! Persons: the College of Cardinals (April 2025: Wikidata + Holy See press office),
//! the US bishops sample with principal consecrators, and the operator's persons.

use super::operator::{person_id, OperatorData};
use super::{date_with_precision, src, Ctx};
use crate::fold::{fold, slug, tokens};
use crate::index::Kind;
use crate::store::{LineageEdge, Record};
use ecclesia_core::IngestError;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::Path;

pub(crate) const CARDINALS: &str = "directories/persons/cardinals-2025";
pub(crate) const US: &str = "directories/persons/us-hierarchy";

fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let Ok(mut rdr) = csv::Reader::from_path(path) else {
        return Vec::new();
    };
    let Ok(h) = rdr.headers().cloned() else {
        return Vec::new();
    };
    rdr.records()
        .filter_map(Result::ok)
        .map(|r| {
            h.iter()
                .map(|s| s.to_string())
                .zip(r.iter().map(|s| s.trim().to_string()))
                .collect()
        })
        .collect()
}

fn day(s: &str) -> Option<String> {
    let d = s.split('T').next().unwrap_or("").trim();
    (d.len() >= 10).then(|| d[..10].to_string())
}

/// folded name → (birth date, birth place) of every cardinal in the Wikidata file.
pub(crate) fn cardinal_births(data: &Path) -> HashMap<String, (String, Option<String>)> {
    read_csv(&data.join(CARDINALS).join("wikidata_cardinals.csv"))
        .into_iter()
        .filter_map(|r| {
            let name = r.get("cardinalLabel")?;
            let b = day(r.get("birthDate")?)?;
            let place = r.get("birthPlaceLabel").filter(|s| !s.is_empty()).cloned();
            Some((fold(name), (b, place)))
        })
        .collect()
}

fn title_case(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let lower = w.to_lowercase();
            let mut c = lower.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn cardinal_order(ordine: &str) -> Option<&'static str> {
    if ordine.starts_with("Vescovi (") {
        Some("Cardinal-Bishop (Eastern Catholic patriarch)")
    } else if ordine.starts_with("Vescovi") {
        Some("Cardinal-Bishop")
    } else if ordine.starts_with("Presbiteri") {
        Some("Cardinal-Priest")
    } else if ordine.starts_with("Diaconi") {
        Some("Cardinal-Deacon")
    } else {
        None
    }
}

/// A person being assembled.
struct P {
    id: String,
    name: String,
    names: Vec<(String, f32)>,
    f: Map<String, Value>,
    sources: Vec<Value>,
    prior: f32,
}

fn empty_profile() -> Map<String, Value> {
    let mut f = Map::new();
    for k in [
        "source_table",
        "current_position",
        "current_see",
        "role",
        "image_url",
        "coat_of_arms_url",
        "birth_date",
        "birth_place",
        "death_date",
        "ordination_date",
        "consecration_date",
        "cardinal_elevation",
        "education",
        "motto",
        "nationality",
        "religious_order",
        "biography_url",
        "wikidata_id",
    ] {
        f.insert(k.into(), Value::Null);
    }
    f.insert("source_table".into(), json!("living"));
    f
}

fn set(f: &mut Map<String, Value>, k: &str, v: Option<String>) {
    if let Some(v) = v.filter(|s| !s.trim().is_empty()) {
        f.insert(k.into(), Value::String(v));
    }
}

/// Build persons and their consecration edges. Popes found among the cardinals
/// (a cardinal later elected) are left to the popes directory.
pub(crate) fn build(
    ctx: &mut Ctx,
    popes: &[Record],
    ops: &mut OperatorData,
) -> Result<(Vec<Record>, Vec<LineageEdge>), IngestError> {
    let dir = ctx.data.join(CARDINALS);
    let wd = read_csv(&dir.join("wikidata_cardinals.csv"));
    let vat = read_csv(&dir.join("vatican_cardinals.csv"));
    let html = read_csv(&dir.join("vatican_cardinals_from_html.csv"));
    if wd.is_empty() && vat.is_empty() {
        ctx.warn(format!("{}: no cardinals found", dir.display()));
    }
    // popes by birth date, to drop cardinals who became pope
    let pope_births: Vec<(String, Vec<String>)> = popes
        .iter()
        .filter_map(|p| {
            let b = p.profile["birth_date"].as_str()?.to_string();
            let n = p.profile["birth_name"].as_str()?;
            Some((b, tokens(n)))
        })
        .collect();
    let pope_by_tokens: Vec<(Vec<String>, String, String)> = popes
        .iter()
        .map(|p| (tokens(&p.name), p.id.clone(), p.name.clone()))
        .collect();

    let mut people: Vec<P> = Vec::new();
    let mut used_wd = vec![false; wd.len()];
    for v in &vat {
        let surname = v.get("Cognome").cloned().unwrap_or_default();
        let given = v.get("Nome").cloned().unwrap_or_default();
        let birth = v.get("Data di nascita").cloned().unwrap_or_default();
        let sur_t = tokens(&surname);
        // Wikidata row: same birth date and the surname's words in the label
        let w_i = wd.iter().enumerate().position(|(i, w)| {
            !used_wd[i]
                && w.get("birthDate").and_then(|b| day(b)).as_deref() == Some(birth.as_str())
                && {
                    let lt = tokens(w.get("cardinalLabel").map(String::as_str).unwrap_or(""));
                    sur_t.iter().any(|t| lt.contains(t))
                }
        });
        let w = w_i.map(|i| {
            used_wd[i] = true;
            &wd[i]
        });
        let h = html.iter().find(|h| {
            let n = h.get("nome").map(String::as_str).unwrap_or("");
            let nt = tokens(n.split(" Card. ").next().unwrap_or(""));
            nt == sur_t
                && (h.get("data_di_nascita") == Some(&birth)
                    || tokens(n).iter().any(|t| tokens(&given).contains(t)))
        });
        let name = w
            .and_then(|w| w.get("cardinalLabel").cloned())
            .filter(|s| !s.is_empty() && !s.starts_with("http"))
            .unwrap_or_else(|| format!("{} {}", given, title_case(&surname)));
        let nt = tokens(&name);
        if pope_births
            .iter()
            .any(|(b, t)| *b == birth && t.iter().filter(|x| nt.contains(x)).count() >= 2)
        {
            continue;
        }
        let mut f = empty_profile();
        let order = v.get("Ordine").and_then(|o| cardinal_order(o));
        f.insert(
            "current_position".into(),
            json!(order.unwrap_or("Cardinal")),
        );
        set(&mut f, "birth_date", Some(birth.clone()));
        set(
            &mut f,
            "birth_place",
            w.and_then(|w| w.get("birthPlaceLabel").cloned()),
        );
        set(
            &mut f,
            "ordination_date",
            w.and_then(|w| w.get("priestStartTime").and_then(|d| day(d))),
        );
        set(
            &mut f,
            "consecration_date",
            w.and_then(|w| w.get("bishopStartTime").and_then(|d| day(d))),
        );
        set(&mut f, "nationality", v.get("Nazione").cloned());
        set(
            &mut f,
            "religious_order",
            v.get("Ordini Religiosi").cloned(),
        );
        set(
            &mut f,
            "biography_url",
            h.and_then(|h| h.get("url").cloned()),
        );
        set(
            &mut f,
            "wikidata_id",
            w.and_then(|w| {
                w.get("cardinal")
                    .map(|u| u.rsplit('/').next().unwrap_or("").to_string())
            }),
        );
        let created_by = h.and_then(|h| h.get("creato_da")).and_then(|c| {
            let t = tokens(c);
            pope_by_tokens
                .iter()
                .find(|(pt, _, _)| *pt == t)
                .map(|(_, id, n)| json!({"pope_id": id, "name": n}))
        });
        let created = v
            .get("Creato il")
            .cloned()
            .or_else(|| w.and_then(|w| w.get("cardinalStartTime").and_then(|d| day(d))));
        f.insert(
            "cardinal_elevation".into(),
            json!({
                "date": created,
                "created_by": created_by,
                "order": order,
                "elector": v.get("Elettore").map(|e| e == "E"),
                "precedence": v.get("Precedenza").and_then(|p| p.parse::<u32>().ok()),
            }),
        );
        let mut names = vec![(name.clone(), 1.0)];
        names.push((format!("{} {}", given, title_case(&surname)), 0.97));
        if let Some(h) = h.and_then(|h| h.get("nome")) {
            names.push((h.replace(" Card. ", " "), 0.95));
        }
        let mut sources = vec![src(CARDINALS, "MIT / CC0 (Wikidata)")];
        if w.is_none() {
            sources = vec![src(CARDINALS, "MIT")];
        }
        people.push(P {
            id: slug(&name),
            name,
            names,
            f,
            sources,
            prior: 0.7,
        });
    }
    ctx.source(
        CARDINALS,
        "CristianCantoro/wikidata-vatican-cardinals (Wikidata + Holy See Press Office)",
        "1047d29",
        "MIT; Wikidata part CC0",
        None,
        people.len() as u64,
    );

    // US bishops sample: merge into a cardinal with the same birth date and surname
    let us = read_csv(&ctx.data.join(US).join("current_us_bishops_20.csv"));
    let mut lineage: Vec<(String, String, Option<String>)> = Vec::new(); // (consecrated id, consecrator name, date)
    for b in &us {
        let first = b.get("first_name").cloned().unwrap_or_default();
        let middle = b.get("middle_name").cloned().unwrap_or_default();
        let last = b.get("last_name").cloned().unwrap_or_default();
        let full = [first.as_str(), middle.as_str(), last.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let birth = b.get("date_of_birth").cloned();
        let last_t = tokens(&last);
        let see = b.get("current_see").cloned().unwrap_or_default();
        let role = b.get("role").cloned().unwrap_or_default();
        let see_place = see
            .trim_start_matches("Archdiocese of ")
            .trim_start_matches("Diocese of ")
            .to_string();
        let position = if role.eq_ignore_ascii_case("ordinary") {
            if see.starts_with("Archdiocese") {
                format!("Archbishop of {see_place}")
            } else {
                format!("Bishop of {see_place}")
            }
        } else {
            format!("{role} of {see_place}")
        };
        let idx = people.iter().position(|p| {
            p.f.get("birth_date").and_then(Value::as_str) == birth.as_deref()
                && last_t.iter().all(|t| tokens(&p.name).contains(t))
        });
        let i = match idx {
            Some(i) => i,
            None => {
                let mut f = empty_profile();
                set(&mut f, "birth_date", birth.clone());
                people.push(P {
                    id: slug(&full),
                    name: full.clone(),
                    names: vec![(full.clone(), 1.0), (format!("{first} {last}"), 0.97)],
                    f,
                    sources: Vec::new(),
                    prior: 0.5,
                });
                people.len() - 1
            }
        };
        let p = &mut people[i];
        let was_cardinal = p.f.get("cardinal_elevation").is_some_and(|v| !v.is_null());
        let pos = if was_cardinal {
            format!("{position} (Cardinal)")
        } else {
            position
        };
        p.f.insert("current_position".into(), json!(pos));
        p.f.insert("current_see".into(), json!(see));
        p.f.insert("role".into(), json!(role));
        set(
            &mut p.f,
            "ordination_date",
            b.get("ordained_priest").cloned(),
        );
        set(
            &mut p.f,
            "consecration_date",
            b.get("ordained_bishop").cloned(),
        );
        p.sources.push(src(US, "CC0 (hierarchy.directory)"));
        if let Some(c) = b.get("principal_consecrator").filter(|c| !c.is_empty()) {
            lineage.push((p.id.clone(), c.clone(), b.get("ordained_bishop").cloned()));
        }
    }
    ctx.source(
        US,
        "alexcran/hierarchy-directory (hierarchy.directory)",
        "2078449",
        "CC0 (per hierarchy.directory)",
        None,
        us.len() as u64,
    );

    // operator persons: add or override
    for r in std::mem::take(&mut ops.persons) {
        let Some(name) = r.get("name").map(str::to_string) else {
            ctx.warn(format!("{}: a person needs a name", r.at()));
            continue;
        };
        let Some(id) = person_id(&r) else { continue };
        let table = match r.get("source_table").map(|s| s.to_lowercase()) {
            Some(t) if t == "living" || t == "historical" => t,
            Some(t) => {
                ctx.warn(format!(
                    "{}: source_table {t:?} is neither living nor historical",
                    r.at()
                ));
                continue;
            }
            None if r.get("death_date").is_some() => "historical".into(),
            None => "living".into(),
        };
        let i = match people.iter().position(|p| p.id == id) {
            Some(i) => i,
            None => {
                people.push(P {
                    id: id.clone(),
                    name: name.clone(),
                    names: vec![(name.clone(), 1.0)],
                    f: empty_profile(),
                    sources: Vec::new(),
                    prior: 0.5,
                });
                people.len() - 1
            }
        };
        let p = &mut people[i];
        p.f.insert("source_table".into(), json!(table));
        for k in [
            "current_position",
            "current_see",
            "role",
            "image_url",
            "coat_of_arms_url",
            "birth_date",
            "birth_place",
            "death_date",
            "ordination_date",
            "consecration_date",
            "motto",
            "nationality",
            "religious_order",
            "biography_url",
            "wikidata_id",
        ] {
            set(&mut p.f, k, r.get(k).map(str::to_string));
        }
        if let Some(e) = r.get("education") {
            let list: Vec<&str> = e
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            p.f.insert("education".into(), json!(list));
        }
        if let Some(d) = r.get("cardinal_date") {
            p.f.insert("cardinal_elevation".into(), json!({"date": d}));
        }
        if let Some(c) = r.get("consecrator") {
            lineage.push((
                p.id.clone(),
                c.to_string(),
                r.get("consecration_date").map(str::to_string),
            ));
        }
        p.sources
            .push(json!({"dataset": r.file, "licence": "operator-supplied"}));
    }

    // unique ids (a namesake gets the birth year)
    let mut seen: HashMap<String, usize> = HashMap::new();
    for p in people.iter_mut() {
        let n = seen.entry(p.id.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            let y =
                p.f.get("birth_date")
                    .and_then(Value::as_str)
                    .and_then(|b| b.get(0..4))
                    .unwrap_or("x");
            p.id = format!("{}-{y}", p.id);
        }
    }

    // consecrators: link names to persons (first and last word agree, unique)
    let keyed: Vec<(Vec<String>, String, String)> = people
        .iter()
        .map(|p| (tokens(&p.name), p.id.clone(), p.name.clone()))
        .collect();
    let find = |name: &str| -> Option<(String, String)> {
        let base = name.split('(').next().unwrap_or(name);
        let t = tokens(base);
        let (first, last) = (t.first()?, t.last()?);
        let hits: Vec<&(Vec<String>, String, String)> = keyed
            .iter()
            .filter(|(k, _, _)| k.first() == Some(first) && k.last() == Some(last))
            .collect();
        (hits.len() == 1).then(|| (hits[0].1.clone(), hits[0].2.clone()))
    };
    let edges: Vec<LineageEdge> = lineage
        .into_iter()
        .map(|(consecrated, consecrator, date)| {
            let hit = find(&consecrator);
            LineageEdge {
                consecrator_id: hit.as_ref().map(|h| h.0.clone()),
                consecrator_name: consecrator,
                consecrated_id: consecrated,
                role: "principal".into(),
                date,
            }
        })
        .collect();

    let records = people
        .into_iter()
        .map(|p| {
            let mut f = p.f;
            f.insert("person_id".into(), json!(p.id));
            f.insert("primary_name".into(), json!(p.name));
            f.insert("sources".into(), json!(p.sources));
            let (b, _) = date_with_precision(f.get("birth_date").and_then(Value::as_str), false);
            let pos = f
                .get("current_position")
                .and_then(Value::as_str)
                .unwrap_or("");
            let detail = format!(
                "{}{}",
                pos,
                b.map(|b| format!(", born {b}")).unwrap_or_default()
            );
            Record {
                id: p.id,
                kind: Kind::Person,
                name: p.name,
                detail,
                prior: p.prior,
                names: p.names,
                profile: Value::Object(f),
            }
        })
        .collect();
    Ok((records, edges))
}
