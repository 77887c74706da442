//! A small, forgiving HTML-to-blocks reader for the regular HTML of vatican.va
//! pages and operator documents: block elements become [`Block`]s of plain
//! text, with the share of emphasised text (headings are italic or bold
//! lines), centring, heading tags and `<hr>` separators recorded.

/// One block of text (a paragraph, heading, list item …).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Block {
    /// The text, whitespace collapsed, entities decoded.
    pub text: String,
    /// Share (0–1) of the characters inside `<i>`, `<b>`, `<em>`, `<strong>`.
    pub emphasis: f32,
    /// Centred (`align="center"`, `text-align: center`, inside `<center>`).
    pub centered: bool,
    /// Came from `<h1>`…`<h6>`.
    pub heading_tag: bool,
    /// Number of `<hr>` seen before this block.
    pub hr_before: usize,
}

struct Builder {
    blocks: Vec<Block>,
    buf: String,
    emph_chars: usize,
    total_chars: usize,
    centered_depth: usize,
    block_centered: bool,
    heading: bool,
    hr: usize,
}

impl Builder {
    fn flush(&mut self) {
        let text = crate::text::squash(&self.buf);
        if !text.is_empty() {
            let emphasis = if self.total_chars == 0 {
                0.0
            } else {
                self.emph_chars as f32 / self.total_chars as f32
            };
            self.blocks.push(Block {
                text,
                emphasis,
                centered: self.block_centered || self.centered_depth > 0,
                heading_tag: self.heading,
                hr_before: self.hr,
            });
        }
        self.buf.clear();
        self.emph_chars = 0;
        self.total_chars = 0;
        self.block_centered = false;
        self.heading = false;
    }
}

const BLOCK_TAGS: &[&str] = &[
    "p",
    "div",
    "center",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "blockquote",
    "table",
    "tr",
    "td",
    "th",
    "ul",
    "ol",
    "section",
    "article",
    "header",
    "footer",
    "dd",
    "dt",
    "pre",
    "body",
    "title",
];

/// Parse HTML into blocks. Comments, `<script>`, `<style>` and `<head>` are skipped.
pub fn blocks(html: &str) -> Vec<Block> {
    let mut b = Builder {
        blocks: Vec::new(),
        buf: String::new(),
        emph_chars: 0,
        total_chars: 0,
        centered_depth: 0,
        block_centered: false,
        heading: false,
        hr: 0,
    };
    let mut emph = 0usize;
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            add_text(&mut b, rest, emph);
            break;
        };
        add_text(&mut b, &rest[..lt], emph);
        rest = &rest[lt..];
        if rest.starts_with("<!--") {
            rest = match rest.find("-->") {
                Some(e) => &rest[e + 3..],
                None => "",
            };
            continue;
        }
        let Some(gt) = rest.find('>') else {
            // A stray '<' with no tag end: keep it as text.
            add_text(&mut b, rest, emph);
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let tag_body = tag.trim_start_matches('/');
        let name: String = tag_body
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name.is_empty() {
            // "<" followed by a non-letter ("a < b"): text.
            if !closing && !tag.starts_with('!') && !tag.starts_with('?') {
                add_text(&mut b, &format!("<{tag}>"), emph);
            }
            continue;
        }
        match name.as_str() {
            "script" | "style" | "head" | "noscript" if !closing => {
                let end = format!("</{name}");
                let lower = rest.to_ascii_lowercase();
                rest = match lower.find(&end) {
                    Some(e) => {
                        let after = &rest[e..];
                        match after.find('>') {
                            Some(g) => &after[g + 1..],
                            None => "",
                        }
                    }
                    None => "",
                };
            }
            "br" => b.buf.push(' '),
            "hr" => {
                b.flush();
                b.hr += 1;
            }
            "i" | "b" | "em" | "strong" | "u" => {
                if closing {
                    emph = emph.saturating_sub(1);
                } else if !tag.ends_with('/') {
                    emph += 1;
                }
            }
            n if BLOCK_TAGS.contains(&n) => {
                b.flush();
                if n == "center" {
                    if closing {
                        b.centered_depth = b.centered_depth.saturating_sub(1);
                    } else {
                        b.centered_depth += 1;
                    }
                }
                if !closing {
                    let lower = tag_body.to_ascii_lowercase();
                    b.block_centered = lower.contains("align=\"center\"")
                        || lower.contains("align=center")
                        || lower.contains("text-align: center")
                        || lower.contains("text-align:center");
                    b.heading = n.len() == 2 && n.starts_with('h') && n != "hr";
                }
            }
            _ => {}
        }
    }
    b.flush();
    b.blocks
}

