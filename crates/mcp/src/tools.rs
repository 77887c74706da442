//! The ten tools: names (as Magisterium's MCP server names them), the skill
//! each calls, descriptions a model can act on, input schemas derived from the
//! skill contract (`../shared/spec/skills.md` beside the checkout), and arguments → message parts.

use ecclesia_a2a::Part;
use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// Longest string argument accepted, in characters (the skills' own limit).
pub const MAX_ARG_CHARS: usize = ecclesia_core::MAX_TEXT_CHARS;

/// One tool and the skill behind it.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// Tool name.
    pub name: &'static str,
    /// Skill id.
    pub skill: &'static str,
    /// Human title.
    pub title: &'static str,
    /// What it does and when to use it.
    pub description: &'static str,
    /// The argument sent as the message's text part (the others go in a data part).
    pub text_arg: Option<&'static str>,
    /// Whether the tool reaches beyond the local corpus and directories (never, today).
    pub open_world: bool,
}

/// The tools, in listing order.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "search",
        skill: "document_search",
        title: "Search Catholic documents",
        description: "Semantic search over the Catholic document corpus (Magisterial documents, Scripture, Church Fathers, catechisms, canon law). Returns ranked results with id, title, author, year, type, snippet and reference; pass a result's id to `fetch` for the full text. Use for finding where the Church teaches about a subject.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "fetch",
        skill: "document_fetch",
        title: "Fetch a document",
        description: "Full text and metadata (title, author, year, type, source_url) of one corpus document by the id `search` returned. Give `ref` (a paragraph, canon or chapter:verse such as \"34\" or \"John 6:51\") to get just that section. An unknown id answers `Document not found.`",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_mass_readings",
        skill: "liturgical_readings",
        title: "Mass readings for a date",
        description: "The Mass readings of a day (Roman Rite): the liturgical day's name, season, colour, and each reading's heading, citation and text (First Reading, Psalm, Second Reading, Gospel Acclamation, Gospel). `date` takes natural language (\"today\", \"next Sunday\", \"Easter Sunday 2026\", \"Ash Wednesday 2027\", \"the 3rd Sunday of Advent\") or an ISO date (2026-03-19).",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_martyrology",
        skill: "saints_of_the_day",
        title: "Roman Martyrology for a date",
        description: "The Roman Martyrology entry of a day: its heading and each saint and blessed commemorated, in order. `date` is an ISO date (YYYY-MM-DD) or a phrase such as \"today\" or \"March 19\".",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_saint",
        skill: "saint_lookup",
        title: "Look up a saint",
        description: "Profile of a saint, blessed, venerable or servant of God (~12,500 figures): status, vocation, life and death, feast days, canonization, patronages, iconography, biography. Give `query` (a name in any language; titles and small typos are fine) or the canonical `saint_id`. Unresolved names answer {\"error\": \"not_found\"}; close candidates are listed in `alternates`.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_person",
        skill: "person_lookup",
        title: "Look up a bishop or cardinal",
        description: "Profile of a Catholic cleric (bishop, archbishop, cardinal; living and historical): current position, ordination and consecration, cardinal elevation, episcopal lineage, education, motto. Give `query` (\"Cardinal Tagle\") or `person_id`. Popes are served by `get_pope`.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_pope",
        skill: "pope_lookup",
        title: "Look up a pope",
        description: "Profile of a pope (all 267): papal name, ordinal, birth name, origin, pontificate (start, end, how it ended), beatification and canonization. Give `query` (\"John Paul II\", \"Pope Francis\") or `pope_id` (\"benedict-xvi\"). Other clergy are served by `get_person`.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_diocese",
        skill: "diocese_lookup",
        title: "Look up a diocese",
        description: "Profile of an ecclesiastical jurisdiction (diocese, archdiocese, eparchy; ~3,200 worldwide): type, rite, country, metropolitan, cathedral, patron, current bishop, up to 5 years of headline statistics and the latest financials. Give `query` (\"Archdiocese of Manila\") or `source_code` (\"dmaml\"). For multi-year trends use `get_diocese_statistics`.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "get_diocese_statistics",
        skill: "diocese_statistics_lookup",
        title: "Diocese statistics over time",
        description: "A diocese's yearly statistics time series, 19 metrics a year (catholics, population, percent catholic, priests, deacons, religious, parishes, baptisms, seminarians, institutes, …); a metric with no figure is null. Give `query` or `source_code`, and optional inclusive `start_year`/`end_year`.",
        text_arg: None,
        open_world: false,
    },
    ToolSpec {
        name: "chat",
        skill: "catholic_qa",
        title: "Ask a question (cited answer)",
        description: "A long-form answer to a question about Catholic teaching, drawn from the corpus, with inline footnotes [1], [2], … and a `citations` list (cited_text, document_title, document_reference, source_url, document_id usable with `fetch`). Slower and more strictly rate-limited than the other tools: prefer `search`/`fetch` for finding passages.",
        text_arg: Some("question"),
        open_world: false,
    },
];

