//! Reading a phrase: lexemes, saints by name, every combination of word
//! readings, the grammar, evaluation, and the error when it does not come
//! to exactly one day.

use super::error::{quoted, PhraseError, MAX_CHARS};
use super::eval::Context;
use super::grammar;
use super::lexer::{lex, Lexeme};
use super::lexicon::Tok;
use super::names::NamedDay;
use super::saints::{match_name, NAME_TITLES};
use crate::calendar::{CalendarData, CalendarSpec};
use crate::error::LiturgyError;
use chrono::NaiveDate;

/// The most combinations of word readings tried for one phrase.
const MAX_COMBINATIONS: usize = 512;

/// Resolve a date phrase relative to `today`, for a calendar (named days
/// follow its transfers). Every word must be understood; see
/// `docs/date-phrases.md` for the forms and conventions.
pub fn resolve(
    cal: &CalendarData,
    spec: &CalendarSpec,
    phrase: &str,
    today: NaiveDate,
) -> Result<NaiveDate, LiturgyError> {
    read(cal, spec, phrase, today).map_err(LiturgyError::from)
}

fn read(
    cal: &CalendarData,
    spec: &CalendarSpec,
    phrase: &str,
    today: NaiveDate,
) -> Result<NaiveDate, PhraseError> {
    let len = phrase.chars().count();
    if len > MAX_CHARS {
        return Err(PhraseError::TooLong(len));
    }
    let mut lexemes = lex(phrase);
    drop_titles_before_days(&mut lexemes);
    if lexemes.iter().any(Lexeme::is_unknown) {
        name_saints(cal, &mut lexemes);
    }
    if lexemes.iter().all(Lexeme::is_filler) {
        return Err(PhraseError::Empty(phrase.to_string()));
    }
    if lexemes.iter().any(Lexeme::is_unknown) {
        return Err(not_understood(phrase, &lexemes));
    }
    let ctx = Context {
        cal,
        spec,
        today,
        memo: Default::default(),
    };
    let mut dates: Vec<NaiveDate> = Vec::new();
    let mut first_err: Option<String> = None;
    for toks in combinations(&lexemes).ok_or_else(|| PhraseError::TooAmbiguous(phrase.into()))? {
        for e in grammar::parse(&toks) {
            match ctx.evaluate(&e) {
                Ok(d) if !dates.contains(&d) => dates.push(d),
                Ok(_) => {}
                Err(why) => {
                    first_err.get_or_insert(why);
                }
            }
        }
    }
    match dates.as_slice() {
        [d] => Ok(*d),
        [] => Err(match first_err {
            Some(reason) => PhraseError::NoSuchDay {
                phrase: phrase.to_string(),
                reason,
            },
            None => not_understood(phrase, &lexemes),
        }),
        _ => Err(ambiguous(phrase, &lexemes, dates)),
    }
}

/// The error for a phrase that reads as several days.
fn ambiguous(phrase: &str, lexemes: &[Lexeme], mut dates: Vec<NaiveDate>) -> PhraseError {
    dates.sort();
    let numeric = lexemes.iter().any(|l| {
        l.alts.len() > 1
            && l.alts
                .iter()
                .all(|a| matches!(a.as_slice(), [Tok::Date(_)] | [Tok::Num(_), Tok::Month(_)]))
    });
    let hint = if numeric {
        "; with '/' or '-' and both numbers 12 or under the order is unknown: write the ISO date or the month in words"
    } else {
        ""
    };
    PhraseError::Ambiguous {
        phrase: phrase.to_string(),
        readings: dates.iter().map(|d| d.to_string()).collect(),
        hint: hint.to_string(),
    }
}

