//! Divinum Officium's text files, read for the rubrics of 1960.
//!
//! A file is a list of sections (`[Rank]`, `[Lectio]`…), a section may carry a condition
//! (`[Rank] (rubrica 196)`), its lines may be switched by in-text conditions
//! (`(sed rubrica 196)`), and it may be taken from another file (`@Sancti/01-25`,
//! `@Commune/C5-1:Evangelium`, a whole file by a first line `@Path`). The format is documented
//! in the dataset's `technical.upstream.html` ("Conditionals", "Special characters"); this
//! module implements the part the calendar and the Mass need, for one version:
//! "Rubrics 1960 - 1960".

use crate::error::LiturgyError;
use std::collections::HashMap;
use std::path::Path;

/// How deep `@` references may nest before we stop (the data nests at most 4 deep).
const MAX_DEPTH: usize = 8;

/// The version string conditions are tested against.
const VERSION: &str = "Rubrics 1960 - 1960";

/// One section of a file.
#[derive(Debug, Clone)]
struct Section {
    name: String,
    condition: Option<String>,
    body: String,
}

/// One parsed file.
#[derive(Debug, Clone, Default)]
struct SourceFile {
    /// The file whose sections this one inherits (a first line `@Sancti/12-28`).
    inherits: Option<String>,
    sections: Vec<Section>,
}

/// What an in-text condition may ask about the day (only the season is known here).
#[derive(Debug, Clone, Copy, Default)]
pub struct Context {
    /// Easter Time (Easter Sunday to the Saturday after Pentecost).
    pub paschal: bool,
    /// Septuagesima to Holy Saturday (the Tract replaces the Alleluia).
    pub penitential: bool,
}

/// Every Latin Mass and calendar file of the 1962 Missal, by key (`Sancti/01-25r`,
/// `Tempora/Adv1-0`, `Commune/C5-1`).
#[derive(Debug, Clone, Default)]
pub struct Library {
    files: HashMap<String, SourceFile>,
}

impl Library {
    /// Load `missa/Latin/{Tempora,Sancti,Commune}` and the fall-backs in
    /// `horas/Latin/{Tempora,Sancti,Commune}` under the dataset folder.
    pub fn load(root: &Path) -> Result<Self, LiturgyError> {
        let mut files = HashMap::new();
        // horas first, so that missa's file of the same key wins.
        for base in ["horas/Latin", "missa/Latin"] {
            for folder in ["Tempora", "Sancti", "Commune"] {
                let dir = root.join(base).join(folder);
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let path = entry.path();
                    let Some(stem) = path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .and_then(|n| n.strip_suffix(".txt"))
                    else {
                        continue;
                    };
                    let text =
                        std::fs::read_to_string(&path).map_err(|e| LiturgyError::io(&path, e))?;
                    files.insert(format!("{folder}/{stem}"), parse_file(&text));
                }
            }
        }
        if !files.keys().any(|k| k.starts_with("Tempora/")) {
            return Err(LiturgyError::data(
                &root.join("missa/Latin/Tempora"),
                "no Mass files found".into(),
            ));
        }
        Ok(Library { files })
    }

    /// A library from (key, text) pairs, for tests.
    pub fn from_texts<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Library {
            files: texts
                .into_iter()
                .map(|(k, t)| (k.to_string(), parse_file(t)))
                .collect(),
        }
    }

    /// True when the file exists.
    pub fn has(&self, key: &str) -> bool {
        self.files.contains_key(&normalise_key(key))
    }

    /// The text of a section with its references followed and conditions applied, or `None`.
    pub fn section(&self, key: &str, name: &str, ctx: Context) -> Option<String> {
        self.section_at(&normalise_key(key), name, ctx, 0)
    }

    fn section_at(&self, key: &str, name: &str, ctx: Context, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = self.files.get(key)?;
        let chosen = file
            .sections
            .iter()
            .filter(|s| s.name == name)
            .filter(|s| s.condition.as_deref().is_none_or(|c| holds(c, ctx)))
            // A section whose condition holds replaces the unconditional one.
            .max_by_key(|s| s.condition.is_some());
        match chosen {
            Some(s) => {
                let body = apply_conditions(&s.body, ctx);
                Some(self.follow(key, name, &body, ctx, depth))
            }
            None => file
                .inherits
                .as_deref()
                .and_then(|parent| self.section_at(parent, name, ctx, depth + 1)),
        }
    }

    /// Replace `@Path[:Section[:s/a/b/]]` lines by the text they name.
    fn follow(&self, key: &str, name: &str, body: &str, ctx: Context, depth: usize) -> String {
        let mut out = Vec::new();
        for line in body.lines() {
            let Some(reference) = line.trim().strip_prefix('@') else {
                out.push(line.to_string());
                continue;
            };
            let mut parts = reference.splitn(3, ':');
            let path = parts.next().unwrap_or("").trim();
            let section = parts.next().map(str::trim).filter(|s| !s.is_empty());
            let substitution = parts.next();
            let target = if path.is_empty() {
                key.to_string()
            } else {
                normalise_key(path)
            };
            let wanted = section.unwrap_or(name);
            if target == key && wanted == name {
                continue;
            }
            if let Some(mut text) = self.section_at(&target, wanted, ctx, depth + 1) {
                if let Some(sub) = substitution {
                    text = substitute(&text, sub);
                }
                out.push(text);
            }
        }
        out.join("\n")
    }
}

