//! Slot codes of the table (`6.11`, `1.101`) and the headings they print as.
//!
//! The integer part is the reading (`0` procession Gospel, `1` first reading, `2` psalm,
//! `3` second reading, `4` sequence, `5` acclamation, `6` Gospel, `9` commons). The decimals
//! are options (`6.1`/`6.2`), shorter forms (`6.11` is the short form of `6.1`) and, on the
//! saints' days, three-digit markers: `x.n01` is a proper reading that replaces the weekday's
//! reading of that part on a memorial (Martha's Gospel `6.101`/`6.201`, the Beheading of John
//! the Baptist `6.001`), `x.n09` a formulary that is proper as a whole (Mary, Mother of the
//! Church). Commons use four-digit subtypes and are not read here.

/// How a saint's reading is used on a memorial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proper {
    /// An ordinary reading of the saint (may be chosen; the weekday's is used by default).
    No,
    /// Replaces the weekday's reading of the same part (`x.n01`).
    Replaces,
    /// The whole formulary is proper (`x.n09`).
    Whole,
}

/// The integer part of a slot (`"6"` for `6.101`).
pub fn part(slot: &str) -> &str {
    slot.split_once('.').map_or(slot, |(i, _)| i)
}

/// The proper marker of a slot code.
pub fn proper(slot: &str) -> Proper {
    let frac = slot.split_once('.').map_or("", |(_, f)| f);
    if frac.len() != 3 || !frac[1..].starts_with('0') {
        return Proper::No;
    }
    match frac.as_bytes()[2] {
        b'1' => Proper::Replaces,
        b'9' => Proper::Whole,
        _ => Proper::No,
    }
}

/// Sort key of a slot code (`6.11` → 6.11; unparsable codes last).
pub fn number(s: &str) -> f64 {
    s.parse().unwrap_or(99.0)
}

fn base_heading(part: &str) -> &'static str {
    match part {
        "0" => "Procession Gospel",
        "1" => "First Reading",
        "2" => "Responsorial Psalm",
        "3" => "Second Reading",
        "4" => "Sequence",
        "5" => "Gospel Acclamation",
        "6" => "Gospel",
        _ => "Reading",
    }
}

/// True for a shorter form (`6.11`, `3.11`): two decimals ending in 1, not an option marker.
fn is_shorter(frac: &str) -> bool {
    frac.len() == 2 && frac.ends_with('1') && !frac.starts_with('0')
}

/// The heading of a slot in the Easter Vigil, where `1.n`/`2.n` are the n-th reading and psalm.
fn vigil_heading(int: &str, frac: &str) -> String {
    let n: String = frac.chars().take(1).collect();
    let label = if int == "1" {
        if n == "8" {
            "Epistle".to_string()
        } else {
            format!("Reading {n}")
        }
    } else {
        format!("Psalm after Reading {n}")
    };
    if is_shorter(frac) {
        format!("{label} (shorter form)")
    } else {
        label
    }
}

/// The heading of a slot (`First Reading`, `Gospel (shorter form)`).
pub fn heading(slot: &str, vigil: bool) -> String {
    let (int, frac) = slot.split_once('.').unwrap_or((slot, ""));
    if vigil && (int == "1" || int == "2") && !frac.is_empty() {
        return vigil_heading(int, frac);
    }
    let base = base_heading(int);
    if is_shorter(frac) {
        format!("{base} (shorter form)")
    } else {
        base.to_string()
    }
}

/// The full name of a sequence code of the table.
pub fn sequence_name(code: &str) -> Option<&'static str> {
    match code {
        "Victimae" => Some("Victimae paschali laudes"),
        "LaudaSion" => Some("Lauda Sion"),
        "StabatMater" => Some("Stabat Mater"),
        "VeniSancteSpiritus" => Some("Veni, Sancte Spiritus"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proper_markers() {
        assert_eq!(proper("6.101"), Proper::Replaces);
        assert_eq!(proper("6.001"), Proper::Replaces);
        assert_eq!(proper("1.209"), Proper::Whole);
        assert_eq!(proper("6.11"), Proper::No);
        assert_eq!(proper("6"), Proper::No);
        assert_eq!(proper("6.1204"), Proper::No);
    }

    #[test]
    fn headings() {
        assert_eq!(heading("6.11", false), "Gospel (shorter form)");
        assert_eq!(heading("6.101", false), "Gospel");
        assert_eq!(heading("6.201", false), "Gospel");
        assert_eq!(heading("1.109", false), "First Reading");
        assert_eq!(heading("1.3", true), "Reading 3");
        assert_eq!(heading("2.8", true), "Psalm after Reading 8");
        assert_eq!(heading("1.11", true), "Reading 1 (shorter form)");
    }
}
