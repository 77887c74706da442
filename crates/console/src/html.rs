//! HTML escaping and the small builders every page uses.
//!
//! Every string that comes from a user, a skill or a dataset goes through
//! [`esc`] (text and attribute values alike) or [`url_enc`] (a query-string
//! component) before it reaches a page. Nothing else writes user text.

use std::fmt::Write;

/// Longest string any page echoes back (characters); longer input is cut
/// with an ellipsis before escaping, so a hostile 1 MB query cannot make a
/// 6 MB page.
pub const MAX_ECHO_CHARS: usize = 500;

/// Escape `s` for HTML text and for double- or single-quoted attribute values.
///
/// ```
/// assert_eq!(ecclesia_console::html::esc("<a href='x'>\"&"), "&lt;a href=&#39;x&#39;&gt;&quot;&amp;");
/// ```
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '`' => out.push_str("&#96;"),
            // Control characters other than tab/newline are not valid in HTML.
            c if c.is_control() && c != '\n' && c != '\t' && c != '\r' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// [`esc`] after cutting `s` to `max` characters (with an ellipsis).
pub fn esc_trunc(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        esc(s)
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{}…", esc(&cut))
    }
}

/// Percent-encode `s` as one query-string component (RFC 3986 unreserved kept).
pub fn url_enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// A query string from pairs (`?a=1&b=2`), each value encoded; empty values left out.
pub fn query(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (k, v) in pairs {
        if v.is_empty() {
            continue;
        }
        out.push(if out.is_empty() { '?' } else { '&' });
        out.push_str(&url_enc(k));
        out.push('=');
        out.push_str(&url_enc(v));
    }
    out
}

/// Text split into paragraphs on blank lines, each escaped, single newlines kept as `<br>`.
pub fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    for para in text.split("\n\n") {
        let para = para.trim();
        if para.is_empty() {
            continue;
        }
        out.push_str("<p>");
        out.push_str(&esc(para).replace('\n', "<br>"));
        out.push_str("</p>\n");
    }
    out
}

/// A reading's text, one verse per line as `[3] …`, as verses: each its own line with the
/// number set apart (`<sup class="vn">`); a line without a number is kept as a note.
pub fn verses(text: &str) -> String {
    let mut out = String::from("<p class=\"verses\">");
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let numbered = line
            .strip_prefix('[')
            .and_then(|rest| rest.split_once("] "))
            .filter(|(n, _)| n.len() <= 8 && n.starts_with(|c: char| c.is_ascii_digit()));
        match numbered {
            Some((n, verse)) => {
                out.push_str(&format!(
                    "<span class=\"verse\"><sup class=\"vn\">{}</sup> {}</span>",
                    esc(n),
                    esc(verse)
                ));
            }
            None => out.push_str(&format!("<span class=\"note\">{}</span>", esc(line))),
        }
    }
    out.push_str("</p>\n");
    out
}

/// A `<select>` with its `<label>`; `options` are (value, label); `selected` is marked.
pub fn select(name: &str, label: &str, options: &[(String, String)], selected: &str) -> String {
    let mut s = format!(
        "<label for=\"f-{n}\">{l}</label><select id=\"f-{n}\" name=\"{n}\">",
        n = esc(name),
        l = esc(label)
    );
    for (v, l) in options {
        let sel = if v == selected { " selected" } else { "" };
        let _ = write!(s, "<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l));
    }
    s.push_str("</select>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_strings_are_inert() {
        let hostile = "<script>alert(1)</script>\"'><img src=x onerror=alert(1)>`&";
        let e = esc(hostile);
        assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
        assert!(!e.contains('`'));
        assert!(e.starts_with("&lt;script&gt;"));
        assert!(e.ends_with("&#96;&amp;"));
        // Entities are escaped again, never passed through.
        assert_eq!(esc("&lt;"), "&amp;lt;");
        // Control characters are replaced.
        assert_eq!(esc("a\u{0}b\u{1b}c"), "a\u{FFFD}b\u{FFFD}c");
        // Other scripts pass.
        assert_eq!(esc("Thérèse 圣 সাধু"), "Thérèse 圣 সাধু");
    }

    #[test]
    fn long_strings_are_cut() {
        let long = "<".repeat(100_000);
        let e = esc_trunc(&long, MAX_ECHO_CHARS);
        assert_eq!(e.matches("&lt;").count(), MAX_ECHO_CHARS);
        assert!(e.ends_with('…'));
        assert_eq!(esc_trunc("short", 10), "short");
    }

    #[test]
    fn urls_encode_everything_reserved() {
        assert_eq!(url_enc("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(url_enc("\"><script>"), "%22%3E%3Cscript%3E");
        assert_eq!(
            query(&[("q", "x y"), ("e", ""), ("c", "us")]),
            "?q=x%20y&c=us"
        );
    }

    #[test]
    fn verses_are_set_apart() {
        assert_eq!(
            verses("[1] Be consoled\n[2a*] Speak <tenderly>\n(* note)"),
            "<p class=\"verses\"><span class=\"verse\"><sup class=\"vn\">1</sup> Be consoled</span><span class=\"verse\"><sup class=\"vn\">2a*</sup> Speak &lt;tenderly&gt;</span><span class=\"note\">(* note)</span></p>\n"
        );
    }

    #[test]
    fn paragraphs_escape() {
        assert_eq!(
            paragraphs("a<b\nc\n\n\nd"),
            "<p>a&lt;b<br>c</p>\n<p>d</p>\n"
        );
    }

    #[test]
    fn select_escapes_values() {
        let s = select("c", "Cal", &[("\"x".into(), "<y>".into())], "\"x");
        assert!(s.contains("value=\"&quot;x\" selected"));
        assert!(s.contains("&lt;y&gt;"));
    }
}
