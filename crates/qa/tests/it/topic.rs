//! The on-topic classifier on the labelled question sets: `topic_dev.json` (the
//! lexicons were tuned on it) and `topic_test.json` (held out, committed before
//! the classifier was written). Prints precision and recall of both decisions
//! (answered = on topic, refused = off topic) per set, and every miss.

use ecclesia_qa::{classify_with, SemanticVote, TopicScore};
use serde::Deserialize;
use std::sync::{Arc, LazyLock};

/// The embedding voice over the real model (`scripts/fetch-e5.sh`), or `None`.
static VOTE: LazyLock<Option<SemanticVote>> = LazyLock::new(|| {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = ecclesia_e5::E5::find(None, &[root])?;
    let e5 = Arc::new(ecclesia_e5::E5::load(&dir, None).expect("the e5 model loads"));
    let vote = SemanticVote::bundled(
        ecclesia_e5::MODEL_SHA256,
        Box::new(move |q: &str| e5.query(q).map_err(|e| e.to_string())),
    );
    Some(vote.expect("data/topic_e5.json matches the model"))
});

/// The embedding voice, or a note that the tests using it are skipped.
fn vote() -> Option<&'static SemanticVote> {
    let v = VOTE.as_ref();
    if v.is_none() {
        assert!(
            std::env::var_os("ECCLESIA_REQUIRE_E5").is_none(),
            "ECCLESIA_REQUIRE_E5 is set but models/multilingual-e5-small is missing"
        );
        eprintln!("models/multilingual-e5-small missing (scripts/fetch-e5.sh): skipped");
    }
    v
}

#[derive(Deserialize)]
struct Labelled {
    q: String,
    lang: String,
    on_topic: bool,
    kind: String,
}

/// Precision and recall of the "answered" and the "refused" decisions.
#[derive(Debug)]
struct Figures {
    answered_precision: f64,
    answered_recall: f64,
    refused_precision: f64,
    refused_recall: f64,
    misses: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// The decision measured: the learned model's, or (with `ECCLESIA_TOPIC_RULE=lexicon`)
/// the word lists' own rule, to compare the two; `ECCLESIA_TOPIC_THRESHOLD` tries
/// another probability threshold (chosen on the dev set only).
fn decide(s: &TopicScore) -> bool {
    if std::env::var("ECCLESIA_TOPIC_RULE").as_deref() == Ok("lexicon") {
        return s.lexicon_on_topic();
    }
    match std::env::var("ECCLESIA_TOPIC_THRESHOLD").map(|t| t.parse::<f32>()) {
        Ok(Ok(t)) => s.combined() >= t,
        _ => s.on_topic(),
    }
}

/// The word model alone.
fn measure(name: &str, raw: &str) -> Figures {
    measure_with(name, raw, None)
}

/// The word model and, when given, the embedding voice.
fn measure_with(name: &str, raw: &str, vote: Option<&SemanticVote>) -> Figures {
    let set: Vec<Labelled> = serde_json::from_str(raw).expect("labelled set parses");
    let (mut tp, mut fp, mut tn, mut fneg) = (0, 0, 0, 0);
    let mut decided = Vec::with_capacity(set.len());
    for l in &set {
        let s = classify_with(&l.q, vote);
        decided.push(decide(&s));
        let on = decide(&s);
        match (on, l.on_topic) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, false) => tn += 1,
            (false, true) => fneg += 1,
        }
        if on != l.on_topic {
            eprintln!(
                "{name}: MISS [{} {}] {:?} → {} (p {:.2}, words {:.2}, embedding {:?}, faith {}, off {}, {:?})",
                l.lang,
                l.kind,
                l.q,
                if on { "answered" } else { "refused" },
                s.combined(),
                s.probability,
                s.semantic,
                s.faith,
                s.off_topic,
                s.matched
            );
        }
    }
    let f = Figures {
        answered_precision: ratio(tp, tp + fp),
        answered_recall: ratio(tp, tp + fneg),
        refused_precision: ratio(tn, tn + fneg),
        refused_recall: ratio(tn, tn + fp),
        misses: fp + fneg,
    };
    let on = set.iter().filter(|l| l.on_topic).count();
    eprintln!(
        "{name}: {} questions ({on} on topic, {} off): on-topic precision {:.3} recall {:.3}; \
         refusal precision {:.3} recall {:.3}",
        set.len(),
        set.len() - on,
        f.answered_precision,
        f.answered_recall,
        f.refused_precision,
        f.refused_recall
    );
    let mut langs: Vec<&str> = set.iter().map(|l| l.lang.as_str()).collect();
    langs.sort_unstable();
    langs.dedup();
    for lang in langs {
        let of: Vec<usize> = (0..set.len())
            .filter(|i| set[*i].lang == lang && set[*i].on_topic)
            .collect();
        let ok = of.iter().filter(|i| decided[**i]).count();
        eprintln!("{name}:   {lang}: on-topic answered {ok}/{}", of.len());
    }
    f
}

