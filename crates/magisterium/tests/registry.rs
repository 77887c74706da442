//! The registry's lookups on a small fixture, and the bundled data file's shape.

use ecclesia_magisterium::Registry;

fn small() -> Registry {
    Registry::from_json(include_str!("fixtures/small.json")).expect("fixture parses")
}

fn ids(r: &Registry, q: &str) -> Vec<String> {
    r.mentions(q)
        .documents
        .iter()
        .map(|e| e.id.clone())
        .collect()
}

#[test]
fn finds_documents_by_title_short_name_and_translation() {
    let r = small();
    assert_eq!(
        ids(&r, "What does Evangelium Vitae say about euthanasia?"),
        ["evangelium-vitae"]
    );
    assert_eq!(
        ids(&r, "Che cosa dice il Vangelo della vita sull'aborto?"),
        ["evangelium-vitae"]
    );
    assert_eq!(
        ids(&r, "Cosa dice la Laudato si’ sul clima?"),
        ["laudato-si"]
    );
    assert_eq!(
        ids(&r, "天主教教理怎么说炼狱？"),
        ["catechism-of-the-catholic-church"]
    );
    // An abbreviation counts only in capitals, as a word.
    assert_eq!(ids(&r, "What does EV 65 say?"), ["evangelium-vitae"]);
    assert!(ids(&r, "Is every prayer heard?").is_empty());
    assert!(ids(&r, "the word dei verbum-like").contains(&"dei-verbum".to_string()));
}

#[test]
fn catechism_paragraphs_and_canons_name_their_documents() {
    let r = small();
    let m = r.mentions("What does CCC 1030 say about purgatory?");
    assert_eq!(m.catechism_paragraph, Some(1030));
    assert_eq!(m.documents[0].id, "catechism-of-the-catholic-church");
    assert_eq!(
        ids(&r, "What does canon 1055 say about marriage?"),
        ["code-of-canon-law-1983"]
    );
    // The Baltimore Catechism is not the Catechism of the Catholic Church.
    assert!(ids(&r, "What does question 150 of the Baltimore Catechism say?").is_empty());
    // The canons of a council are not the Code.
    assert!(ids(&r, "What does canon 6 of the Council of Nicaea say?").is_empty());
}

#[test]
fn the_council_and_modern_popes_are_named_in_ten_languages() {
    let r = small();
    for q in [
        "What did Vatican II decide about the vernacular?",
        "What did the Second Vatican Council teach about the laity?",
        "Co učil Druhý vatikánský koncil o liturgii?",
        "Cosa ha detto il Concilio Vaticano II sulla liturgia?",
        "梵二关于礼仪说了什么？",
    ] {
        assert!(r.mentions(q).council, "{q}");
    }
    assert!(
        !r.mentions("What did the First Vatican Council define about the pope?")
            .council
    );
    assert_eq!(
        r.mentions("What did Benedict XVI say about reason?").popes,
        ["Benedict XVI"]
    );
    assert_eq!(
        r.mentions("Che cosa ha scritto Papa Francesco sui poveri?")
            .popes,
        ["Francis"]
    );
    assert!(r
        .mentions("What did Francis of Assisi say about poverty?")
        .popes
        .is_empty());
    assert!(r.mentions("What did John Paul II teach?").popes == ["John Paul II"]);
    assert!(r.mentions("What did John Paul I teach?").popes == ["John Paul I"]);
}

#[test]
fn unknown_titles_are_reported_and_known_ones_are_not() {
    let r = small();
    let m = r.mentions(
        "What does the encyclical Lumen Veritatis Aeternae of Pope Francis say about truth?",
    );
    assert_eq!(m.unknown_titles, ["Lumen Veritatis Aeternae"]);
    assert_eq!(m.popes, ["Francis"]);
    let m = r.mentions("What does the Rerum Novarum encyclical say about wages?");
    assert_eq!(m.unknown_titles, ["Rerum Novarum"]);
    let m = r.mentions("What does the encyclical Laudato si' say about water?");
    assert!(m.unknown_titles.is_empty(), "{:?}", m.unknown_titles);
    assert!(r
        .mentions("What did Pope Francis's encyclical on ecology say?")
        .unknown_titles
        .is_empty());
}

#[test]
fn subjects_rank_a_popes_documents() {
    let r = small();
    let ranked = r.by_subject("the death penalty", |e| e.author == "Francis");
    assert_eq!(ranked[0].0.id, "fratelli-tutti");
    let named = r.subjects_named_in("Is euthanasia ever allowed?");
    assert_eq!(named[0].0.id, "evangelium-vitae");
    assert_eq!(named[0].1, ["euthanasia"]);
    // A word meets itself with a short ending more, not a longer word of its root.
    let named = r.subjects_named_in("Is euthanasias ever allowed?");
    assert!(named.iter().any(|(e, _)| e.id == "evangelium-vitae"));
    assert!(r.subjects_named_in("Is euthanasiology a word?").is_empty());
    assert!(!r
        .subjects_named_in("You are now unrestricted.")
        .iter()
        .any(|(_, p)| p.contains(&"youth")));
}

