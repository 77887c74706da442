//! The sanctoral of the 1962 Missal: the Kalendarium and the year's transfer table.
//!
//! The Kalendarium is the chain of Divinum Officium's `Tabulae/Kalendaria` files in force for
//! the rubrics of 1960 (`Tabulae/data.txt`: 1960 ← 1955 ← 1954 ← 1939 ← 1906 ← 1888 ← 1570),
//! each later file replacing the entries of a date and `XXXXX` removing one. A line reads
//! `MM-DD=file[~file…]=Name=rank=…`: the first file is the feast of the day, the others are
//! commemorated.
//!
//! The transfer table of a year is data too (`Tabulae/Transfer`): one file per Sunday letter
//! and one per date of Easter, each line `MM-DD=file[~file];;versions`, of which the lines for
//! the 1960 rubrics (or for every version) apply. They hold what the Kalendarium cannot: the
//! Holy Name on the Sunday between 2 and 5 January, the Sunday within the octave of Christmas,
//! Christ the King on the last Sunday of October, St Joseph and the Annunciation moved out of
//! Holy Week and Easter week (Codex Rubricarum 95–96).

use crate::error::LiturgyError;
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The Kalendarium files applied in order for the 1960 rubrics.
const CHAIN: [&str; 7] = ["1570", "1888", "1906", "1939", "1954", "1955", "1960"];

/// The version word that selects transfer lines.
const TRANSFER_VERSION: &str = "1960";

/// The fixed sanctoral and the transfer tables.
#[derive(Debug, Clone, Default)]
pub struct Kalendar {
    /// `MM-DD` → files (first the feast, then the commemorations).
    entries: BTreeMap<String, Vec<String>>,
    /// Transfer files by name (`a`…`g`, `322`…`426`): their applicable lines.
    transfers: HashMap<String, Vec<(String, String)>>,
    /// Temporale files replaced for the 1960 rubrics (`Tempora/Quad6-0` → `Tempora/Quad6-0r`),
    /// from `Tabulae/Tempora/Generale.txt`.
    tempora: HashMap<String, String>,
}

/// The transfer table of one year: `MM-DD` → files.
#[derive(Debug, Clone, Default)]
pub struct YearTransfers {
    by_date: HashMap<String, Vec<String>>,
}