/// `Commune/C5-1`, `../Commune/Propaganda`, `C5-1` (a bare commune), `Sancti/9-12` (upstream
/// typo for 09-12) all to one form.
fn normalise_key(raw: &str) -> String {
    let raw = raw.trim().trim_start_matches("../");
    let (folder, file) = match raw.split_once('/') {
        Some((f, n)) => (f, n),
        None if raw.starts_with('C') => ("Commune", raw),
        None => ("Tempora", raw),
    };
    let file = match file.split_once('-') {
        Some((m, rest))
            if folder == "Sancti" && m.len() == 1 && m.chars().all(|c| c.is_ascii_digit()) =>
        {
            format!("0{m}-{rest}")
        }
        _ => file.to_string(),
    };
    format!("{folder}/{file}")
}

/// `s/old/new/` applied literally (the data uses plain words).
fn substitute(text: &str, sub: &str) -> String {
    let Some(body) = sub.strip_prefix("s/") else {
        return text.to_string();
    };
    let mut parts = body.splitn(3, '/');
    let (Some(from), Some(to)) = (parts.next(), parts.next()) else {
        return text.to_string();
    };
    if from.is_empty() || from.contains(['\\', '^', '$', '*', '+', '?', '(', '[', '.']) {
        return text.to_string();
    }
    text.replace(from, to)
}

fn parse_file(text: &str) -> SourceFile {
    let mut file = SourceFile::default();
    let mut current: Option<Section> = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(header) = line.strip_prefix('[') {
            if let Some((name, rest)) = header.split_once(']') {
                if let Some(s) = current.take() {
                    file.sections.push(s);
                }
                let condition = rest
                    .trim()
                    .strip_prefix('(')
                    .and_then(|c| c.strip_suffix(')'))
                    .map(str::to_string);
                current = Some(Section {
                    name: name.trim().to_string(),
                    condition,
                    body: String::new(),
                });
                continue;
            }
        }
        match current.as_mut() {
            Some(s) => {
                s.body.push_str(line);
                s.body.push('\n');
            }
            None => {
                if let Some(parent) = line.trim().strip_prefix('@') {
                    file.inherits = Some(normalise_key(parent));
                }
            }
        }
    }
    if let Some(s) = current {
        file.sections.push(s);
    }
    for s in &mut file.sections {
        s.body = s.body.trim_end().to_string();
    }
    file
}

/// The words that open an in-text condition, and whether they look back (remove what came
/// before when the condition holds).
fn stopword(word: &str) -> Option<bool> {
    match word {
        "sed" | "vero" | "attamen" => Some(true),
        "si" | "deinde" | "atque" => Some(false),
        _ => None,
    }
}