/// Fails unless the figures reach these floors: (precision, recall) of the
/// answered and of the refused questions.
fn at_least(f: &Figures, answered: (f64, f64), refused: (f64, f64)) {
    assert!(
        f.answered_precision >= answered.0 && f.answered_recall >= answered.1,
        "{f:?}"
    );
    assert!(
        f.refused_precision >= refused.0 && f.refused_recall >= refused.1,
        "{f:?}"
    );
}

#[test]
fn sets_are_large_and_balanced() {
    for raw in [
        include_str!("../fixtures/topic_dev.json"),
        include_str!("../fixtures/topic_test.json"),
        include_str!("../fixtures/topic_test2.json"),
        include_str!("../fixtures/topic_test3.json"),
        include_str!("../fixtures/topic_test4.json"),
        include_str!("../fixtures/topic_test5.json"),
        include_str!("../fixtures/topic_test7.json"),
        include_str!("../fixtures/topic_test8.json"),
        include_str!("../fixtures/topic_test9.json"),
        include_str!("../fixtures/topic_test10.json"),
        include_str!("../fixtures/topic_test11.json"),
    ] {
        let set: Vec<Labelled> = serde_json::from_str(raw).expect("parses");
        let on = set.iter().filter(|l| l.on_topic).count();
        assert!(set.len() >= 100 && on * 2 >= set.len() - 12 && on * 2 <= set.len() + 12);
        for lang in ["en", "cs", "zh", "bn", "kok", "la", "it", "es", "pt", "fr"] {
            assert!(
                set.iter().any(|l| l.on_topic && l.lang == lang),
                "no on-topic {lang}"
            );
        }
        assert!(set.iter().filter(|l| l.kind == "mix").count() >= 10);
    }
}

#[test]
fn classifier_on_dev_set() {
    let f = measure("dev", include_str!("../fixtures/topic_dev.json"));
    // measured: 1.000 on all four, no miss; with the boundary training set (session
    // 10) answered recall 0.983 and refused precision 0.984 (one Czech question refused);
    // with the general training set (session 11) 1.000 on all four again
    at_least(&f, (0.97, 0.97), (0.97, 0.97));
    assert!(f.misses <= 3, "{f:?}");
}

#[test]
fn classifier_on_held_out_set() {
    let f = measure("held-out", include_str!("../fixtures/topic_test.json"));
    // measured: answered precision 0.966, recall 1.000; refused precision 1.000,
    // recall 0.964 (two mixes answered: "hot cross buns for Good Friday", "the best
    // hotel near St. Peter's Basilica"); not tuned on, so not fixed here; with the
    // general training set (session 11) 0.983 / 1.000, 1.000 / 0.982 (1 miss)
    at_least(&f, (0.95, 0.98), (0.98, 0.95));
    assert!(f.misses <= 3, "{f:?}");
}

#[test]
fn classifier_on_second_held_out_set() {
    // Written in session 9 by someone who had not seen the lexicons or the dev set.
    let f = measure("held-out 2", include_str!("../fixtures/topic_test2.json"));
    // measured once with the word lists' rule before the learned model, which was
    // made with its misses in view (so no longer held out for it): answered precision
    // 0.834, recall 0.864; refused precision 0.859, recall 0.829 (43 misses). The
    // learned model: 0.963 / 0.929, 0.931 / 0.964 (15 misses); with the boundary
    // training set (session 10) 0.964 / 0.950, 0.951 / 0.964 (12); with the general
    // training set (session 11) 0.971 / 0.964, 0.965 / 0.971 (9)
    at_least(&f, (0.95, 0.94), (0.94, 0.95));
}

#[test]
fn classifier_on_third_held_out_set() {
    // Written in session 9 by someone who had seen neither the word lists, the
    // training set nor the other sets; measured once, after the learned model was done.
    let f = measure("held-out 3", include_str!("../fixtures/topic_test3.json"));
    // measured: the learned model answered precision 0.959, recall 0.900; refused
    // precision 0.906, recall 0.962 (18 misses); the word lists' rule on the same set
    // 0.840 / 0.846, 0.845 / 0.838 (41 misses); with the boundary training set
    // (session 10) 0.960 / 0.931, 0.933 / 0.962 (14); with the general training set
    // (session 11) 0.968 / 0.938, 0.940 / 0.969 (12); with the everyday and works
    // training files (session 15) 0.948 / 0.977, 0.976 / 0.946 (10: one more off-topic
    // question answered by the word model alone; both voices 0.992 / 0.977, 0.977 / 0.992)
    at_least(&f, (0.94, 0.92), (0.92, 0.94));
}