/// The tool named `name`.
pub fn spec(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

fn string(description: &str) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": MAX_ARG_CHARS, "description": description})
}

fn year(description: &str) -> Value {
    json!({"type": "integer", "minimum": -10000, "maximum": 10000, "description": description})
}

/// The input JSON Schema of a tool.
pub fn input_schema(name: &str) -> Value {
    let lookup = |id_key: &str, id_example: &str, query_example: &str| {
        json!({
            "type": "object",
            "properties": {
                "query": string(&format!("A name in natural language, e.g. {query_example:?}")),
                id_key: string(&if id_example.is_empty() {
                    "The canonical id (wins over query)".to_string()
                } else {
                    format!("The canonical id, e.g. {id_example:?} (wins over query)")
                }),
            },
            "anyOf": [{"required": ["query"]}, {"required": [id_key]}],
            "additionalProperties": false,
        })
    };
    match name {
        "search" => json!({
            "type": "object",
            "properties": {
                "query": string("What to look for, in natural language"),
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10, "description": "How many results (1-100)"},
                "type": string("Only documents of this type (e.g. encyclical, catechism, scripture)"),
                "author": string("Only documents by this author"),
                "language": string("Only documents in this language (e.g. en)"),
                "start_year": year("Only documents from this year on"),
                "end_year": year("Only documents up to this year"),
                "magisterial": {"type": "boolean", "description": "Only Magisterial documents"},
            },
            "required": ["query"],
            "additionalProperties": false,
        }),
        "fetch" => json!({
            "type": "object",
            "properties": {
                "id": string("The document id from `search`"),
                "ref": string("A section: paragraph, canon or chapter:verse (\"34\", \"John 6:51\")"),
            },
            "required": ["id"],
            "additionalProperties": false,
        }),
        "get_mass_readings" => json!({
            "type": "object",
            "properties": {
                "date": string("A date phrase (\"today\", \"next Sunday\", \"Christmas 2026\") or YYYY-MM-DD"),
            },
            "required": ["date"],
            "additionalProperties": false,
        }),
        "get_martyrology" => json!({
            "type": "object",
            "properties": {
                "date": string("YYYY-MM-DD, or a phrase such as \"today\""),
            },
            "required": ["date"],
            "additionalProperties": false,
        }),
        "get_saint" => lookup("saint_id", "jerome", "Therese of Lisieux"),
        "get_person" => lookup("person_id", "", "Cardinal Tagle"),
        "get_pope" => lookup("pope_id", "benedict-xvi", "John Paul II"),
        "get_diocese" => lookup("source_code", "dmaml", "Archdiocese of Manila"),
        "get_diocese_statistics" => {
            let mut s = lookup("source_code", "dmaml", "Archdiocese of Manila");
            s["properties"]["start_year"] = year("First year (inclusive)");
            s["properties"]["end_year"] = year("Last year (inclusive)");
            s
        }
        "chat" => json!({
            "type": "object",
            "properties": {
                "question": string("The question, in natural language"),
            },
            "required": ["question"],
            "additionalProperties": false,
        }),
        _ => json!({"type": "object"}),
    }
}

