//! One Mass formulary of the 1962 Missal as the calendar sees it: its title, its rank, its
//! class and its colour.
//!
//! The rank is Divinum Officium's number (`[Rank]` third field, the 1960 variant chosen by its
//! condition): 7 and 6.x are I class, 5.x II class, 2 to 4.x III class, below 2 IV class
//! (`horas/Latin/Psalterium/Comment.txt`, `[Festa] (rubrica 196)`, which follows the table of
//! Codex Rubricarum 91).

use super::source::{Context, Library};
use serde::Serialize;

/// A class of the 1960 rubrics (Codex Rubricarum 10–14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Class {
    /// I class.
    I,
    /// II class.
    II,
    /// III class.
    III,
    /// IV class.
    IV,
}

impl Class {
    /// The class of a Divinum Officium rank number.
    pub fn of_rank(rank: f32) -> Class {
        if rank >= 6.0 {
            Class::I
        } else if rank >= 5.0 {
            Class::II
        } else if rank >= 2.0 {
            Class::III
        } else {
            Class::IV
        }
    }
    /// `I` to `IV`.
    pub fn code(self) -> &'static str {
        match self {
            Class::I => "I",
            Class::II => "II",
            Class::III => "III",
            Class::IV => "IV",
        }
    }
}

/// A vestment colour of the 1962 Missal (Rubricae generales Missalis 117–131).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Colour {
    /// White.
    White,
    /// Red.
    Red,
    /// Green.
    Green,
    /// Violet.
    Violet,
    /// Rose (Gaudete and Laetare Sundays).
    Rose,
    /// Black (Good Friday, All Souls).
    Black,
}

impl Colour {
    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Violet => "violet",
            Colour::Rose => "rose",
            Colour::Black => "black",
        }
    }
}

/// A formulary read from the library.
#[derive(Debug, Clone, PartialEq)]
pub struct Office {
    /// File key (`Sancti/01-25r`, `Tempora/Adv1-0`).
    pub file: String,
    /// Latin title.
    pub title_la: String,
    /// The rank number.
    pub rank: f32,
    /// The Commune the formulary draws on (`C2a`), from `ex`/`vide` in its rank.
    pub commune: Option<String>,
    /// The `[Rule]` text.
    pub rule: String,
    /// From the Temporale.
    pub temporal: bool,
}

impl Office {
    /// Read a formulary; `None` when the file is absent or has no rank.
    pub fn read(library: &Library, file: &str, ctx: Context) -> Option<Office> {
        let rank_text = library.section(file, "Rank", ctx)?;
        let line = rank_text.lines().find(|l| l.contains(";;"))?;
        let fields: Vec<&str> = line.split(";;").collect();
        let rank: f32 = fields.get(2)?.trim().parse().ok()?;
        let name = fields.first().map(|s| s.trim()).unwrap_or("");
        let officium = library
            .section(file, "Officium", ctx)
            .and_then(|o| o.lines().next().map(|l| l.trim().to_string()))
            .filter(|o| !o.is_empty());
        let title_la = match (name.is_empty(), officium) {
            (false, _) => name.to_string(),
            (true, Some(o)) => o,
            (true, None) => String::new(),
        };
        let commune = fields.get(3).and_then(|c| commune_of(c));
        let rule = library.section(file, "Rule", ctx).unwrap_or_default();
        let commune = commune.or_else(|| rule.lines().find_map(commune_of));
        // In Easter Time a Commune's paschal form (`C2p`) is used where there is one.
        let commune = commune.map(|c| {
            let paschal = format!("{c}p");
            if ctx.paschal && c.starts_with('C') && library.has(&paschal) {
                paschal
            } else {
                c
            }
        });
        Some(Office {
            file: file.to_string(),
            title_la,
            rank,
            commune,
            rule,
            temporal: file.starts_with("Tempora/"),
        })
    }

    /// The class of the formulary.
    pub fn class(&self) -> Class {
        Class::of_rank(self.rank)
    }

    /// True for a Sunday of the Temporale.
    pub fn is_sunday(&self) -> bool {
        self.temporal && self.title_la.starts_with("Dominica")
    }

    /// True for a feast of the Lord (`Festum Domini` in its rule): on a Sunday of II class it
    /// takes the Sunday's place (Codex Rubricarum 15).
    pub fn feast_of_the_lord(&self) -> bool {
        self.rule.to_lowercase().contains("festum domini")
    }

    /// True for a vigil.
    pub fn is_vigil(&self) -> bool {
        self.title_la.to_lowercase().contains("vigil")
    }
}

/// `ex C2a`, `vide C4b`, `ex Sancti/06-30` → the Commune or file named.
fn commune_of(field: &str) -> Option<String> {
    let field = field.trim().trim_end_matches(';');
    let rest = field
        .strip_prefix("ex ")
        .or_else(|| field.strip_prefix("vide "))?
        .trim();
    let first = rest.split([';', ' ']).next()?.trim();
    (!first.is_empty()).then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rank_title_and_commune() {
        let lib = Library::from_texts([
            (
                "Sancti/01-14",
                "[Rank]\nS. Hilarii Episcopi;;Duplex;;3;;ex C4a\n\n[Rule]\nvide C4a;\nGloria\n",
            ),
            (
                "Tempora/Adv1-1",
                "[Officium]\nFeria II infra Hebdomadam I Adventus\n\n[Rank]\n;;Feria major;;2.1\n",
            ),
            (
                "Sancti/08-06",
                "[Rank]\nIn Transfiguratione;;Duplex II classis;;5;;\n\n[Rule]\nFestum Domini\n",
            ),
        ]);
        let c = Context::default();
        let o = Office::read(&lib, "Sancti/01-14", c).unwrap();
        assert_eq!(o.title_la, "S. Hilarii Episcopi");
        assert_eq!(o.class(), Class::III);
        assert_eq!(o.commune.as_deref(), Some("C4a"));
        let f = Office::read(&lib, "Tempora/Adv1-1", c).unwrap();
        assert_eq!(f.title_la, "Feria II infra Hebdomadam I Adventus");
        assert!(f.temporal && !f.is_sunday());
        assert!(Office::read(&lib, "Sancti/08-06", c)
            .unwrap()
            .feast_of_the_lord());
        assert!(Office::read(&lib, "Sancti/99-99", c).is_none());
    }

    #[test]
    fn classes_of_ranks() {
        assert_eq!(Class::of_rank(7.0), Class::I);
        assert_eq!(Class::of_rank(6.01), Class::I);
        assert_eq!(Class::of_rank(5.4), Class::II);
        assert_eq!(Class::of_rank(3.9), Class::III);
        assert_eq!(Class::of_rank(1.3), Class::IV);
    }
}