#[test]
fn classifier_on_fourth_held_out_set() {
    // Written in session 10 by someone who had seen neither the word lists, the
    // training sets nor the other sets; measured once, after the boundary training
    // set was added.
    let f = measure("held-out 4", include_str!("../fixtures/topic_test4.json"));
    // measured: answered precision 0.962, recall 0.962; refused precision 0.962,
    // recall 0.962 (10 misses); the model trained without the boundary set 0.953 /
    // 0.931, 0.932 / 0.954 (15); the word lists' rule 0.821 / 0.885, 0.875 / 0.808.
    // With the general training set (session 11: its kinds were asked for with this
    // set's misses in view, so it is no longer held out for it) 0.984 / 0.977, 0.977 /
    // 0.985 (5)
    at_least(&f, (0.96, 0.96), (0.96, 0.96));
}

#[test]
fn classifier_on_fifth_held_out_set() {
    // Written in session 11 by someone who had seen neither the word lists, the
    // training sets nor the other sets (300 questions, 60 worldly mixes); measured
    // before and after the general training set was added, nothing else.
    let f = measure("held-out 5", include_str!("../fixtures/topic_test5.json"));
    // measured: before 0.909 / 0.933, 0.932 / 0.907 (24 misses, 14 off-topic
    // questions answered); after 0.934 / 0.940, 0.940 / 0.933 (19 misses, 10 answered)
    at_least(&f, (0.92, 0.92), (0.92, 0.92));
}

#[test]
fn classifier_on_sixth_held_out_set_english() {
    // Written in session 13 by someone who had seen nothing in the repository; only
    // its English part was finished (30 questions: 15 on, 15 off, 6 worldly mixes),
    // so it is too small for the balance check above. Measured once, nothing tuned.
    let f = measure(
        "held-out 6 (en)",
        include_str!("../fixtures/topic_test6_en.json"),
    );
    // measured: 1.000 on all four (no miss, "Livin' on a Prayer" and a Saint Bernard
    // puppy's food refused); one miss would read 0.933, so the floor allows two
    at_least(&f, (0.86, 0.86), (0.86, 0.86));
}

#[test]
fn classifier_on_seventh_held_out_set() {
    // Written in session 14 by someone who had read nothing in the repository (300
    // questions, ten languages, 60 worldly mixes). Its misses were not read until the
    // last measurement; nothing was chosen by it. Measured: session 13's model 0.942 /
    // 0.873, 0.882 / 0.947; with the request lexicon's seven new kinds 0.949 / 0.873,
    // 0.883 / 0.953; with the faith lexicon's other-language words and the training
    // files cleared of evaluation questions 0.943 / 0.880, 0.887 / 0.947 (8 off-topic
    // answered, 18 on-topic refused); with the worldly and languages training files
    // 0.933 / 0.933, 0.933 / 0.933 (10 answered, 10 refused; six of the ten refused
    // ask, in six languages, whether found money may be kept). Then, after the QA test
    // set showed "Is the Bible free from error?" refused (the worldly file's "the bible
    // of …" mixes had made "Bible" lean off topic), 16 English Bible questions on topic
    // in the worldly file and inerrancy in the faith lexicon: 0.940 / 0.933, 0.934 /
    // 0.940 (9 answered, 10 refused).
    let f = measure("held-out 7", include_str!("../fixtures/topic_test7.json"));
    at_least(&f, (0.92, 0.92), (0.92, 0.92));
}

