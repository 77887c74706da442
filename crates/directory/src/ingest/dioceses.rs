//! Dioceses: LitCal's `world_dioceses.json` (2,935 Latin-rite sees) overlaid with
//! the 185 US sees of hierarchy.directory (type, province, cathedral, city, state)
//! and the operator's dioceses; current bishops linked from persons.

use super::operator::OperatorData;
use super::{read_json, src, Ctx};
use crate::fold::{fold, tokens};
use crate::index::Kind;
use crate::store::Record;
use ecclesia_core::IngestError;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

pub(crate) const LITCAL: &str = "calendar/litcal";
const US: &str = super::persons::US;

/// Jurisdiction type read from a see's name, in any of the languages LitCal uses.
pub fn jurisdiction_from_name(name: &str) -> Option<&'static str> {
    let f = fold(name);
    let has = |w: &str| f.split(' ').any(|x| x == w) || f.contains(w);
    if has("personal ordinariate") || has("ordinariat personnel") {
        return Some("personal ordinariate");
    }
    if has("military")
        || has("militar")
        || has("castrense")
        || has("vojni")
        || has("vojensky")
        || has("katonai")
        || has("kariuomenes")
        || has("militaire")
    {
        return Some("military ordinariate");
    }
    if has("territorial prelature") || has("prelatura territorial") || has("prelature") {
        return Some("territorial prelature");
    }
    if has("territorial abbey") || has("abbazia territoriale") || has("abbatia") {
        return Some("territorial abbey");
    }
    if has("apostolic vicariate")
        || has("vicariate apostolic")
        || has("vicariato apostolico")
        || has("vicariat apostolique")
    {
        return Some("apostolic vicariate");
    }
    if has("apostolic prefecture") || has("prefecture apostolic") || has("prefettura apostolica") {
        return Some("apostolic prefecture");
    }
    if has("apostolic administration") || has("administration apostolique") {
        return Some("apostolic administration");
    }
    if has("archeparchy") {
        return Some("archeparchy");
    }
    if has("eparchy") {
        return Some("eparchy");
    }
    if has("exarchate") {
        return Some("exarchate");
    }
    if has("ordinariate") || has("ordinariato") || has("ordinariat") {
        return Some("ordinariate");
    }
    let first = f.split(' ').next().unwrap_or("");
    if matches!(
        first,
        "archdiocese"
            | "arcidiocesi"
            | "archidiocese"
            | "arquidiocesis"
            | "arquidiocese"
            | "erzbistum"
            | "archidiecezja"
    ) {
        return Some("archdiocese");
    }
    if matches!(
        first,
        "diocese"
            | "diocesi"
            | "diocesis"
            | "bistum"
            | "diecezja"
            | "dioceze"
            | "bisdom"
            | "biskupija"
    ) {
        return Some("diocese");
    }
    None
}

/// "Diocese of Springfield" → "Springfield".
fn place_of(name: &str) -> String {
    for p in [
        "Archdiocese of ",
        "Diocese of ",
        "Archdiocese for the ",
        "Diocesi di ",
        "Arcidiocesi di ",
    ] {
        if let Some(rest) = name.strip_prefix(p) {
            return rest.to_string();
        }
    }
    name.to_string()
}

struct D {
    id: String,
    name: String,
    names: Vec<(String, f32)>,
    f: Map<String, Value>,
    sources: Vec<Value>,
}

const FIELDS: [&str; 19] = [
    "jurisdiction_type",
    "rite",
    "country",
    "region_primary",
    "state",
    "city",
    "metropolitan",
    "depends_on",
    "province",
    "cathedral",
    "co_cathedral",
    "patron_saint",
    "area",
    "erected",
    "elevated",
    "official_website",
    "image_url",
    "current_bishop",
    "country_code",
];

