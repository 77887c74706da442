//! The proper of the Mass of a day of the 1962 Missal, in Latin, with the Epistle's and the
//! Gospel's citations in our book names.
//!
//! A part missing from the day's formulary is taken from the formulary it names (`ex C2a`,
//! `vide Epi1-0a`), and a feria whose rule is `Oratio Dominica` repeats the Sunday's Mass
//! (Rubricae generales Missalis, "De Missa feriali").

use super::occurrence::Occurrence;
use super::source::{Context, Library};
use serde::Serialize;

/// The parts of the proper, in the order of the Mass.
pub const PARTS: [(&str, &str); 9] = [
    ("Introitus", "Introit"),
    ("Oratio", "Collect"),
    ("Lectio", "Epistle"),
    ("Graduale", "Gradual"),
    ("Evangelium", "Gospel"),
    ("Offertorium", "Offertory"),
    ("Secreta", "Secret"),
    ("Communio", "Communion"),
    ("Postcommunio", "Postcommunion"),
];

/// One part of the proper.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProperPart {
    /// English name of the part (`Introit`, `Gradual`, `Tract`).
    pub part: String,
    /// The Latin text, rubrics and macros removed.
    pub latin: String,
    /// For the Epistle and the Gospel, the citation as the Missal gives it (`Rom 13:11-14`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_la: Option<String>,
    /// The citation in our book names and the Missal's (Vulgate) numbering (`Rom 13:11-14`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation: Option<String>,
}

/// The proper of the day's Mass.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proper {
    /// The formulary (`Tempora/Adv1-0`).
    pub file: String,
    /// The parts found, in order.
    pub parts: Vec<ProperPart>,
}

impl Proper {
    /// The citation of a part (`Epistle`, `Gospel`).
    pub fn citation(&self, part: &str) -> Option<&str> {
        self.parts
            .iter()
            .find(|p| p.part == part)
            .and_then(|p| p.citation.as_deref())
    }
}

/// Assemble the proper of an occurrence's Mass.
pub fn proper(library: &Library, occurrence: &Occurrence, ctx: Context) -> Proper {
    let winner = &occurrence.winner;
    let mut sources = vec![first_mass(library, &winner.file)];
    // The days of January after the Sunday of the Holy Family are ferias that say the
    // Sunday's Mass (In excelso throno), which the Temporale of the week names.
    let feria_of_january =
        !winner.temporal && winner.rank < 2.0 && winner.title_la.starts_with("Die ");
    if let Some(c) = occurrence
        .temporal
        .as_ref()
        .and_then(|t| t.commune.clone())
        .filter(|_| feria_of_january)
    {
        sources.push(c);
    }
    // A feria of the Temporale says the Sunday's Mass where it has no proper of its own
    // (Rubricae generales Missalis: "De Missa feriali"); the Sunday's Mass of the week after
    // Epiphany and after Pentecost is `-0a` (`-0` is the Holy Family, Trinity Sunday), and
    // its 1960 form `-0r`. Holy Week's days all have their own.
    let mut sunday = Vec::new();
    if winner.temporal && !winner.is_sunday() && !winner.file.contains("Quad6-") {
        if let Some(s) = sunday_of(&winner.file) {
            for candidate in [format!("{s}a"), format!("{s}r"), s] {
                if library.has(&candidate) {
                    sunday.push(candidate);
                }
            }
        }
    }
    // "Oratio Dominica": the Sunday's Mass before anything the rule names (the ferias of the
    // former octave of Corpus Christi say the Sunday's Mass since 1960).
    let sunday_first = winner
        .rule
        .lines()
        .any(|l| l.trim().eq_ignore_ascii_case("oratio dominica"));
    if sunday_first {
        sources.append(&mut sunday);
    }
    if let Some(c) = &winner.commune {
        sources.push(c.clone());
    }
    for line in winner.rule.lines() {
        let line = line.trim().trim_end_matches(';');
        if let Some(rest) = line
            .strip_prefix("ex ")
            .or_else(|| line.strip_prefix("vide "))
        {
            sources.push(rest.trim().to_string());
        }
    }
    sources.append(&mut sunday);
    let repeated_sunday = sources.len() > 1 && winner.temporal && !winner.is_sunday();
    let mut parts = Vec::new();
    for (section, english) in PARTS {
        let (section, english) = match section {
            "Graduale" if ctx.penitential && find(library, &sources, "Tractus", ctx).is_some() => {
                ("Tractus", "Tract")
            }
            "Graduale"
                if repeated_sunday && find(library, &sources, "GradualeF", ctx).is_some() =>
            {
                ("GradualeF", "Gradual")
            }
            other => (other, english),
        };
        let Some(text) = find(library, &sources, section, ctx) else {
            continue;
        };
        let citation_la = matches!(section, "Lectio" | "Evangelium")
            .then(|| citation_line(&text))
            .flatten();
        let citation = citation_la.as_deref().and_then(normalise_citation);
        parts.push(ProperPart {
            part: english.to_string(),
            latin: clean(&text),
            citation_la,
            citation,
        });
    }
    if !parts
        .iter()
        .any(|p| p.part == "Epistle" || p.part == "Gospel")
    {
        if let Some(prelude) = find(library, &sources, "Prelude", ctx) {
            parts.extend(rite_readings(&prelude));
        }
    }
    Proper {
        file: winner.file.clone(),
        parts,
    }
}