/// Apply the in-text conditions `(sed rubrica 196)`, `(deinde rubrica 1960 dicitur)`,
/// `(sed rubrica 196 omittitur)` to a section's lines.
fn apply_conditions(body: &str, ctx: Context) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut skip_next = false;
    // Where the last forward-scoped condition began: "hæc versus omittuntur" removes back to it.
    let mut mark = 0;
    for line in body.lines() {
        let trimmed = line.trim();
        let inner = trimmed
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .filter(|t| !t.contains('(') && looks_like_condition(t));
        let Some(inner) = inner else {
            if skip_next {
                skip_next = false;
                continue;
            }
            out.push(line.to_string());
            continue;
        };
        skip_next = false;
        let words: Vec<&str> = inner.split_whitespace().collect();
        let (back, rest) = match words.first().and_then(|w| stopword(w)) {
            Some(back) => (back, &words[1..]),
            None => (false, &words[..]),
        };
        let (condition, instruction) = split_instruction(rest);
        let holds = holds(&condition.join(" "), ctx);
        match instruction {
            Some(Instruction::OmitOne) => {
                if holds {
                    pop_line(&mut out);
                }
            }
            Some(Instruction::OmitAll) => {
                if holds {
                    out.truncate(mark.min(out.len()));
                }
            }
            Some(Instruction::Say) | None => {
                if holds {
                    if back {
                        pop_line(&mut out);
                    }
                } else {
                    skip_next = true;
                }
                if !back || instruction.is_some() {
                    mark = out.len();
                }
            }
        }
    }
    out.join("\n")
}

fn pop_line(out: &mut Vec<String>) {
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.pop();
}

fn looks_like_condition(inner: &str) -> bool {
    let first = inner.split_whitespace().next().unwrap_or("");
    stopword(first).is_some()
        || matches!(
            first,
            "rubrica" | "rubricis" | "nisi" | "tempore" | "communi" | "feria" | "die" | "missa"
        )
}

enum Instruction {
    Say,
    OmitOne,
    OmitAll,
}