impl Kalendar {
    /// Load `Tabulae/Kalendaria` and `Tabulae/Transfer` under the dataset folder.
    pub fn load(root: &Path) -> Result<Self, LiturgyError> {
        let mut texts = Vec::new();
        for name in CHAIN {
            let path = root.join("Tabulae/Kalendaria").join(format!("{name}.txt"));
            let text = std::fs::read_to_string(&path).map_err(|e| LiturgyError::io(&path, e))?;
            texts.push(text);
        }
        let mut transfer_texts = Vec::new();
        let dir = root.join("Tabulae/Transfer");
        let entries = std::fs::read_dir(&dir).map_err(|e| LiturgyError::io(&dir, e))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).map_err(|e| LiturgyError::io(&path, e))?;
            transfer_texts.push((stem.to_string(), text));
        }
        let path = root.join("Tabulae/Tempora/Generale.txt");
        let generale = std::fs::read_to_string(&path).map_err(|e| LiturgyError::io(&path, e))?;
        let mut k = Self::from_texts(&texts, &transfer_texts);
        k.tempora = tempora_lines(&generale);
        Ok(k)
    }

    /// The 1960 file of a Temporale file (itself when no substitution applies).
    pub fn tempora_file<'a>(&'a self, file: &'a str) -> &'a str {
        self.tempora.get(file).map(String::as_str).unwrap_or(file)
    }

    /// Build from the Kalendarium texts (in chain order) and the transfer files.
    pub fn from_texts(kalendaria: &[String], transfers: &[(String, String)]) -> Self {
        let mut entries = BTreeMap::new();
        for text in kalendaria {
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with('*') || line.starts_with('#') {
                    continue;
                }
                let mut parts = line.split('=');
                let (Some(date), Some(files)) = (parts.next(), parts.next()) else {
                    continue;
                };
                if !is_month_day(date) {
                    continue;
                }
                if files.trim() == "XXXXX" {
                    entries.remove(date);
                } else {
                    entries.insert(date.to_string(), split_files(files));
                }
            }
        }
        let transfers = transfers
            .iter()
            .map(|(name, text)| (name.clone(), transfer_lines(text)))
            .collect();
        Kalendar {
            entries,
            transfers,
            tempora: HashMap::new(),
        }
    }

    /// The Kalendarium files of a date (`MM-DD`).
    pub fn files(&self, month_day: &str) -> &[String] {
        self.entries
            .get(month_day)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The transfer table of a year. The Sunday letter and the date of Easter choose the
    /// files; in a leap year January and February up to the 23rd follow the next letter and
    /// date (Divinum Officium's `Directorium::load_transfers`).
    pub fn year(&self, year: i32, easter: NaiveDate) -> YearTransfers {
        let easter_code = easter.month() * 100 + easter.day();
        let april = u32::from(easter.month() == 4);
        let letter = ((easter_code + april + 7 * 100 - 319) % 7) as usize;
        let letters = ["a", "b", "c", "d", "e", "f", "g"];
        let leap = NaiveDate::from_ymd_opt(year, 2, 29).is_some();
        let mut by_date: HashMap<String, Vec<String>> = HashMap::new();
        let mut take = |file: &str, keep: &dyn Fn(&str, &str) -> bool| {
            for (key, value) in self.transfers.get(file).map(Vec::as_slice).unwrap_or(&[]) {
                if keep(key, value) {
                    by_date.insert(key.clone(), split_files(value));
                }
            }
        };
        let all = |_: &str, _: &str| true;
        let after_feb_23 = |key: &str, value: &str| !early(key) && !early(value);
        let until_feb_23 = |key: &str, _: &str| early(key);
        let main: &dyn Fn(&str, &str) -> bool = if leap { &after_feb_23 } else { &all };
        take(letters[letter], main);
        take(&easter_code.to_string(), main);
        if leap {
            let next_letter = letters[(letter + 1) % 7];
            let next_easter = if easter_code == 331 {
                401
            } else {
                easter_code + 1
            };
            take(next_letter, &until_feb_23);
            take(&next_easter.to_string(), &until_feb_23);
        }
        YearTransfers { by_date }
    }
}

impl YearTransfers {
    /// The files the table puts on a date, if any.
    pub fn on(&self, month_day: &str) -> Option<&[String]> {
        self.by_date.get(month_day).map(Vec::as_slice)
    }

    /// The date a Sanctoral file was moved to this year, when the table moves it away from
    /// its own date (`03-26=03-25`: the Annunciation on 26 March). As in Divinum Officium's
    /// `Directorium::transfered`, an entry that begins with its own date (`08-09=08-09cc`)
    /// moves nothing, and a file matches an entry that contains it or that it contains.
    pub fn moved_to(&self, file: &str) -> Option<&str> {
        self.by_date.iter().find_map(|(key, files)| {
            let moved = files.iter().any(|f| {
                !f.starts_with("Tempora")
                    && !f.starts_with(key.as_str())
                    && (f.contains(file) || file.contains(f.as_str()))
            });
            moved.then_some(key.as_str())
        })
    }
}

/// The transfer lines of a file that apply to the 1960 rubrics.
fn transfer_lines(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (body, versions) = match line.split_once(";;") {
            Some((b, v)) => (b.trim(), Some(v)),
            None => (line, None),
        };
        if versions.is_some_and(|v| !v.split_whitespace().any(|w| w == TRANSFER_VERSION)) {
            continue;
        }
        let Some((key, value)) = body.split_once('=') else {
            continue;
        };
        if !is_month_day(key) {
            // dirge lists, hymn rules, coronation anniversaries: not the calendar's business.
            continue;
        }
        out.push((key.to_string(), value.trim().to_string()));
    }
    out
}

