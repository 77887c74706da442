//! The colour of a Mass of the 1962 Missal (Rubricae generales Missalis 117–131).

use super::office::{Colour, Office};
use super::temporal::Season;

/// The colour of the Mass of a formulary in a season.
///
/// * Black on Good Friday and All Souls (RG 131).
/// * Red for Pentecost, its vigil and octave, the Holy Cross and the Precious Blood,
///   apostles, evangelists and martyrs (RG 126–127); St John, though an apostle and
///   evangelist, is white (RG 119: he is not a martyr), and so are the apostles' feasts that
///   are not of their martyrdom (the Chair of Peter, the Conversion of Paul, St Peter's
///   Chains).
/// * Violet in Advent, Septuagesima and Lent (Sundays and ferias), on Ember days and vigils
///   outside Easter Time, Rogation days, and the Holy Innocents when not on a Sunday before
///   1960 (since 1960, red) (RG 128–129); rose may be used on Gaudete and Laetare (RG 125).
/// * Green on the Sundays and ferias after Epiphany and after Pentecost (RG 130).
/// * White otherwise: feasts of the Lord, of Our Lady, the angels, confessors, virgins
///   and holy women not martyrs, All Saints, Christmas and Easter Time (RG 119–124).
pub fn colour(office: &Office, season: Season) -> Colour {
    let title = office.title_la.to_lowercase();
    let commune = office.commune.as_deref().unwrap_or("");
    let has = |words: &[&str]| words.iter().any(|w| title.contains(w));
    if has(&["defunctorum", "parasceve", "in passione et morte"]) || commune == "C9" {
        return Colour::Black;
    }
    // Pentecost, its vigil and its octave (Easter Time ends with the Saturday after it).
    if season == Season::Easter && has(&["pentecost"]) {
        return Colour::Red;
    }
    if office.temporal {
        return temporal_colour(office, &title, season);
    }
    if has(&["omnium sanctorum", "dedicatione"]) {
        return Colour::White;
    }
    if has(&["vigilia", "in vigilia"]) {
        return if season == Season::Easter {
            Colour::White
        } else {
            Colour::Violet
        };
    }
    if has(&["quattuor temporum", "quatuor temporum"]) {
        return Colour::Violet;
    }
    if has(&[
        "cathedra",
        "conversione",
        "vincula",
        "joannis apostoli et evangelistae",
        "joannis ap",
    ]) || (title.contains("joannis") && title.contains("evangel") && !title.contains("martyr"))
        || title.contains("ante portam latinam")
    {
        return Colour::White;
    }
    if has(&[
        "martyr",
        "apostol",
        "evangelist",
        "innocentium",
        "s. crucis",
        "sanctae crucis",
        "sanctæ crucis",
        "sanguinis",
        "decollatione",
        "stigmat",
        "reliqui",
    ]) {
        return Colour::Red;
    }
    if martyrs_commune(commune) {
        return Colour::Red;
    }
    Colour::White
}

/// The Communes of apostles and martyrs (C1–C3), of a virgin martyr (C6, C6-1) and of holy
/// women martyrs (C7, C7b); the others (confessors C4–C5, virgins C6a–C6b, a widow C7a, the
/// dedication C8, Our Lady C10–C12) are white.
fn martyrs_commune(commune: &str) -> bool {
    let family: String = commune.chars().take_while(|c| *c != '-').collect();
    let family = family.trim_end_matches('p');
    matches!(
        family,
        "C1" | "C1a" | "C2" | "C2a" | "C2b" | "C3" | "C3a" | "C3b" | "C6" | "C7" | "C7b"
    )
}

fn temporal_colour(office: &Office, title: &str, season: Season) -> Colour {
    if title.contains("gaudete") || title == "dominica iii adventus" {
        return Colour::Rose;
    }
    if title == "dominica iv in quadragesima"
        || title.contains("laetare")
        || title.contains("lætare")
    {
        return Colour::Rose;
    }
    if title.contains("quattuor temporum") || title.contains("quatuor temporum") {
        return if season == Season::Easter {
            Colour::Red
        } else {
            Colour::Violet
        };
    }
    if title.contains("rogation") {
        return Colour::Violet;
    }
    if title.contains("vigilia ascensionis") || title.contains("vigilia nativitatis") {
        return if title.contains("ascension") {
            Colour::White
        } else {
            Colour::Violet
        };
    }
    if office.file.contains("Quad6-4") {
        return Colour::White;
    }
    let green_week = [
        "post pentecosten",
        "post epiphaniam",
        "post octavam",
        "superfuit",
    ]
    .iter()
    .any(|w| title.contains(w));
    match season {
        Season::Advent | Season::Septuagesima | Season::Lent | Season::Passiontide => {
            Colour::Violet
        }
        // Trinity Sunday, Corpus Christi, the Sacred Heart: feasts of the Lord, white.
        Season::AfterEpiphany | Season::AfterPentecost if !green_week => Colour::White,
        Season::AfterEpiphany | Season::AfterPentecost => Colour::Green,
        Season::Christmas | Season::Easter => Colour::White,
    }
}