/// Build the diocese records.
pub(crate) fn build(
    ctx: &mut Ctx,
    persons: &[Record],
    ops: &mut OperatorData,
) -> Result<Vec<Record>, IngestError> {
    let v = read_json(&ctx.data.join(LITCAL).join("world_dioceses.json"))?;
    let mut ds: Vec<D> = Vec::new();
    for c in v["catholic_dioceses_latin_rite"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let iso = c["country_iso"].as_str().unwrap_or("");
        let country = c["country_name_english"].as_str();
        for d in c["dioceses"].as_array().into_iter().flatten() {
            let (Some(id), Some(name)) = (d["diocese_id"].as_str(), d["diocese_name"].as_str())
            else {
                ctx.warn(format!(
                    "{LITCAL}/world_dioceses.json: a {iso} diocese lacks id or name"
                ));
                continue;
            };
            let mut f = Map::new();
            for k in FIELDS {
                f.insert(k.into(), Value::Null);
            }
            f.insert("country".into(), json!(country));
            f.insert("country_code".into(), json!(iso.to_uppercase()));
            f.insert("rite".into(), json!("Latin"));
            f.insert(
                "jurisdiction_type".into(),
                json!(jurisdiction_from_name(name)),
            );
            if let Some(p) = d["province"].as_str() {
                // LitCal's "province" is the civil region (a US state …)
                f.insert("region_primary".into(), json!(p));
                if iso == "us" {
                    f.insert("state".into(), json!(p));
                }
            }
            ds.push(D {
                id: id.to_string(),
                name: name.to_string(),
                names: vec![(name.to_string(), 1.0)],
                f,
                sources: vec![src(LITCAL, "Apache-2.0")],
            });
        }
    }
    let litcal_n = ds.len();
    ctx.source(
        LITCAL,
        "Liturgical-Calendar/LiturgicalCalendarAPI jsondata/world_dioceses.json",
        "425a854",
        "Apache-2.0",
        None,
        litcal_n as u64,
    );

    // US overlay
    let path = ctx.data.join(US).join("us-dioceses.csv");
    let mut us_n = 0u64;
    if let Ok(mut rdr) = csv::Reader::from_path(&path) {
        let h = rdr.headers().cloned().unwrap_or_default();
        for rec in rdr.records() {
            let Ok(rec) = rec else { continue };
            let get = |k: &str| {
                h.iter()
                    .position(|x| x == k)
                    .and_then(|i| rec.get(i))
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            };
            let Some(name) = get("name") else { continue };
            us_n += 1;
            let see_type = get("see_type");
            let state = get("state");
            // "Springfield in Illinois" → place "Springfield", state from the column
            let place = name.split(" in ").next().unwrap_or(&name).to_string();
            let key = fold(&place.replace("Saint ", "St. "));
            let us_codes = ["US", "PR", "GU", "AS", "VI", "MP"];
            let cands: Vec<usize> = ds
                .iter()
                .enumerate()
                .filter(|(_, d)| {
                    d.f["country_code"]
                        .as_str()
                        .is_some_and(|c| us_codes.contains(&c))
                        && fold(&place_of(&d.name).replace("Saint ", "St. ")) == key
                })
                .map(|(i, _)| i)
                .collect();
            let pick = if cands.len() > 1 {
                cands
                    .iter()
                    .copied()
                    .find(|&i| ds[i].f["state"].as_str() == state.as_deref())
            } else {
                cands.first().copied()
            };
            let i = match pick {
                Some(i) => i,
                None => {
                    let mut f = Map::new();
                    for k in FIELDS {
                        f.insert(k.into(), Value::Null);
                    }
                    f.insert("country".into(), json!("United States"));
                    f.insert("country_code".into(), json!("US"));
                    f.insert("rite".into(), json!("Latin"));
                    let full = match see_type.as_deref() {
                        Some("archdiocese") => format!("Archdiocese of {name}"),
                        _ => format!("Diocese of {name}"),
                    };
                    ds.push(D {
                        id: format!("{}_us", crate::fold::slug(&name).replace('-', "")),
                        name: full.clone(),
                        names: vec![(full, 1.0)],
                        f,
                        sources: Vec::new(),
                    });
                    ds.len() - 1
                }
            };
            let d = &mut ds[i];
            if let Some(t) = &see_type {
                d.f.insert("jurisdiction_type".into(), json!(t));
            }
            let province = get("province");
            d.f.insert("province".into(), json!(province));
            if let Some(p) = &province {
                let metro =
                    if see_type.as_deref() == Some("archdiocese") && tokens(p) == tokens(&place) {
                        None // it is the metropolitan see itself
                    } else {
                        Some(format!("Archdiocese of {p}"))
                    };
                d.f.insert("metropolitan".into(), json!(metro));
            }
            for (k, col) in [
                ("cathedral", "cathedral_name"),
                ("co_cathedral", "co_cathedral_name"),
                ("city", "city"),
                ("state", "state"),
            ] {
                if let Some(v) = get(col) {
                    d.f.insert(k.into(), json!(v));
                }
            }
            if !d.name.to_lowercase().contains("diocese") {
                if let Some(t) = &see_type {
                    let styled = format!(
                        "{} of {}",
                        if t == "archdiocese" {
                            "Archdiocese"
                        } else {
                            "Diocese"
                        },
                        d.name
                    );
                    d.names.push((styled, 0.98));
                }
            }
            d.names.push((name.clone(), 0.97));
            d.sources.push(src(US, "CC0 (hierarchy.directory)"));
        }
    }
    ctx.source(
        &format!("{US}/us-dioceses.csv"),
        "alexcran/hierarchy-directory",
        "2078449",
        "CC0 (per hierarchy.directory)",
        None,
        us_n,
    );

    // operator dioceses
    for r in std::mem::take(&mut ops.dioceses) {
        let (Some(code), Some(name)) = (r.get("source_code"), r.get("name")) else {
            ctx.warn(format!("{}: a diocese needs source_code and name", r.at()));
            continue;
        };
        let i = match ds.iter().position(|d| d.id == code) {
            Some(i) => i,
            None => {
                let mut f = Map::new();
                for k in FIELDS {
                    f.insert(k.into(), Value::Null);
                }
                f.insert(
                    "jurisdiction_type".into(),
                    json!(jurisdiction_from_name(name)),
                );
                ds.push(D {
                    id: code.to_string(),
                    name: name.to_string(),
                    names: vec![(name.to_string(), 1.0)],
                    f,
                    sources: Vec::new(),
                });
                ds.len() - 1
            }
        };
        let d = &mut ds[i];
        for k in FIELDS {
            if let Some(v) = r.get(k) {
                d.f.insert(k.into(), json!(v));
            }
        }
        if let Some(a) = r.get("area_km2") {
            d.f.insert("area".into(), json!(a));
        }
        d.sources
            .push(json!({"dataset": r.file, "licence": "operator-supplied"}));
    }

    // current bishops: persons whose see names this diocese and who are its ordinary
    let mut bishops: HashMap<String, (String, String)> = HashMap::new();
    for p in persons {
        let (Some(see), Some(role)) = (
            p.profile["current_see"].as_str(),
            p.profile["role"].as_str(),
        ) else {
            continue;
        };
        if !role.eq_ignore_ascii_case("ordinary") {
            continue;
        }
        bishops.insert(fold(see), (p.id.clone(), p.name.clone()));
    }

    let mut out = Vec::new();
    for d in ds {
        let mut f = d.f;
        let styled = d.names.iter().map(|n| fold(&n.0)).collect::<Vec<_>>();
        if let Some((pid, pname)) = styled.iter().find_map(|n| bishops.get(n)) {
            f.insert(
                "current_bishop".into(),
                json!({"person_id": pid, "name": pname}),
            );
        }
        f.insert("source_code".into(), json!(d.id));
        f.insert("primary_name".into(), json!(d.name));
        f.insert("sources".into(), json!(d.sources));
        let detail = [
            f["jurisdiction_type"].as_str(),
            f["state"].as_str(),
            f["country"].as_str(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        let prior = if f["jurisdiction_type"].as_str() == Some("archdiocese") {
            0.6
        } else {
            0.4
        };
        out.push(Record {
            id: d.id,
            kind: Kind::Diocese,
            name: d.name,
            detail,
            prior,
            names: d.names,
            profile: Value::Object(f),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jurisdiction_types_from_names() {
        assert_eq!(
            jurisdiction_from_name("Archdiocese of Boston"),
            Some("archdiocese")
        );
        assert_eq!(
            jurisdiction_from_name("Military Ordinariate of Kenya"),
            Some("military ordinariate")
        );
        assert_eq!(
            jurisdiction_from_name("Prelatura territoriale di Loreto"),
            Some("territorial prelature")
        );
        assert_eq!(
            jurisdiction_from_name("Personal Ordinariate of the Chair of St. Peter"),
            Some("personal ordinariate")
        );
        assert_eq!(jurisdiction_from_name("Manila"), None);
    }
}
