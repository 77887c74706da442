//! Questions in the nine other languages served: the extractive answer's
//! framing (the words that introduce each quotation) is in the question's
//! language, the quotations stay verbatim, and such questions are on topic.

use crate::{check_integrity, fixture};
use ecclesia_qa::lang::{detect, Lang};
use ecclesia_qa::{
    classify, gather_with, Extractive, Generator, QaConfig, QaEngine, RetrievalConfig,
};
use std::sync::Arc;

/// Compose an answer from the fixture passages found for `search` (English),
/// for `question` (another language), and check that its opening introduces
/// the quotation in the question's language (one of `intros`).
fn framed(question: &str, search: &str, intros: &[&str]) {
    let r = fixture();
    let passages = gather_with(&r, question, search, &RetrievalConfig::default()).unwrap();
    assert!(!passages.is_empty(), "{question}");
    let mut text = String::new();
    let draft = Extractive::default()
        .generate(question, &passages, &mut |s| {
            text.push_str(s);
            Ok(())
        })
        .unwrap();
    let opening = draft.text.split("\n\n").next().unwrap_or("");
    assert!(
        intros.iter().any(|i| opening.contains(i)),
        "{question}:\n{}",
        draft.text
    );
    assert_eq!(text, draft.text);
    // every quotation is a verbatim piece of its passage
    for (p, ex) in passages.iter().zip(&draft.excerpts) {
        if let Some(ex) = ex {
            assert_eq!(&p.text[ex.start..ex.end], ex.text);
        }
    }
}

#[test]
fn framing_follows_the_question_language() {
    let search = "real presence of Christ in the Eucharist body blood";
    for (q, intros) in [
        (
            "Co učí církev o eucharistii?",
            &["píše v díle", "odpovídá:", "Písmo říká", "říká:"][..],
        ),
        (
            "教会关于圣体的教导是什么？",
            &["中写道", "回答", "圣经说", "说："],
        ),
        ("খ্রীষ্টপ্রসাদ কী?", &["লেখেন", "উত্তর দেয়", "শাস্ত্র বলে", "বলে:"]),
        (
            "युकारिस्त म्हणल्यार कितें?",
            &["बरयता", "जाप दिता", "पवित्र पुस्तक सांगता", "सांगता:"],
        ),
        (
            "Quid est Eucharistia?",
            &["scribit:", "respondet:", "Scriptura dicit", "dicit:"],
        ),
        (
            "Che cos'è l'Eucaristia?",
            &["scrive in", "risponde:", "La Scrittura dice", "dice:"],
        ),
        (
            "¿Qué es la Eucaristía?",
            &["escribe en", "responde:", "La Escritura dice", "dice:"],
        ),
        (
            "O que é a Eucaristia?",
            &["escreve em", "responde:", "A Escritura diz", "diz:"],
        ),
        (
            "Qu'est-ce que l'Eucharistie ?",
            &["écrit dans", "répond", "L'Écriture dit", "dit"],
        ),
        (
            "What is the Eucharist?",
            &["writes in", "answers:", "Scripture says", "says:"],
        ),
    ] {
        framed(q, search, intros);
    }
}

#[test]
fn an_english_search_of_a_foreign_question_keeps_integrity() {
    let r = fixture();
    let e = QaEngine::new(
        Arc::new(r.clone()),
        Arc::new(Extractive::default()),
        QaConfig::default(),
    );
    // Without the corpus feature there is no glossary: the question's own
    // words are searched; the answer is still framed in Italian and verbatim.
    let a = e
        .answer("Che cosa insegna la Chiesa sulla Eucharist?")
        .unwrap();
    check_integrity(&a, &r);
    assert!(
        a.text.contains("risponde:") || a.text.contains("scrive in") || a.citations.is_empty(),
        "{}",
        a.text
    );
}

#[test]
fn multilingual_questions_are_on_topic_and_detected() {
    #[derive(serde::Deserialize)]
    struct Item {
        category: String,
        question: String,
    }
    let items: Vec<Item> =
        serde_json::from_str(include_str!("../fixtures/qa_multilingual.json")).unwrap();
    assert_eq!(items.len(), 90);
    let mut off = Vec::new();
    let mut wrong_lang = Vec::new();
    for it in &items {
        if !classify(&it.question).on_topic() {
            off.push(it.question.clone());
        }
        if detect(&it.question).code() != it.category {
            wrong_lang.push(format!("{} ({:?})", it.question, detect(&it.question)));
        }
    }
    println!("multilingual: {} of 90 refused: {off:?}", off.len());
    println!(
        "multilingual: {} of 90 in the wrong language: {wrong_lang:?}",
        wrong_lang.len()
    );
    assert!(off.len() <= 9, "{off:?}");
    assert!(wrong_lang.len() <= 5, "{wrong_lang:?}");
    assert_eq!(detect("What is grace?"), Lang::En);
}