fn add_text(b: &mut Builder, raw: &str, emph: usize) {
    if raw.is_empty() {
        return;
    }
    let text = decode_entities(raw);
    let n = text.chars().filter(|c| !c.is_whitespace()).count();
    b.total_chars += n;
    if emph > 0 {
        b.emph_chars += n;
    }
    b.buf.push_str(&text);
}

/// Decode the character references that occur in vatican.va pages
/// (numeric, and the common named ones); unknown names are left as written.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest.char_indices().nth(12).map_or(rest.len(), |(i, _)| i);
        let semi = rest[..end].find(';');
        let Some(semi) = semi else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..semi];
        let decoded: Option<char> = if let Some(num) = name.strip_prefix('#') {
            let v = if let Some(hex) = num.strip_prefix(['x', 'X']) {
                u32::from_str_radix(hex, 16).ok()
            } else {
                num.parse::<u32>().ok()
            };
            v.and_then(char::from_u32)
        } else {
            named_entity(name)
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.replace('\u{a0}', " ")
}

fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "nbsp" => ' ',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "rsquo" => '’',
        "lsquo" => '‘',
        "rdquo" => '”',
        "ldquo" => '“',
        "laquo" => '«',
        "raquo" => '»',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "middot" => '·',
        "deg" => '°',
        "sect" => '§',
        "para" => '¶',
        "copy" => '©',
        "aelig" => 'æ',
        "AElig" => 'Æ',
        "oelig" => 'œ',
        "OElig" => 'Œ',
        "szlig" => 'ß',
        "ccedil" => 'ç',
        "Ccedil" => 'Ç',
        "ntilde" => 'ñ',
        "Ntilde" => 'Ñ',
        _ => return accented(name),
    })
}

fn accented(name: &str) -> Option<char> {
    // &eacute; &Agrave; &ocirc; &uuml; …
    let mut chars = name.chars();
    let base = chars.next()?;
    let accent: String = chars.collect();
    let combining = match accent.as_str() {
        "acute" => '\u{301}',
        "grave" => '\u{300}',
        "circ" => '\u{302}',
        "uml" => '\u{308}',
        "tilde" => '\u{303}',
        "ring" => '\u{30a}',
        _ => return None,
    };
    use unicode_normalization::UnicodeNormalization;
    let s: String = [base, combining].iter().collect::<String>().nfc().collect();
    let mut it = s.chars();
    let c = it.next()?;
    it.next().is_none().then_some(c)
}

/// The text of the first `<title>` element, when present.
pub fn title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let start = lower.find("<title")?;
    let open_end = lower[start..].find('>')? + start + 1;
    let end = lower[open_end..].find("</title")? + open_end;
    let t = crate::text::squash(&decode_entities(&html[open_end..end]));
    (!t.is_empty()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_emphasis() {
        let html = r#"<div><p align="center"><b>TITLE</b></p><p><i>A heading</i></p>
            <p>1. Some &amp; text&nbsp;here &eacute;t&eacute;.<br/>More.</p><!-- x --><hr/><p>* note</p></div>"#;
        let b = blocks(html);
        assert_eq!(b.len(), 4);
        assert!(b[0].centered);
        assert!(b[1].emphasis > 0.9);
        assert_eq!(b[2].text, "1. Some & text here été. More.");
        assert_eq!(b[2].emphasis, 0.0);
        assert_eq!(b[3].hr_before, 1);
    }

    #[test]
    fn broken_html_does_not_panic() {
        let b = blocks("<p>a < b and <unclosed");
        assert!(!b.is_empty());
        assert_eq!(
            decode_entities("&bogus; &#x263A; &#99999999;"),
            "&bogus; ☺ &#99999999;"
        );
    }
}
