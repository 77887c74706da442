//! `completion/complete`: suggestions for the prompts' `date` argument, filtered by what the
//! client has typed. Documents' ids are not enumerated (the corpus is found with `search`).

use rmcp::model::Reference;

/// Date phrases the readings and Martyrology understand, offered for a prompt's `date`.
const DATE_PHRASES: [&str; 12] = [
    "today",
    "tomorrow",
    "yesterday",
    "next Sunday",
    "last Sunday",
    "Ash Wednesday",
    "Palm Sunday",
    "Easter Sunday",
    "Ascension",
    "Pentecost",
    "Christmas",
    "All Saints",
];

/// Values for `argument` (typed so far: `value`) of the prompt or template `reference`.
/// Unknown prompts and arguments get no values, not an error (the client simply shows none).
pub fn values(reference: &Reference, argument: &str, value: &str) -> Vec<String> {
    let typed = value.trim().to_lowercase();
    match reference {
        Reference::Prompt(p)
            if matches!(
                p.name.as_str(),
                "explain_todays_gospel" | "saints_of_the_day"
            ) && argument == "date" =>
        {
            DATE_PHRASES
                .iter()
                .filter(|d| d.to_lowercase().starts_with(&typed))
                .map(|d| d.to_string())
                .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_complete_by_prefix() {
        let r = Reference::for_prompt("explain_todays_gospel");
        assert_eq!(values(&r, "date", "to"), ["today", "tomorrow"]);
        assert_eq!(values(&r, "date", "").len(), DATE_PHRASES.len());
        assert!(values(&r, "other", "to").is_empty());
        assert!(values(&Reference::for_prompt("nope"), "date", "to").is_empty());
        assert!(values(
            &Reference::for_resource("ecclesia://document/{id}{?ref}"),
            "id",
            "x"
        )
        .is_empty());
    }
}
