//! Prompts: "explain today's Gospel" (with the readings embedded) and
//! "saints of the day".

use crate::content;
use crate::runner::Runner;
use ecclesia_a2a::Part;
use ecclesia_server::Caller;
use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
use rmcp::ErrorData;
use serde_json::{json, Map, Value};

const MAX_DATE_CHARS: usize = 200;

/// The prompts.
pub fn list() -> Vec<Prompt> {
    let date = || {
        vec![PromptArgument::new("date")
            .with_description("A date phrase or YYYY-MM-DD (default: today)")
            .with_required(false)]
    };
    vec![
        Prompt::new(
            "explain_todays_gospel",
            Some("Explain the Gospel of the day's Mass, with the readings attached"),
            Some(date()),
        )
        .with_title("Explain today's Gospel"),
        Prompt::new(
            "saints_of_the_day",
            Some("Introduce the saints the Roman Martyrology commemorates on a day"),
            Some(date()),
        )
        .with_title("Saints of the day"),
    ]
}

/// Build prompt `name`.
pub async fn get(
    runner: &Runner,
    name: &str,
    arguments: Option<&Map<String, Value>>,
    caller: Option<&Caller>,
) -> Result<GetPromptResult, ErrorData> {
    let date = arguments
        .and_then(|a| a.get("date"))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .unwrap_or("today");
    if date.chars().count() > MAX_DATE_CHARS {
        return Err(ErrorData::invalid_params(
            format!("date is too long; the limit is {MAX_DATE_CHARS} characters"),
            None,
        ));
    }
    let (skill, ask) = match name {
        "explain_todays_gospel" => (
            "liturgical_readings",
            format!("Here are the Mass readings for {date}. Explain the Gospel of the day: what happens in it, how it connects with the other readings and the liturgical season, and what it asks of a Christian today. Quote the text where it helps, and ground the explanation in Catholic teaching (you may use the `chat`, `search` and `fetch` tools for sources and cite them)."),
        ),
        "saints_of_the_day" => (
            "saints_of_the_day",
            format!("Here is the Roman Martyrology for {date}. Introduce the saints and blessed it commemorates, the principal ones first, in a few sentences each (use `get_saint` for more about any of them)."),
        ),
        other => {
            let shown: String = other.chars().take(64).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {shown:?}; prompts: explain_todays_gospel, saints_of_the_day"),
                Some(json!({"prompts": ["explain_todays_gospel", "saints_of_the_day"]})),
            ));
        }
    };
    let mut data = Map::new();
    data.insert("date".into(), Value::String(date.to_string()));
    let material = match runner
        .run(skill, vec![Part::data(Value::Object(data))], caller)
        .await
    {
        Ok(a) => content::text_of(&a),
        Err(e) => return Err(ErrorData::invalid_params(e.to_string(), None)),
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        format!("{ask}\n\n{material}"),
    )])
    .with_description(format!("{name} ({date})")))
}