/// The held-out sets with both voices (the word model and the embedding voice,
/// averaged). Measured in session 15, final (answered precision / recall,
/// refused precision / recall): dev 0.984/1.000, 1.000/0.983; held out 1
/// 1.000/1.000 both; 2 0.979/0.993, 0.993/0.979; 3 0.992 all four; 4 0.977 all
/// four; 5 0.987/1.000, 1.000/0.987; 7 0.967/0.987, 0.986/0.967. The word model
/// alone and the steps between: `docs/notes/qa-conventions.md`, "Session 15".
#[test]
fn both_voices_on_the_held_out_sets() {
    let Some(vote) = vote() else { return };
    let sets: [(&str, &str, f64); 7] = [
        ("dev", include_str!("../fixtures/topic_dev.json"), 0.97),
        (
            "held-out",
            include_str!("../fixtures/topic_test.json"),
            0.96,
        ),
        (
            "held-out 2",
            include_str!("../fixtures/topic_test2.json"),
            0.95,
        ),
        (
            "held-out 3",
            include_str!("../fixtures/topic_test3.json"),
            0.95,
        ),
        (
            "held-out 4",
            include_str!("../fixtures/topic_test4.json"),
            0.95,
        ),
        (
            "held-out 5",
            include_str!("../fixtures/topic_test5.json"),
            0.95,
        ),
        (
            "held-out 7",
            include_str!("../fixtures/topic_test7.json"),
            0.93,
        ),
    ];
    for (name, raw, floor) in sets {
        let f = measure_with(&format!("{name}, both voices"), raw, Some(vote));
        at_least(&f, (floor, floor), (floor, floor));
    }
}

#[test]
fn eighth_held_out_set_word_model_alone() {
    // Written in session 15 by someone who had read nothing in the repository (300
    // questions, ten languages, 60 worldly mixes; 8 found in a training file removed);
    // measured once, after the embedding voice was trained and its rule (the mean of
    // the two voices) fixed: words 0.970 / 0.890, 0.899 / 0.973; both voices 0.971 /
    // 0.924, 0.929 / 0.973. Then the everyday training file (asked for because held
    // out 7 showed its kind, so this set is no longer held out for it): words 0.966 /
    // 0.972, 0.973 / 0.966; both 0.967 / 1.000, 1.000 / 0.966.
    let f = measure(
        "held-out 8, words",
        include_str!("../fixtures/topic_test8.json"),
    );
    at_least(&f, (0.85, 0.85), (0.85, 0.85));
}

#[test]
fn eighth_held_out_set_both_voices() {
    let Some(vote) = vote() else { return };
    let f = measure_with(
        "held-out 8, both voices",
        include_str!("../fixtures/topic_test8.json"),
        Some(vote),
    );
    at_least(&f, (0.85, 0.85), (0.85, 0.85));
}

/// A held-out set measured with the word model alone and, when the e5 model is
/// installed, with both voices; each at least 0.85 both ways.
fn both_rules_at_least_085(name: &str, raw: &str) {
    let words = measure(&format!("{name}, words"), raw);
    at_least(&words, (0.85, 0.85), (0.85, 0.85));
    let Some(vote) = vote() else { return };
    let both = measure_with(&format!("{name}, both voices"), raw, Some(vote));
    at_least(&both, (0.85, 0.85), (0.85, 0.85));
}

#[test]
fn ninth_held_out_set() {
    // Written in session 15 by someone who had read nothing in the repository (296
    // questions after removing 4 that were in a training file; ten languages, 60
    // worldly mixes); measured with the word model alone and with both voices, before
    // the everyday training file (words 0.934 / 0.853, 0.862 / 0.938; both 0.957 /
    // 0.887, 0.892 / 0.959; its misses were printed then, nothing was chosen by them)
    // and after (words 0.940 / 0.933, 0.932 / 0.938; both 0.924 / 0.967, 0.964 / 0.918).
    let raw = include_str!("../fixtures/topic_test9.json");
    both_rules_at_least_085("held-out 9", raw);
}

#[test]
fn tenth_held_out_set() {
    // Written in session 15 by someone who had read nothing in the repository (291
    // questions after removing 9 that were in a training file; ten languages, 60
    // worldly mixes); measured with the word model alone and with both voices, before
    // the works training file (words 0.917 / 0.917, 0.918 / 0.918; both 0.939 / 0.958,
    // 0.958 / 0.939) and after (words 0.950 / 0.924, 0.927 / 0.952; both 0.972 / 0.965,
    // 0.966 / 0.973); only the figures were printed.
    let raw = include_str!("../fixtures/topic_test10.json");
    both_rules_at_least_085("held-out 10", raw);
}

#[test]
fn eleventh_held_out_set() {
    // Written in session 16 by someone who had read nothing in the repository (300
    // questions; ten languages, 60 worldly mixes); measured twice, printing only the
    // figures: with session 15's served model (words 0.941 / 0.953, 0.953 / 0.940; both
    // 0.954 / 0.960, 0.960 / 0.953), then with the mixes training file (words 0.929 /
    // 0.953, 0.952 / 0.927; both 0.960 / 0.960, 0.960 / 0.960). Nothing was chosen by it.
    let raw = include_str!("../fixtures/topic_test11.json");
    both_rules_at_least_085("held-out 11", raw);
}
