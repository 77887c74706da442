//! English titles of the days of the 1962 calendar.
//!
//! The Temporale's titles are made from the week (`Pent05-2` → "Tuesday of the 5th week after
//! Pentecost"), the Sanctorale's come from Divinum Officium's English files (`[Officium]`
//! only: the titles, not the dataset's English Mass texts, whose source is partly unknown),
//! and fall back to the Latin.

use std::collections::HashMap;
use std::path::Path;

/// English titles of the Sanctoral files, by key (`Sancti/01-25`).
#[derive(Debug, Clone, Default)]
pub struct Titles {
    sancti: HashMap<String, String>,
}

impl Titles {
    /// Read `missa/English/Sancti/*.txt`'s `[Officium]` lines (missing files are skipped).
    pub fn load(root: &Path) -> Titles {
        let mut sancti = HashMap::new();
        let dir = root.join("missa/English/Sancti");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                let Some(stem) = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".txt"))
                else {
                    continue;
                };
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                if let Some(title) = officium(&text) {
                    sancti.insert(format!("Sancti/{stem}"), title);
                }
            }
        }
        Titles { sancti }
    }

    /// The English title of a formulary, or `None` to show the Latin.
    pub fn english(&self, file: &str, title_la: &str) -> Option<String> {
        if let Some(week) = file.strip_prefix("Tempora/") {
            return temporal_title(week, title_la);
        }
        if file.starts_with("Commune/C10") {
            return Some("Saturday of Our Lady".into());
        }
        let base = file.trim_end_matches(|c: char| c.is_ascii_lowercase());
        self.sancti
            .get(file)
            .or_else(|| self.sancti.get(base))
            .filter(|t| t.as_str() != title_la)
            .cloned()
    }
}

fn officium(text: &str) -> Option<String> {
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.trim() == "[Officium]" {
            let t = lines.next()?.trim();
            return (!t.is_empty() && !t.starts_with('@')).then(|| t.to_string());
        }
    }
    None
}

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The English title of a Temporale file by its week, for the days whose title is made by
/// rule; the great days keep their own names.
fn temporal_title(week: &str, title_la: &str) -> Option<String> {
    let la = title_la.to_lowercase();
    let named = [
        ("cinerum", "Ash Wednesday"),
        ("in palmis", "Palm Sunday"),
        ("in cena domini", "Maundy Thursday"),
        ("cena domini", "Maundy Thursday"),
        ("parasceve", "Good Friday"),
        ("sabbato sancto", "Holy Saturday"),
        ("dominica resurrectionis", "Easter Sunday"),
        ("dominica in albis", "Low Sunday"),
        ("ascensione", "The Ascension of Our Lord"),
        ("dominica pentecostes", "Pentecost Sunday"),
        ("trinitatis", "Trinity Sunday"),
        ("corporis christi", "Corpus Christi"),
        ("cordis", "The Most Sacred Heart of Jesus"),
        ("nominis jesu", "The Most Holy Name of Jesus"),
        ("sanctae familiae", "The Holy Family"),
        ("sanctæ familiæ", "The Holy Family"),
        (
            "infra octavam nativitatis",
            "Sunday within the Octave of Christmas",
        ),
        ("vigilia ascensionis", "Vigil of the Ascension"),
        ("vigilia pentecostes", "Vigil of Pentecost"),
        ("in septuagesima", "Septuagesima Sunday"),
        ("in sexagesima", "Sexagesima Sunday"),
        ("in quinquagesima", "Quinquagesima Sunday"),
        ("de passione", "Passion Sunday"),
    ];
    if let Some((_, en)) = named.iter().find(|(k, _)| la.contains(k)) {
        return Some((*en).to_string());
    }
    let ember = la.contains("quat") && la.contains("tempor");
    let (name, day) = week.rsplit_once('-')?;
    let day: usize = day
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .ok()?;
    let dayname = DAYS.get(day)?;
    if ember {
        return Some(format!("Ember {dayname}"));
    }
    let digits: String = name.chars().filter(char::is_ascii_digit).collect();
    let n: u8 = digits.parse().ok()?;
    let (season, number) = if name.starts_with("Adv") {
        ("of Advent", n)
    } else if name.starts_with("Quadp") {
        return None;
    } else if name.starts_with("Quad") {
        ("of Lent", n)
    } else if name.starts_with("Pasc") {
        ("after Easter", n)
    } else if name.starts_with("PentEpi") {
        ("after Epiphany (resumed after Pentecost)", n)
    } else if name.starts_with("Pent") {
        ("after Pentecost", n)
    } else if name.starts_with("Epi") {
        ("after Epiphany", n)
    } else {
        return None;
    };
    Some(if day == 0 {
        format!("{} Sunday {season}", crate::calendar::ordinal_num(number))
    } else {
        format!(
            "{dayname} of the {} week {season}",
            crate::calendar::ordinal_num(number)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporal_titles() {
        assert_eq!(
            temporal_title("Pent05-2", "Feria tertia").as_deref(),
            Some("Tuesday of the 5th week after Pentecost")
        );
        assert_eq!(
            temporal_title("Adv1-0", "Dominica I Adventus").as_deref(),
            Some("1st Sunday of Advent")
        );
        assert_eq!(
            temporal_title("Quadp3-3", "Feria IV Cinerum").as_deref(),
            Some("Ash Wednesday")
        );
        assert_eq!(
            temporal_title("093-3", "Feria Quarta Quattuor Temporum Septembris").as_deref(),
            Some("Ember Wednesday")
        );
        assert_eq!(
            temporal_title("Quadp1-0", "Dominica in Septuagesima").as_deref(),
            Some("Septuagesima Sunday")
        );
    }
}