const GOSPELS: [&str; 4] = ["Matt", "Mark", "Luke", "John"];

/// Good Friday and Holy Saturday have no proper but a rite (`[Prelude]`) whose lessons carry
/// their citations. The Gospel is the rite's last Gospel reading (the Passion on Good Friday,
/// Matthew 28 at the Easter Vigil's Mass), the Epistle the last other lesson before it (Exodus
/// 12 on Good Friday, Colossians 3 at the Vigil), as the Missal prints them.
fn rite_readings(prelude: &str) -> Vec<ProperPart> {
    let lines: Vec<&str> = prelude.lines().collect();
    let mut readings: Vec<(usize, String, String)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = l.trim().strip_prefix('!') else {
            continue;
        };
        let c = c.trim();
        if let Some(norm) = normalise_citation(c) {
            if !norm.starts_with("Ps ") {
                readings.push((i, c.trim_end_matches('.').to_string(), norm));
            }
        }
    }
    let is_gospel = |n: &str| GOSPELS.iter().any(|g| n.starts_with(g));
    let Some(g) = readings.iter().rposition(|(_, _, n)| is_gospel(n)) else {
        return Vec::new();
    };
    let text_after = |at: usize| {
        let body: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|l| !l.trim().starts_with('!') && l.trim() != "_")
            .copied()
            .collect();
        clean(&body.join("\n"))
    };
    let mut out = Vec::new();
    if let Some((at, la, norm)) = readings[..g].iter().rev().find(|(_, _, n)| !is_gospel(n)) {
        out.push(ProperPart {
            part: "Epistle".into(),
            latin: text_after(*at),
            citation_la: Some(la.clone()),
            citation: Some(norm.clone()),
        });
    }
    let (at, la, norm) = &readings[g];
    out.push(ProperPart {
        part: "Gospel".into(),
        latin: text_after(*at),
        citation_la: Some(la.clone()),
        citation: Some(norm.clone()),
    });
    out
}

/// The Mass said when a day has several: the first of Christmas and of All Souls (`m1`), and
/// on Maundy Thursday the evening Mass of the Lord's Supper (`m2`; `m1` is the bishop's Chrism
/// Mass).
fn first_mass(library: &Library, file: &str) -> String {
    let choice = if file.contains("Quad6-4") { "m2" } else { "m1" };
    let candidate = format!("{file}{choice}");
    if library.has(&candidate) {
        candidate
    } else {
        file.to_string()
    }
}

fn find(library: &Library, sources: &[String], section: &str, ctx: Context) -> Option<String> {
    sources
        .iter()
        .find_map(|s| library.section(s, section, ctx))
        .filter(|t| !t.trim().is_empty())
}

/// `Tempora/Pent05-2` → `Tempora/Pent05-0` (`None` for a Sunday or a day of Christmastide).
fn sunday_of(file: &str) -> Option<String> {
    let (week, day) = file.rsplit_once('-')?;
    let day = day.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    (day != "0" && day.chars().all(|c| c.is_ascii_digit()) && !day.is_empty())
        .then(|| format!("{week}-0"))
}

/// The first `!Book ch:v` (or `!Book ch, v`) line of a reading whose book we know.
fn citation_line(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let c = l.trim().strip_prefix('!')?.trim();
        normalise_citation(c).map(|_| c.trim_end_matches('.').to_string())
    })
}

