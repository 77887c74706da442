//! How a quoted sentence is introduced, in the question's language: by its
//! author and work ("Augustine of Hippo writes in Confessions:"), Scripture by
//! its reference, a catechism as answering. Quotations themselves are never
//! translated.

use crate::lang::Lang;
use crate::passage::{Passage, SourceKind};

/// The work's title, short: up to the first dash or colon, without the store's
/// part numbers ("(of 4)", "(part 1 of 2)"), at most 70 characters.
fn short_title(p: &Passage) -> String {
    let mut title = p.doc_title.trim().to_string();
    while let Some(open) = title.rfind(" (") {
        let inner = &title[open + 2..];
        let numbering = inner.ends_with(')')
            && (inner.starts_with("of ") || inner.starts_with("part "))
            && inner.chars().any(|c| c.is_ascii_digit());
        if !numbering {
            break;
        }
        title.truncate(open);
    }
    let t = title.as_str();
    let cut = [" \u{2014} ", " - ", ": "]
        .iter()
        .filter_map(|sep| t.find(sep))
        .min()
        .unwrap_or(t.len());
    let t = t[..cut].trim();
    if t.chars().count() <= 70 {
        return t.to_string();
    }
    let mut out: String = t.chars().take(70).collect();
    if let Some(space) = out.rfind(' ') {
        out.truncate(space);
    }
    out.push('\u{2026}');
    out
}

/// Who speaks in `p`: its author, or for Scripture its reference.
pub fn speaker(p: &Passage) -> String {
    match p.kind() {
        SourceKind::Catechism => short_title(p),
        SourceKind::Scripture => p
            .reference
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| short_title(p)),
        _ => p
            .author
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| short_title(p)),
    }
}

/// The words before the first quotation of `p`.
pub fn first(lang: Lang, p: &Passage) -> String {
    let title = short_title(p);
    let mt = if p.machine_translated {
        " (machine translation)"
    } else {
        ""
    };
    let author = p
        .author
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty() && !title.contains(*a));
    let s = match (p.kind(), author) {
        (SourceKind::Scripture, _) => scripture(lang, &speaker(p)),
        (SourceKind::Catechism, _) => answers(lang, &title),
        (_, Some(a)) => writes_in(lang, a, &title),
        (_, None) => says(lang, &title),
    };
    format!("{s}{mt}")
}

/// The words before a further quotation of the same speaker.
pub fn again(lang: Lang, p: &Passage) -> String {
    let who = speaker(p);
    match lang {
        Lang::En => format!("{who} adds:"),
        Lang::Cs => format!("{who} dodává:"),
        Lang::Zh => format!("{who}又说："),
        Lang::Bn => format!("{who} আরও বলেন:"),
        Lang::Kok => format!("{who} आनीक सांगता:"),
        Lang::La => format!("{who} addit:"),
        Lang::It => format!("{who} aggiunge:"),
        Lang::Es => format!("{who} añade:"),
        Lang::Pt => format!("{who} acrescenta:"),
        Lang::Fr => format!("{who} ajoute\u{a0}:"),
    }
}

fn scripture(lang: Lang, r: &str) -> String {
    match lang {
        Lang::En => format!("Scripture says ({r}):"),
        Lang::Cs => format!("Písmo říká ({r}):"),
        Lang::Zh => format!("圣经说（{r}）："),
        Lang::Bn => format!("শাস্ত্র বলে ({r}):"),
        Lang::Kok => format!("पवित्र पुस्तक सांगता ({r}):"),
        Lang::La => format!("Scriptura dicit ({r}):"),
        Lang::It => format!("La Scrittura dice ({r}):"),
        Lang::Es => format!("La Escritura dice ({r}):"),
        Lang::Pt => format!("A Escritura diz ({r}):"),
        Lang::Fr => format!("L'Écriture dit ({r})\u{a0}:"),
    }
}

fn answers(lang: Lang, t: &str) -> String {
    match lang {
        Lang::En => format!("{t} answers:"),
        Lang::Cs => format!("{t} odpovídá:"),
        Lang::Zh => format!("《{t}》回答："),
        Lang::Bn => format!("{t} উত্তর দেয়:"),
        Lang::Kok => format!("{t} जाप दिता:"),
        Lang::La => format!("{t} respondet:"),
        Lang::It => format!("{t} risponde:"),
        Lang::Es => format!("{t} responde:"),
        Lang::Pt => format!("{t} responde:"),
        Lang::Fr => format!("{t} répond\u{a0}:"),
    }
}

fn writes_in(lang: Lang, a: &str, t: &str) -> String {
    match lang {
        Lang::En => format!("{a} writes in {t}:"),
        Lang::Cs => format!("{a} píše v díle {t}:"),
        Lang::Zh => format!("{a}在《{t}》中写道："),
        Lang::Bn => format!("{a} {t}-এ লেখেন:"),
        Lang::Kok => format!("{a} {t} हांत बरयता:"),
        Lang::La => format!("{a} in {t} scribit:"),
        Lang::It => format!("{a} scrive in {t}:"),
        Lang::Es => format!("{a} escribe en {t}:"),
        Lang::Pt => format!("{a} escreve em {t}:"),
        Lang::Fr => format!("{a} écrit dans {t}\u{a0}:"),
    }
}

fn says(lang: Lang, t: &str) -> String {
    match lang {
        Lang::En => format!("{t} says:"),
        Lang::Cs => format!("{t} říká:"),
        Lang::Zh => format!("《{t}》说："),
        Lang::Bn => format!("{t} বলে:"),
        Lang::Kok => format!("{t} सांगता:"),
        Lang::La => format!("{t} dicit:"),
        Lang::It => format!("{t} dice:"),
        Lang::Es => format!("{t} dice:"),
        Lang::Pt => format!("{t} diz:"),
        Lang::Fr => format!("{t} dit\u{a0}:"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(title: &str, author: Option<&str>, doc_type: &str) -> Passage {
        Passage {
            doc_id: "d".into(),
            doc_title: title.into(),
            author: author.map(str::to_string),
            year: None,
            doc_type: doc_type.into(),
            reference: None,
            heading: None,
            text: String::new(),
            source_url: None,
            score: 0.0,
            magisterial: false,
            machine_translated: false,
            index: None,
        }
    }

    #[test]
    fn speakers_are_named_simply() {
        let c = passage(
            "Baltimore Catechism No. 3 (of 4) (part 1 of 2)",
            Some("Third Plenary Council of Baltimore"),
            "catechism",
        );
        assert_eq!(first(Lang::En, &c), "Baltimore Catechism No. 3 answers:");
        assert_eq!(again(Lang::En, &c), "Baltimore Catechism No. 3 adds:");
        let f = passage(
            "Confessions — Book 10",
            Some("Augustine of Hippo"),
            "patristic",
        );
        assert_eq!(
            first(Lang::It, &f),
            "Augustine of Hippo scrive in Confessions:"
        );
        assert_eq!(again(Lang::En, &f), "Augustine of Hippo adds:");
    }
}