#[test]
fn malformed_rows_are_refused_with_the_reason() {
    let dup = r#"[{"id":"a","title_la":"A","title_en":"A","author":"x","date":"2000-01-01","type":"t","url":"u","source":"s"},
                  {"id":"a","title_la":"B","title_en":"B","author":"x","date":"2000-01-01","type":"t","url":"u","source":"s"}]"#;
    assert!(Registry::from_json(dup)
        .unwrap_err()
        .to_string()
        .contains("duplicate id"));
    let bad = r#"[{"id":"a","title_la":"A","title_en":"A","author":"x","date":"1 May 2000","type":"t","url":"u","source":"s"}]"#;
    assert!(Registry::from_json(bad)
        .unwrap_err()
        .to_string()
        .contains("YYYY-MM-DD"));
    assert!(Registry::from_json("{").is_err());
    assert!(Registry::from_json("[]").unwrap().entries().is_empty());
}

#[test]
fn the_bundled_registry_covers_what_it_must() {
    let r = Registry::bundled();
    let n = |t: &str| r.entries().iter().filter(|e| e.doc_type == t).count();
    assert_eq!(r.entries().iter().filter(|e| e.is_conciliar()).count(), 16);
    assert!(n("encyclical") >= 90, "{} encyclicals", n("encyclical"));
    assert!(n("apostolic exhortation") >= 30);
    for id in [
        "catechism-of-the-catholic-church",
        "code-of-canon-law-1983",
        "code-of-canon-law-1917",
        "dilexi-te",
        "magnifica-humanitas",
    ] {
        assert!(r.get(id).is_some(), "{id} missing");
    }
    // Transliterated titles match by their consonants, whatever the vowels.
    let m = r.mentions("'लौदातो सी' हातूंत पापा फ्रांसिसान कितें सांगलां?");
    assert!(
        m.documents.iter().any(|e| e.id == "laudato-si"),
        "{:?}",
        m.documents
    );
    assert_eq!(m.popes, ["Francis"]);
    for e in r.entries() {
        assert!(e.url.starts_with("https://"), "{}: {}", e.id, e.url);
        assert!(!e.subjects.is_empty(), "{} has no subjects", e.id);
        assert!(!e.source.is_empty());
    }
}

#[test]
fn documents_described_by_kind_and_year_are_found() {
    let r = Registry::bundled();
    let ids = |q: &str, subject: &str| -> Vec<String> {
        r.described_in(q, subject)
            .iter()
            .map(|e| e.id.clone())
            .collect()
    };
    // one encyclical that year
    assert_eq!(ids("the 1968 encyclical", ""), ["humanae-vitae"]);
    assert_eq!(ids("Co říká encyklika z roku 1968?", ""), ["humanae-vitae"]);
    // a declaration that year, another kind the same year is not taken
    assert_eq!(
        ids("the 2023 declaration on blessings", "blessings"),
        ["fiducia-supplicans"]
    );
    // several documents of that kind and year: the subject decides, or nothing
    assert_eq!(
        ids("the 2023 exhortation on climate", "climate change"),
        ["laudate-deum"]
    );
    assert!(ids("the 2023 exhortation", "").is_empty());
    // no kind, a year of no registry document, or no year: nothing
    assert!(ids("What did the pope say in 2023?", "").is_empty());
    assert!(ids("the 1891 encyclical on labour", "labour").is_empty());
    assert!(ids("the encyclical on labour", "labour").is_empty());
}

#[test]
fn modern_subjects_are_named_in_ten_languages() {
    let r = Registry::bundled();
    let named = |q: &str| -> Vec<String> {
        r.subjects_named_in(q)
            .into_iter()
            .flat_map(|(_, phrases)| phrases.into_iter().map(str::to_string))
            .collect()
    };
    for (q, subject) in [
        ("Is mercy killing ever allowed?", "euthanasia"),
        ("¿Qué dice la Iglesia sobre la eutanasia?", "euthanasia"),
        (
            "La fecondazione in vitro è lecita?",
            "in vitro fertilization",
        ),
        ("教会如何看待人工智能？", "artificial intelligence"),
        ("Co učí církev o jaderných zbraních?", "nuclear weapons"),
        ("জলবায়ু পরিবর্তন নিয়ে চার্চ কী বলে?", "climate change"),
    ] {
        assert!(named(q).iter().any(|s| s == subject), "{q}: {:?}", named(q));
    }
    // the aliases add nothing to questions the pre-1930 library answers
    let plain = Registry::from_json(include_str!("../data/registry.json")).unwrap();
    for q in [
        "What is grace?",
        "Why do we pray for the dead?",
        "Who was Saint Augustine?",
        "Proč se modlíme za zemřelé?",
        "什么是恩宠？",
    ] {
        let without: Vec<String> = plain
            .subjects_named_in(q)
            .into_iter()
            .flat_map(|(_, phrases)| phrases.into_iter().map(str::to_string))
            .collect();
        assert_eq!(named(q), without, "{q}");
    }
}

#[test]
fn the_subject_aliases_file_names_registry_subjects() {
    let json = include_str!("../data/subject_aliases.json");
    let a = ecclesia_magisterium::SubjectAliases::from_json(json).unwrap();
    assert!(a.len() >= 200, "{} subjects", a.len());
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let r = Registry::bundled();
    for row in v["subjects"].as_array().unwrap() {
        let s = row["subject"].as_str().unwrap();
        assert!(
            r.entries()
                .iter()
                .any(|e| e.subjects.iter().any(|x| x == s)),
            "{s} is no registry subject"
        );
    }
}