/// The Missal's book abbreviations (Latin, sometimes English) to OSIS codes.
const BOOKS: &[(&str, &str)] = &[
    ("Matt", "Matt"),
    ("Matth", "Matt"),
    ("Luc", "Luke"),
    ("Luke", "Luke"),
    ("Joann", "John"),
    ("Joannes", "John"),
    ("Joh", "John"),
    ("John", "John"),
    ("Marc", "Mark"),
    ("Mark", "Mark"),
    ("1 Cor", "1Cor"),
    ("2 Cor", "2Cor"),
    ("Rom", "Rom"),
    ("Eccli", "Sir"),
    ("Ecclus", "Sir"),
    ("Is", "Isa"),
    ("Isa", "Isa"),
    ("Act", "Acts"),
    ("Acts", "Acts"),
    ("Sap", "Wis"),
    ("Apoc", "Rev"),
    ("1 Pet", "1Pet"),
    ("1 Petri", "1Pet"),
    ("1 Petr", "1Pet"),
    ("2 Pet", "2Pet"),
    ("2 Petri", "2Pet"),
    ("Hebr", "Heb"),
    ("Heb", "Heb"),
    ("Ephes", "Eph"),
    ("Eph", "Eph"),
    ("Dan", "Dan"),
    ("Jer", "Jer"),
    ("Gal", "Gal"),
    ("1 Thess", "1Thess"),
    ("2 Thess", "2Thess"),
    ("Phil", "Phil"),
    ("Philipp", "Phil"),
    ("Ezech", "Ezek"),
    ("1 Tim", "1Tim"),
    ("1. Tim", "1Tim"),
    ("2 Tim", "2Tim"),
    ("Exod", "Exod"),
    ("3 Reg", "1Kgs"),
    ("4 Reg", "2Kgs"),
    ("Prov", "Prov"),
    ("Lev", "Lev"),
    ("Levit", "Lev"),
    ("Judith", "Jdt"),
    ("Jas", "Jas"),
    ("Jac", "Jas"),
    ("Jc", "Jas"),
    ("Gen", "Gen"),
    ("Deut", "Deut"),
    ("Col", "Col"),
    ("Tit", "Titus"),
    ("Joël", "Joel"),
    ("Joel", "Joel"),
    ("Cant", "Song"),
    ("1 Mach", "1Macc"),
    ("2 Mach", "2Macc"),
    ("1 Joann", "1John"),
    ("1 Joannes", "1John"),
    ("1 Joannnes", "1John"),
    ("1 John", "1John"),
    ("Zach", "Zech"),
    ("Tob", "Tob"),
    ("Osee", "Hos"),
    ("Num", "Num"),
    ("Neh", "Neh"),
    ("Mich", "Mic"),
    ("Malach", "Mal"),
    ("Jonæ", "Jonah"),
    ("Jon", "Jonah"),
    ("Esth", "Esth"),
    ("Eccles", "Eccl"),
    ("Amos", "Amos"),
    ("Jud", "Judg"),
    ("Bar", "Bar"),
    ("Agg", "Hag"),
    ("Soph", "Zeph"),
    ("Ps", "Ps"),
    ("Job", "Job"),
    ("Exodus", "Exod"),
    ("Ioann", "John"),
    ("Ioannes", "John"),
    ("Ias", "Jas"),
    ("Ic", "Jas"),
    ("1 Ioann", "1John"),
    ("1 Ioannes", "1John"),
    ("1 Ioannnes", "1John"),
    ("1 Reg", "1Sam"),
    ("2 Reg", "2Sam"),
];

/// `Joann 5:25-29` → `John 5:25-29`; `1 Petri 5:6-11` → `1Pet 5:6-11`. `None` for a book we
/// do not know.
pub fn normalise_citation(raw: &str) -> Option<String> {
    let raw = raw.trim().trim_end_matches('.');
    // The book is everything before the first token that starts with a digit after the name.
    let mut split = 0;
    let bytes = raw.as_bytes();
    let mut i = 0;
    if bytes.len() > 2 && bytes[0].is_ascii_digit() && (bytes[1] == b' ' || bytes[1] == b'.') {
        i = 2;
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
    }
    while i < bytes.len() {
        if bytes[i] == b' ' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            split = i;
            break;
        }
        i += 1;
    }
    if split == 0 {
        return None;
    }
    let book = raw[..split]
        .trim()
        .trim_end_matches('.')
        .trim_end_matches(',');
    // `10, 37-43` (chapter, verses) is `10:37-43`.
    let rest = chapter_colon(raw[split..].trim());
    let osis = BOOKS.iter().find(|(la, _)| *la == book).map(|(_, o)| *o)?;
    Some(format!("{osis} {rest}"))
}