/// The MCP tool definition.
pub fn tool(spec: &ToolSpec) -> Tool {
    let schema = match input_schema(spec.name) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let annotations = ToolAnnotations::with_title(spec.title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(spec.open_world);
    Tool::new(spec.name, spec.description, Arc::new(schema))
        .with_title(spec.title)
        .with_annotations(annotations)
}

/// Check `arguments` against the tool's schema (names, required, types and
/// bounds) and turn them into message parts. The error says what to fix.
pub fn to_parts(
    spec: &ToolSpec,
    arguments: Option<&Map<String, Value>>,
) -> Result<Vec<Part>, String> {
    let empty = Map::new();
    let args = arguments.unwrap_or(&empty);
    let schema = input_schema(spec.name);
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut names: Vec<&String> = props.keys().collect();
    names.sort();
    let accepted = names
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    for (k, v) in args {
        let Some(p) = props.get(k) else {
            let shown: String = k.chars().take(64).collect();
            return Err(format!(
                "unknown argument {shown:?} for {}; accepted: {accepted}",
                spec.name
            ));
        };
        check_value(k, v, p)?;
    }
    let present = |k: &str| args.get(k).is_some_and(|v| !v.is_null());
    if let Some(req) = schema.get("required").and_then(Value::as_array) {
        for r in req.iter().filter_map(Value::as_str) {
            if !present(r) {
                return Err(format!("missing required argument {r:?} for {}", spec.name));
            }
        }
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let keys: Vec<&str> = any
            .iter()
            .filter_map(|a| a.pointer("/required/0").and_then(Value::as_str))
            .collect();
        if !keys.iter().any(|k| present(k)) {
            return Err(format!(
                "give one of {} for {}",
                keys.join(" or "),
                spec.name
            ));
        }
    }
    let mut data = Map::new();
    let mut parts = Vec::new();
    for (k, v) in args {
        if v.is_null() {
            continue;
        }
        if Some(k.as_str()) == spec.text_arg {
            if let Some(s) = v.as_str() {
                parts.push(Part::text(s));
            }
        } else {
            data.insert(k.clone(), v.clone());
        }
    }
    if !data.is_empty() {
        parts.push(Part::data(Value::Object(data)));
    }
    Ok(parts)
}

fn check_value(key: &str, v: &Value, p: &Value) -> Result<(), String> {
    if v.is_null() {
        return Ok(());
    }
    match p.get("type").and_then(Value::as_str) {
        Some("string") => {
            let Some(s) = v.as_str() else {
                return Err(format!("{key} must be a string"));
            };
            if s.trim().is_empty() {
                return Err(format!("{key} must not be blank"));
            }
            let n = s.chars().count();
            if n > MAX_ARG_CHARS {
                return Err(format!(
                    "{key} is too long ({n} characters); the limit is {MAX_ARG_CHARS}"
                ));
            }
        }
        Some("integer") => {
            let Some(i) = v.as_i64().or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| f as i64)
            }) else {
                return Err(format!("{key} must be an integer"));
            };
            let min = p.get("minimum").and_then(Value::as_i64);
            let max = p.get("maximum").and_then(Value::as_i64);
            if min.is_some_and(|m| i < m) || max.is_some_and(|m| i > m) {
                return Err(format!(
                    "{key} must be between {} and {}, not {i}",
                    min.unwrap_or(i64::MIN),
                    max.unwrap_or(i64::MAX)
                ));
            }
        }
        Some("boolean") if !v.is_boolean() => return Err(format!("{key} must be true or false")),
        _ => {}
    }
    Ok(())
}
