//! The tokens a phrase is made of, and the table from words to tokens.
//!
//! A word (or several words, or a run of Chinese characters) maps to one or
//! more readings; each reading is a sequence of tokens, and the empty
//! sequence is a filler word, ignored. Several readings of one word are all
//! tried by the grammar.

use super::lexer::normalize_entry;
use super::names::{self, NamedDay};
use super::words;
use chrono::NaiveDate;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A length of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A number of days (a week is 7, a fortnight 14).
    Days(i64),
    /// A number of months (a year is 12).
    Months(i32),
}

/// One token of the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A cardinal number (also a year).
    Num(u32),
    /// An ordinal number.
    Ord(u32),
    /// A unit of time, singular or number-neutral (day, week, 天).
    Unit(Unit),
    /// A unit of time in the plural (days, weeks): only after a count.
    Units(Unit),
    /// "a", "an": a count of one, before a singular unit only.
    Article,
    /// Today plus a number of days (today, tomorrow, now …).
    Rel(i64),
    /// A weekday, 0 = Monday.
    Wd(u32),
    /// A month, 1 = January.
    Month(u32),
    /// A civil date written in digits.
    Date(NaiveDate),
    /// A named day (a feast, a traditional name, a saint).
    Day(NamedDay),
    /// A season whose Sundays are numbered: calendar key prefix and the last number.
    Season(&'static str, u32),
    /// next, próximo, 下 …
    Next,
    /// last, pasado, 上 …
    Last,
    /// this, este …
    This,
    /// after (before an anchor): "two days after Easter".
    After,
    /// before (before an anchor).
    Before,
    /// A postposition meaning later: 后, পরে; "three days later".
    Later,
    /// A postposition meaning earlier: 前, আগে.
    Earlier,
    /// ago, hace, fa, il y a.
    Ago,
    /// from ("three days from now").
    From,
    /// in, dentro de, tra, dans, za ("in ten days").
    In,
    /// eve, vigilia, veille: the day before.
    Eve,
    /// A Chinese calendar-week prefix (上周 -1, 这周 0, 下周 1), weeks starting on Monday.
    Week(i64),
    /// A year relative to today's: 明年 1, 今年 0, 去年 -1.
    YearRel(i64),
    /// 年, সাল: the number before is a year.
    YearMark,
    /// 月: the number before is a month.
    MonthMark,
    /// 日, 号: the number before is a day of the month.
    DayMark,
}

/// Readings of words: normalized surface form to token sequences.
pub struct Lexicon {
    map: HashMap<String, Vec<Vec<Tok>>>,
    /// The most words (space-separated) in one entry.
    pub max_words: usize,
    /// The most characters in one Chinese entry.
    pub max_cjk: usize,
}

impl Lexicon {
    /// The readings of a normalized surface form.
    pub fn get(&self, key: &str) -> Option<&[Vec<Tok>]> {
        self.map.get(key).map(Vec::as_slice)
    }

    fn add(&mut self, surface: &str, toks: Vec<Tok>) {
        let Some((key, words, cjk)) = normalize_entry(surface) else {
            return;
        };
        self.max_words = self.max_words.max(words);
        self.max_cjk = self.max_cjk.max(cjk);
        let alts = self.map.entry(key).or_default();
        if !alts.contains(&toks) {
            alts.push(toks);
        }
    }
}

/// The lexicon, built once.
pub fn lexicon() -> &'static Lexicon {
    static L: OnceLock<Lexicon> = OnceLock::new();
    L.get_or_init(build)
}

fn build() -> Lexicon {
    let mut lx = Lexicon {
        map: HashMap::new(),
        max_words: 1,
        max_cjk: 1,
    };
    for f in words::FILLERS {
        lx.add(f, Vec::new());
    }
    for (surface, toks) in words::all_entries() {
        lx.add(&surface, toks);
    }
    for (surface, day) in names::entries() {
        lx.add(surface, vec![Tok::Day(day)]);
    }
    lx
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A filler that is also a number, unit or name would be silently
    /// dropped in one reading and read in another; only the words meant to
    /// have both readings may.
    #[test]
    fn fillers_have_no_other_reading() {
        let lx = lexicon();
        let mut both: Vec<&str> = words::FILLERS
            .iter()
            .copied()
            .filter(|f| {
                normalize_entry(f)
                    .and_then(|(k, _, _)| lx.get(&k))
                    .is_some_and(|alts| alts.iter().any(|a| !a.is_empty()))
            })
            .collect();
        both.sort_unstable();
        assert_eq!(both, Vec::<&str>::new());
    }
}