fn split_instruction<'a>(words: &'a [&'a str]) -> (&'a [&'a str], Option<Instruction>) {
    let at = words.iter().position(|w| {
        matches!(
            *w,
            "dicitur" | "dicuntur" | "omittitur" | "omittuntur" | "loco" | "hic" | "hi" | "hæc"
        )
    });
    let Some(at) = at else {
        return (words, None);
    };
    let tail = &words[at..];
    let instruction = if tail.contains(&"omittuntur") {
        Instruction::OmitAll
    } else if tail.contains(&"omittitur") {
        Instruction::OmitOne
    } else {
        Instruction::Say
    };
    (&words[..at], Some(instruction))
}

/// Evaluate a condition such as `rubrica 196 aut rubrica 1955`, `rubrica tridentina nisi
/// rubrica cisterciensis`, `tempore paschali` for the 1960 rubrics. `aut` binds loosest;
/// `et` and `nisi` (and not) bind tighter.
pub(crate) fn holds(condition: &str, ctx: Context) -> bool {
    let words: Vec<&str> = condition.split_whitespace().collect();
    let words: &[&str] = match words.first().and_then(|w| stopword(w)) {
        Some(_) => &words[1..],
        None => &words,
    };
    if words.is_empty() {
        return true;
    }
    words
        .split(|w| *w == "aut")
        .any(|alternative| conjunction(alternative, ctx))
}

fn conjunction(words: &[&str], ctx: Context) -> bool {
    let mut result = true;
    let mut negate_next = false;
    let mut term: Vec<&str> = Vec::new();
    let flush = |term: &mut Vec<&str>, negate: bool, result: &mut bool| {
        if term.is_empty() {
            return;
        }
        let value = atom(term, ctx);
        *result &= if negate { !value } else { value };
        term.clear();
    };
    for w in words {
        match *w {
            "et" => {
                flush(&mut term, negate_next, &mut result);
                negate_next = false;
            }
            "nisi" => {
                flush(&mut term, negate_next, &mut result);
                negate_next = true;
            }
            other => term.push(other),
        }
    }
    flush(&mut term, negate_next, &mut result);
    result
}

/// One `subject predicate` test.
fn atom(term: &[&str], ctx: Context) -> bool {
    let (negate, term) = match term.first() {
        Some(&"non") => (true, &term[1..]),
        _ => (false, term),
    };
    let subject = term.first().copied().unwrap_or("").to_lowercase();
    let predicate = term
        .get(1..)
        .map(|p| p.join(" "))
        .unwrap_or_default()
        .to_lowercase();
    let value = match subject.as_str() {
        "rubrica" | "rubricis" => rubric_matches(&predicate),
        "tempore" => match predicate.as_str() {
            "paschali" => ctx.paschal,
            "post septuagesimam" | "septuagesimae" | "septuagesimæ" | "quadragesimae"
            | "quadragesimæ" => ctx.penitential,
            _ => false,
        },
        // The Commune of Popes (1942) is in force for the 1960 rubrics.
        "communi" => predicate == "summorum pontificum",
        // The first (or only) Mass of the day.
        "missa" => predicate == "prima",
        "ad" => predicate == "missam",
        _ => false,
    };
    value != negate
}

fn rubric_matches(predicate: &str) -> bool {
    let version = VERSION.to_lowercase();
    match predicate {
        "tridentina" => version.contains("trident"),
        "monastica" => version.contains("monastic"),
        "divino" => version.contains("divino"),
        "innovata" | "innovatis" => version.contains("2020") || version.contains("newcal"),
        "cisterciensis" | "altovadensis" | "praedicatorum" | "ordo praedicatorum" => false,
        "" => false,
        other => version.contains(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib() -> Library {
        Library::from_texts([
            (
                "Tempora/Quad1-1",
                "[Officium]\nFeria II\n\n[Rank]\n;;Feria major;;2.1\n(sed rubrica 1930)\n;;Feria major;;4.9\n(sed rubrica 196)\n;;Feria major;;3.9\n",
            ),
            (
                "Tempora/Quadp1-0",
                "[Rank]\n;;Semiduplex;;5.6\n\n[Rank] (rubrica 1570 aut rubrica 1888)\n;;Semiduplex;;6.1\n\n[Rank] (rubrica 196)\n;;Semiduplex;;5\n",
            ),
            ("Sancti/12-28r", "@Sancti/12-28\n\n[Rule]\nGloria\n"),
            (
                "Sancti/12-28",
                "[Rank]\nSs. Innocentium;;Duplex II;;5\n\n[Rule]\nno Gloria\n\n[Lectio]\n@Commune/C3:Lectio:s/Fratres/Carissimi/\n\n[Evangelium]\n@:Lectio\n",
            ),
            ("Commune/C3", "[Lectio]\n!Apoc 14:1-5\nFratres: text\n"),
        ])
    }

    #[test]
    fn conditions_switch_lines_and_sections() {
        let l = lib();
        let c = Context::default();
        assert_eq!(
            l.section("Tempora/Quad1-1", "Rank", c).unwrap(),
            ";;Feria major;;3.9"
        );
        assert_eq!(
            l.section("Tempora/Quadp1-0", "Rank", c).unwrap(),
            ";;Semiduplex;;5"
        );
        assert_eq!(
            l.section("Tempora/Quad1-1", "Officium", c).unwrap(),
            "Feria II"
        );
    }

    #[test]
    fn references_are_followed() {
        let l = lib();
        let c = Context::default();
        assert_eq!(l.section("Sancti/12-28r", "Rule", c).unwrap(), "Gloria");
        assert!(l
            .section("Sancti/12-28r", "Rank", c)
            .unwrap()
            .starts_with("Ss. Innocentium"));
        assert_eq!(
            l.section("Sancti/12-28r", "Lectio", c).unwrap(),
            "!Apoc 14:1-5\nCarissimi: text"
        );
        assert_eq!(
            l.section("Sancti/12-28", "Evangelium", c).unwrap(),
            "!Apoc 14:1-5\nCarissimi: text"
        );
        assert!(l.section("Sancti/12-28", "Graduale", c).is_none());
        assert!(l.section("Sancti/99-99", "Rank", c).is_none());
    }

    #[test]
    fn condition_grammar() {
        let c = Context::default();
        assert!(holds("rubrica 196 aut rubrica 1955", c));
        assert!(!holds("rubrica 1955", c));
        assert!(!holds("rubrica tridentina", c));
        assert!(holds("sed rubrica 1960", c));
        assert!(!holds("rubrica 1960 nisi rubrica 196", c));
        assert!(holds("non rubrica 1570", c));
        assert!(!holds("tempore paschali", c));
        assert!(holds("communi Summorum Pontificum", c));
        assert!(holds(
            "tempore paschali",
            Context {
                paschal: true,
                penitential: false
            }
        ));
    }

    #[test]
    fn keys_normalise() {
        assert_eq!(normalise_key("../Commune/Propaganda"), "Commune/Propaganda");
        assert_eq!(normalise_key("Sancti/9-12"), "Sancti/09-12");
        assert_eq!(normalise_key("C5-1"), "Commune/C5-1");
    }
}