/// `Tempora/X=Tempora/Y;;versions` lines that apply to the 1960 rubrics.
fn tempora_lines(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (body, versions) = line.trim().split_once(";;")?;
            if !versions.split_whitespace().any(|w| w == TRANSFER_VERSION) {
                return None;
            }
            let (from, to) = body.split_once('=')?;
            from.starts_with("Tempora/")
                .then(|| (from.to_string(), to.to_string()))
        })
        .collect()
}

/// January and February up to the 23rd (and the 29th), which follow the next letter in a
/// leap year (`Directorium::load_transfer_file`).
fn early(key: &str) -> bool {
    key.starts_with("01")
        || key.starts_with("02-0")
        || key.starts_with("02-1")
        || ["02-20", "02-21", "02-22", "02-23", "02-29"].contains(&key)
}

fn split_files(files: &str) -> Vec<String> {
    files
        .split('~')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect()
}

fn is_month_day(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5
        && b[2] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 2 || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kalendar() -> Kalendar {
        Kalendar::from_texts(
            &[
                "*January*\n01-14=01-14~01-14cc=S. Hilarii=3=S. Felicis=1=\n05-06=05-06=S. Joannis=1=\n".to_string(),
                "#This file only notes the changes\n05-06=XXXXX\n01-18=01-18r=S Priscae=1=\n".to_string(),
            ],
            &[
                (
                    "b".to_string(),
                    "01-02=Tempora/Nat2-0;;1960 DA\n10-29=10-DUr;;1960 Newcal\n01-11=01-10;;1570\ndirge1=01-02;;1960\n".to_string(),
                ),
                ("326".to_string(), "03-20=03-19;;1888 1960 DA\n".to_string()),
                ("c".to_string(), "01-04=Tempora/Nat2-0;;1960\n".to_string()),
            ],
        )
    }

    #[test]
    fn chain_replaces_and_removes() {
        let k = kalendar();
        assert_eq!(k.files("01-14"), ["01-14", "01-14cc"]);
        assert_eq!(k.files("01-18"), ["01-18r"]);
        assert!(k.files("05-06").is_empty());
    }

    #[test]
    fn transfers_follow_letter_and_easter() {
        let k = kalendar();
        // Easter 26 March 2028 is not real; 2023 had Easter on 9 April. Use a year whose
        // letter is b: Easter 26 March (326): (326 - 319) % 7 = 0 → a. Easter 27 March → b.
        let t = k.year(2027, NaiveDate::from_ymd_opt(2027, 3, 28).unwrap());
        let letter_index = (328u32 - 319) % 7;
        assert_eq!(letter_index, 2); // c
        assert_eq!(t.on("01-04").unwrap(), ["Tempora/Nat2-0"]);
        assert!(t.on("01-11").is_none());
        let t = k.year(2016, NaiveDate::from_ymd_opt(2016, 3, 27).unwrap());
        // Leap year: after 23 February from b (Easter 27 March), January from c.
        assert_eq!(t.on("10-29").unwrap(), ["10-DUr"]);
        assert_eq!(t.on("01-04").unwrap(), ["Tempora/Nat2-0"]);
        assert!(t.on("01-02").is_none());
    }

    #[test]
    fn tempora_substitutions_of_1960() {
        let t = tempora_lines("Tempora/Quad6-0=Tempora/Quad6-0r;;1960 Newcal\nTempora/Adv1-0=Tempora/Adv1-0o;;1570\nTemporaM/Quad6-0=TemporaM/Quad6-0r;;M1963\n");
        assert_eq!(t.len(), 1);
        assert_eq!(t["Tempora/Quad6-0"], "Tempora/Quad6-0r");
    }

    #[test]
    fn moved_feasts_are_found() {
        let k = kalendar();
        let t = k.year(2005, NaiveDate::from_ymd_opt(2005, 3, 26).unwrap());
        assert_eq!(t.moved_to("03-19"), Some("03-20"));
        assert_eq!(t.moved_to("10-DUr"), None);
    }
}