/// `10, 37-43` → `10:37-43`; `14:32-72; 15, 1-46` → `14:32-72; 15:1-46`; `28. 1-7` → `28:1-7`.
fn chapter_colon(spec: &str) -> String {
    spec.split(';')
        .map(|piece| {
            let piece = piece.trim();
            if piece.contains(':') {
                return piece.to_string();
            }
            let digits: String = piece.chars().take_while(char::is_ascii_digit).collect();
            let rest = piece[digits.len()..].trim_start();
            match rest.strip_prefix(',').or_else(|| rest.strip_prefix('.')) {
                Some(verses) if !digits.is_empty() => format!("{digits}:{}", verses.trim()),
                _ => piece.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The Latin text of a part without the Missal's markup: `!` rubric and citation lines,
/// `$Per Dominum` and `&Gloria` macros (named in brackets), `v.`/`V.`/`R.` marks kept.
fn clean(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line == "_" || line.starts_with('!') {
            continue;
        }
        if let Some(m) = line.strip_prefix('$').or_else(|| line.strip_prefix('&')) {
            out.push(format!("[{m}]"));
            continue;
        }
        let line = line.strip_prefix("v. ").unwrap_or(line);
        out.push(line.replace("++", "").replace("  ", " "));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_normalise() {
        assert_eq!(
            normalise_citation("Rom 13:11-14.").as_deref(),
            Some("Rom 13:11-14")
        );
        assert_eq!(
            normalise_citation("Joann 5:25-29").as_deref(),
            Some("John 5:25-29")
        );
        assert_eq!(
            normalise_citation("1 Petri 5:6-11").as_deref(),
            Some("1Pet 5:6-11")
        );
        assert_eq!(
            normalise_citation("Luc. 2:1-14").as_deref(),
            Some("Luke 2:1-14")
        );
        assert_eq!(
            normalise_citation("Eccli 44:16-27; 45:3-20").as_deref(),
            Some("Sir 44:16-27; 45:3-20")
        );
        assert_eq!(normalise_citation("Nowhere 1:1"), None);
        assert_eq!(
            normalise_citation("Act. 10, 37-43.").as_deref(),
            Some("Acts 10:37-43")
        );
        assert_eq!(
            normalise_citation("Marc 14:32-72; 15, 1-46").as_deref(),
            Some("Mark 14:32-72; 15:1-46")
        );
        assert_eq!(
            normalise_citation("Matt, 28. 1-7").as_deref(),
            Some("Matt 28:1-7")
        );
        assert_eq!(normalise_citation(""), None);
    }

    #[test]
    fn citation_lines_skip_rubrics() {
        assert_eq!(
            citation_line("Lectio Epistolae\n!Rom 13:11-14.\nFratres").as_deref(),
            Some("Rom 13:11-14")
        );
        assert_eq!(citation_line("!Prayer\ntext"), None);
    }

    #[test]
    fn a_rite_gives_its_last_lesson_and_gospel() {
        let prelude = "!Lectio prima\n!Osee 6:1-6\nHæc dicit Dóminus\n!Responsorium\n!Ps 41:2-4\nSicut cervus\n!Lectio\n!Exod 12:1-11\nIn diébus illis\n_\n!Passio\n!Joann 18:1-40; 19:1-42\nIn illo témpore";
        let parts = rite_readings(prelude);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].citation.as_deref(), Some("Exod 12:1-11"));
        assert_eq!(parts[0].latin, "In diébus illis");
        assert_eq!(parts[1].citation.as_deref(), Some("John 18:1-40; 19:1-42"));
        assert!(rite_readings("!Rubric only").is_empty());
    }

    #[test]
    fn markup_is_removed() {
        assert_eq!(
            clean("!Ps 24:1-3\nv. Ad te levávi\n&Gloria\n$Qui vivis"),
            "Ad te levávi\n[Gloria]\n[Qui vivis]"
        );
    }
}
