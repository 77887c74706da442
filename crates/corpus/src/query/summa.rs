//! Summa Theologiae references as people write them, read into the form the
//! store gives the Summa's passages (`I-II, q. 109, a. 2`):
//!
//! `ST I-II q.109 a.2`, `S.T. I-II, q. 109, a. 2`, `Summa 1a 2ae 109, 2`,
//! `STh I q2 a3`, `IIa-IIae q. 23 a. 1`, `Summa Theologiae III, 75, 1`,
//! `I-II, q. 109` (a whole question).
//!
//! A bare `I 2 3` is not read as a reference: the query must say `q.`, name
//! the Summa (`ST`, `STh`, `Summa`, `Aquinas`), or use the `1a 2ae` parts.

/// The part of the Summa.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Prima pars.
    I,
    /// Prima secundae.
    IIi,
    /// Secunda secundae.
    IIii,
    /// Tertia pars.
    III,
    /// The supplement.
    Suppl,
}

impl Part {
    /// As the store writes it.
    pub fn label(self) -> &'static str {
        match self {
            Part::I => "I",
            Part::IIi => "I-II",
            Part::IIii => "II-II",
            Part::III => "III",
            Part::Suppl => "Suppl.",
        }
    }
}

/// A question, or an article of a question, of the Summa.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SummaRef {
    /// The part.
    pub part: Part,
    /// The question.
    pub question: u32,
    /// The article, when one is named.
    pub article: Option<u32>,
}

impl SummaRef {
    /// The reference as the store writes it (`I-II, q. 109, a. 2`).
    pub fn reference(&self) -> String {
        match self.article {
            Some(a) => format!("{}, q. {}, a. {a}", self.part.label(), self.question),
            None => format!("{}, q. {}", self.part.label(), self.question),
        }
    }

    /// The tokens of [`reference`](Self::reference) as the plain analyser
    /// makes them (`["i", "ii", "q", "109", "a", "2"]`), for a phrase query.
    pub fn tokens(&self) -> Vec<String> {
        self.reference()
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Split into lower-case tokens, a letter run and a digit run apart
/// (`q.109` → `q`, `109`; `1a2ae` → `1`, `a`, `2`, `ae`).
fn tokens(q: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut digit = false;
    for c in q.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            let d = c.is_ascii_digit();
            if !cur.is_empty() && d != digit {
                out.push(std::mem::take(&mut cur));
            }
            digit = d;
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The part named at `toks[i..]`, and how many tokens it took.
fn part_at(toks: &[String], i: usize) -> Option<(Part, usize)> {
    let t = |k: usize| toks.get(i + k).map(String::as_str);
    // `1a 2ae`, `1 a 2 ae` (from "1a2ae"), `ia iiae`, `i-ii`, `ii-ii`, `prima secundae`
    let first = match (t(0), t(1)) {
        (Some("1"), Some("a")) => Some((1, 2)),
        (Some("2"), Some("a")) => Some((2, 2)),
        (Some("3"), Some("a")) => Some((3, 2)),
        (Some("i" | "ia" | "prima"), _) => Some((1, 1)),
        (Some("ii" | "iia" | "secunda"), _) => Some((2, 1)),
        (Some("iii" | "iiia" | "tertia"), _) => Some((3, 1)),
        (Some("suppl" | "supplement" | "supp"), _) => return Some((Part::Suppl, 1)),
        _ => None,
    };
    let (n, used) = first?;
    let second = match (t(used), t(used + 1)) {
        (Some("2"), Some("ae")) => Some(2),
        (Some("ii" | "iiae" | "secundae"), _) => Some(1),
        _ => None,
    };
    Some(match (n, second) {
        (1, Some(u)) => (Part::IIi, used + u),
        (2, Some(u)) => (Part::IIii, used + u),
        (1, None) => (Part::I, used),
        (3, None) => (Part::III, used),
        _ => return None,
    })
}

fn number(s: Option<&String>) -> Option<u32> {
    s.and_then(|s| s.parse::<u32>().ok())
        .filter(|n| (1..=200).contains(n))
}

/// The Summa reference in `q`, if it names one.
pub fn parse(q: &str) -> Option<SummaRef> {
    let toks = tokens(q);
    let named = toks.iter().any(|t| {
        matches!(
            t.as_str(),
            "st" | "sth" | "summa" | "aquinas" | "theologiae" | "theologica"
        )
    });
    for i in 0..toks.len() {
        let Some((part, used)) = part_at(&toks, i) else {
            continue;
        };
        let numeric_parts = toks[i].chars().all(|c| c.is_ascii_digit());
        let mut j = i + used;
        let mut q_marker = false;
        if matches!(
            toks.get(j).map(String::as_str),
            Some("q" | "qu" | "question" | "quaestio")
        ) {
            q_marker = true;
            j += 1;
        }
        let Some(question) = number(toks.get(j)) else {
            continue;
        };
        if !(named || q_marker || numeric_parts) {
            continue;
        }
        j += 1;
        if matches!(
            toks.get(j).map(String::as_str),
            Some("a" | "art" | "article" | "articulus")
        ) {
            j += 1;
        }
        let article = number(toks.get(j)).filter(|a| *a <= 20);
        return Some(SummaRef {
            part,
            question,
            article,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(q: &str) -> Option<String> {
        parse(q).map(|s| s.reference())
    }

    #[test]
    fn spellings() {
        for q in [
            "ST I-II q.109 a.2",
            "S.T. I-II, q. 109, a. 2",
            "Summa 1a 2ae 109, 2",
            "summa 1a2ae q109 a2",
            "Ia-IIae q. 109 a. 2",
            "Aquinas, Summa Theologiae I-II, 109, 2",
        ] {
            assert_eq!(r(q).as_deref(), Some("I-II, q. 109, a. 2"), "{q}");
        }
        assert_eq!(r("STh I q2 a3").as_deref(), Some("I, q. 2, a. 3"));
        assert_eq!(
            r("IIa-IIae q. 23 a. 1").as_deref(),
            Some("II-II, q. 23, a. 1")
        );
        assert_eq!(r("Summa III, 75, 1").as_deref(), Some("III, q. 75, a. 1"));
        assert_eq!(r("ST II-II q. 64").as_deref(), Some("II-II, q. 64"));
        assert_eq!(
            r("Summa 2a 2ae 64 7").as_deref(),
            Some("II-II, q. 64, a. 7")
        );
    }

    #[test]
    fn not_references() {
        assert_eq!(r("John 6 51"), None);
        assert_eq!(r("Pius XI 1931"), None);
        assert_eq!(r("I 2 3"), None);
        assert_eq!(r(""), None);
    }

    #[test]
    fn tokens_for_the_phrase() {
        let s = parse("ST I-II q.109 a.2");
        assert_eq!(
            s.map(|s| s.tokens()),
            Some(
                vec!["i", "ii", "q", "109", "a", "2"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
    }
}
