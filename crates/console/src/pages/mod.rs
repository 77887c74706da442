//! One module per page.

pub mod ask;
pub mod calendar;
pub mod document;
pub mod explorer;
pub mod home;
pub mod lookup;
pub mod martyrology;
pub mod readings;
pub mod search;

/// `SOLEMNITY` → `Solemnity`, `ORDINARY_TIME` → `Ordinary Time`.
pub fn humanize(code: &str) -> String {
    code.split(['_', ' '])
        .filter(|w| !w.is_empty())
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

/// A CSS-safe class token from a code (`WHITE`, `SOLEMNITY`): letters, digits, `_` only.
pub fn class_token(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(32)
        .collect()
}

/// A `lang` attribute for a language tag from the data, when it looks like one.
pub fn lang_attr(tag: Option<&str>) -> String {
    match tag {
        Some(t)
            if !t.is_empty()
                && t.len() <= 12
                && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') =>
        {
            format!(" lang=\"{}\"", t.to_ascii_lowercase())
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn helpers() {
        assert_eq!(super::humanize("ORDINARY_TIME"), "Ordinary Time");
        assert_eq!(super::class_token("WH\"ITE<"), "WHITE");
        assert_eq!(super::lang_attr(Some("la")), " lang=\"la\"");
        assert_eq!(super::lang_attr(Some("x\" onload")), "");
    }
}