/// Every token sequence the lexemes can make (fillers dropped), or `None`
/// when there are more than [`MAX_COMBINATIONS`].
fn combinations(lexemes: &[Lexeme]) -> Option<Vec<Vec<Tok>>> {
    let mut total: usize = 1;
    for l in lexemes {
        total = total.checked_mul(l.alts.len().max(1))?;
        if total > MAX_COMBINATIONS {
            return None;
        }
    }
    let mut out: Vec<Vec<Tok>> = vec![Vec::new()];
    for l in lexemes {
        let mut next = Vec::with_capacity(out.len() * l.alts.len());
        for prefix in &out {
            for alt in &l.alts {
                let mut t = prefix.clone();
                t.extend(alt.iter().cloned());
                next.push(t);
            }
        }
        out = next;
    }
    Some(out)
}

/// Saints' titles written before a named day that has its own entry:
/// "sv. Petra a Pavla", "San José" spelt "S. José".
const SAINT_TITLES: &[&str] = &[
    "saint", "saints", "st", "sts", "ss", "s", "san", "santa", "santo", "santi", "sao", "sainte",
    "sv", "svateho", "svate", "svaty", "svata",
];

/// Drop saints' titles standing right before a named day ("sv. Petra a Pavla").
fn drop_titles_before_days(lexemes: &mut Vec<Lexeme>) {
    let is_day = |l: &Lexeme| {
        !l.alts.is_empty() && l.alts.iter().all(|a| matches!(a.as_slice(), [Tok::Day(_)]))
    };
    let mut i = lexemes.len();
    while i > 1 {
        i -= 1;
        if is_day(&lexemes[i]) {
            while i > 0
                && lexemes[i - 1].is_unknown()
                && SAINT_TITLES.contains(&lexemes[i - 1].text.as_str())
            {
                lexemes.remove(i - 1);
                i -= 1;
            }
        }
    }
}

/// Replace runs of unknown words (with the fillers and named days among
/// them) by a saint or feast when the calendar's names account for every word.
fn name_saints(cal: &CalendarData, lexemes: &mut Vec<Lexeme>) {
    for with_days in [true, false] {
        let absorbs = |l: &Lexeme| {
            l.is_unknown()
                || l.is_filler()
                || NAME_TITLES.contains(&l.text.as_str())
                || (with_days && l.alts.iter().any(|a| matches!(a.as_slice(), [Tok::Day(_)])))
        };
        let mut i = 0;
        while i < lexemes.len() {
            if !absorbs(&lexemes[i]) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < lexemes.len() && absorbs(&lexemes[j]) {
                j += 1;
            }
            let (mut a, mut b) = (i, j);
            while a < b && lexemes[a].is_filler() {
                a += 1;
            }
            while b > a && lexemes[b - 1].is_filler() {
                b -= 1;
            }
            if lexemes[a..b].iter().any(Lexeme::is_unknown) {
                let text = lexemes[a..b]
                    .iter()
                    .map(|l| l.text.replace("'s", ""))
                    .collect::<Vec<_>>()
                    .join(" ");
                if let Some(key) = match_name(cal, &text) {
                    let saint = Lexeme {
                        text,
                        alts: vec![vec![Tok::Day(NamedDay::key(key))]],
                        note: None,
                    };
                    lexemes.splice(a..b, [saint]);
                    i = a + 1;
                    continue;
                }
            }
            i = j;
        }
    }
}

fn not_understood(phrase: &str, lexemes: &[Lexeme]) -> PhraseError {
    let quote = |ls: Vec<&Lexeme>| {
        ls.iter()
            .map(|l| match l.note {
                Some(n) => format!("{} ({n})", quoted(&l.text)),
                None => quoted(&l.text),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let known: Vec<&Lexeme> = lexemes
        .iter()
        .filter(|l| !l.is_unknown() && !l.is_filler())
        .collect();
    let unknown: Vec<&Lexeme> = lexemes.iter().filter(|l| l.is_unknown()).collect();
    let understood = if known.is_empty() {
        "nothing".to_string()
    } else {
        quote(known)
    };
    let detail = if unknown.is_empty() {
        format!("understood {understood}, but together these words do not make a date")
    } else {
        format!("understood {understood}; not understood {}", quote(unknown))
    };
    PhraseError::NotUnderstood {
        phrase: phrase.to_string(),
        detail,
    }
}
