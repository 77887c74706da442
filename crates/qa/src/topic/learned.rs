//! A logistic-regression classifier of on-topic questions, trained at first use
//! on the labelled questions of the eight `data/topic_train*.json` files (written
//! for it, in the ten languages; the evaluation sets under `tests/fixtures/` are
//! not in them: questions matching one after folding were removed, and a test
//! keeps it so).
//!
//! Its inputs are the question's own words and word pairs, the character
//! trigrams of its words (so inflections, other spellings and typing slips
//! still count), its first two words (the question's frame: "how do", "write
//! a"), and what the word lists found ([`super::faith`], [`super::requests`]:
//! each concept matched, both scores, a Bible reference, a pope by number).
//! Features are hashed into [`BUCKETS`] weights. Training is deterministic (a
//! fixed order and number of passes), so one build always gives one model.

use super::normalize::{is_han, Normalized};
use serde::Deserialize;
use std::sync::LazyLock;

/// Number of hashed weights (a power of two).
pub const BUCKETS: usize = 1 << 18;

/// The training's settings (chosen by cross-validation on the training set:
/// the `cross_validation` test).
#[derive(Debug, Clone, Copy)]
pub struct Hyper {
    /// Passes over the training set.
    pub epochs: usize,
    /// AdaGrad's learning rate.
    pub rate: f32,
    /// L2 penalty per update.
    pub l2: f32,
    /// The value of each word-list feature (a text feature counts 1).
    pub lexicon_weight: f32,
}

/// The settings the served model is trained with.
pub const HYPER: Hyper = Hyper {
    epochs: 40,
    rate: 0.3,
    l2: 1e-5,
    lexicon_weight: 2.0,
};

/// A feature: its bucket and its value.
pub type Feature = (u32, f32);

/// What the word lists found in a question, as the model sees it.
#[derive(Debug, Clone, Default)]
pub struct LexiconSignals<'a> {
    /// The faith score ([`super::TopicScore::faith`]).
    pub faith: u32,
    /// The off-topic score ([`super::TopicScore::off_topic`]).
    pub off_topic: u32,
    /// A Bible verse is cited.
    pub bible_reference: bool,
    /// The concepts matched (their names).
    pub matched: &'a [&'static str],
}

/// A trained model.
pub struct Model {
    weights: Vec<f32>,
    bias: f32,
}

/// One labelled question of the training set.
#[derive(Deserialize)]
struct Labelled {
    q: String,
    on_topic: bool,
}

/// The training files: the first set, questions on the boundary (worldly
/// requests with a Catholic word; moral and religious questions in everyday
/// words), general knowledge and everyday requests with no religious word
/// beside moral and spiritual questions in plain words (session 11), worldly
/// look-alikes (songs, places and clubs named after saints, secular history;
/// faith questions framed by travel or work) and the nine other languages'
/// wide spread of subjects (session 14), and everyday moral questions in plain
/// words (found money, taxes, expenses, end of life) beside practical questions
/// on the same subjects, and what works, films and songs are about (session 15),
/// and worldly requests in religious words beside faith questions in worldly
/// words, in the ten languages (session 16).
static TRAINING_SETS: [(&str, &str); 8] = [
    (
        "data/topic_train.json",
        include_str!("../../data/topic_train.json"),
    ),
    (
        "data/topic_train_boundary.json",
        include_str!("../../data/topic_train_boundary.json"),
    ),
    (
        "data/topic_train_general.json",
        include_str!("../../data/topic_train_general.json"),
    ),
    (
        "data/topic_train_worldly.json",
        include_str!("../../data/topic_train_worldly.json"),
    ),
    (
        "data/topic_train_languages.json",
        include_str!("../../data/topic_train_languages.json"),
    ),
    (
        "data/topic_train_everyday.json",
        include_str!("../../data/topic_train_everyday.json"),
    ),
    (
        "data/topic_train_works.json",
        include_str!("../../data/topic_train_works.json"),
    ),
    (
        "data/topic_train_mixes.json",
        include_str!("../../data/topic_train_mixes.json"),
    ),
];

/// Every labelled question of [`TRAINING_SETS`]. The files are part of the build
/// and checked by a test, so a parse error cannot come from input: it is logged
/// and that file left out (with none, the probability is 0.5 everywhere).
fn training_set() -> Vec<Labelled> {
    let mut all = Vec::new();
    for (name, text) in TRAINING_SETS {
        match serde_json::from_str::<Vec<Labelled>>(text) {
            Ok(set) => all.extend(set),
            Err(e) => tracing::error!("{name} does not parse: {e}"),
        }
    }
    all
}

/// Every labelled question of the training files, in order: `(question, on topic)`.
pub fn training_questions() -> Vec<(String, bool)> {
    training_set()
        .into_iter()
        .map(|l| (l.q, l.on_topic))
        .collect()
}

/// FNV-1a over the training files' names and contents: what weights trained
/// elsewhere on them (`super::semantic`) record, so that a changed file is noticed.
pub fn training_fingerprint() -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in TRAINING_SETS {
        for b in name.bytes().chain([0xff]).chain(text.bytes()).chain([0xfe]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The model trained on [`TRAINING_SETS`], built once.
pub static MODEL: LazyLock<Model> = LazyLock::new(|| {
    let set = training_set();
    let examples: Vec<(Vec<Feature>, bool)> = set
        .iter()
        .map(|l| (question_features(&l.q, HYPER.lexicon_weight), l.on_topic))
        .collect();
    Model::train(&examples, HYPER)
});

/// FNV-1a of `prefix` then `text`, into a bucket.
fn bucket(prefix: &str, text: &str) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in prefix.bytes().chain([0xff]).chain(text.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h as usize & (BUCKETS - 1)) as u32
}

/// The text features of a question (words, pairs, trigrams, frame).
fn text_features(q: &Normalized, out: &mut Vec<u32>) {
    let words = q.words();
    for w in words.iter().filter(|w| !w.is_empty()) {
        out.push(bucket("w", w));
        let chars: Vec<char> = w.chars().collect();
        if chars.iter().any(|&c| is_han(c)) {
            for c in &chars {
                out.push(bucket("h", c.encode_utf8(&mut [0; 4])));
            }
            for pair in chars.windows(2) {
                out.push(bucket("hh", &pair.iter().collect::<String>()));
            }
            continue;
        }
        let padded: Vec<char> = std::iter::once('^')
            .chain(chars.iter().copied())
            .chain(std::iter::once('$'))
            .collect();
        for tri in padded.windows(3) {
            out.push(bucket("t", &tri.iter().collect::<String>()));
        }
    }
    for pair in words.windows(2) {
        out.push(bucket("b", &format!("{} {}", pair[0], pair[1])));
    }
    let frame: Vec<&str> = words.iter().take(2).map(String::as_str).collect();
    out.push(bucket("f", &frame.join(" ")));
}

/// The word lists' findings as features (buckets).
fn lexicon_features(s: &LexiconSignals<'_>, out: &mut Vec<u32>) {
    for name in s.matched {
        out.push(bucket("c", name));
    }
    out.push(bucket("faith", &s.faith.min(8).to_string()));
    out.push(bucket("off", &s.off_topic.min(6).to_string()));
    let diff = i64::from(s.faith.min(8)) - i64::from(s.off_topic.min(8));
    out.push(bucket("diff", &diff.clamp(-4, 4).to_string()));
    if s.bible_reference {
        out.push(bucket("bible", ""));
    }
}

/// Every feature of a question, deduplicated.
pub fn question_features(question: &str, lexicon_weight: f32) -> Vec<Feature> {
    let q = Normalized::new(question);
    let score = super::lexicon_score(&q, question);
    features(&q, &score.signals(), lexicon_weight)
}

/// Every feature, from the normalised question and the word lists' findings.
pub fn features(q: &Normalized, signals: &LexiconSignals<'_>, lexicon_weight: f32) -> Vec<Feature> {
    let mut text = Vec::new();
    text_features(q, &mut text);
    let mut lexicon = Vec::new();
    lexicon_features(signals, &mut lexicon);
    let mut out: Vec<Feature> = text
        .into_iter()
        .map(|b| (b, 1.0))
        .chain(lexicon.into_iter().map(|b| (b, lexicon_weight)))
        .collect();
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    out.dedup_by_key(|f| f.0);
    out
}

/// One over the length of the feature vector.
fn norm(features: &[Feature]) -> f32 {
    let sq: f32 = features.iter().map(|(_, v)| v * v).sum();
    if sq > 0.0 {
        1.0 / sq.sqrt()
    } else {
        0.0
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A small deterministic generator for the training order.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

impl Model {
    /// Train on `(features, on topic)` examples (AdaGrad on the log loss, each
    /// example's features scaled to unit length).
    pub fn train(examples: &[(Vec<Feature>, bool)], hyper: Hyper) -> Model {
        let mut weights = vec![0.0f32; BUCKETS];
        let mut squared = vec![1e-6f32; BUCKETS];
        let (mut bias, mut bias_squared) = (0.0f32, 1e-6f32);
        let mut order: Vec<usize> = (0..examples.len()).collect();
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..hyper.epochs {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for &i in &order {
                let (fs, label) = &examples[i];
                let scale = norm(fs);
                let z = bias
                    + fs.iter()
                        .map(|&(f, v)| weights[f as usize] * v)
                        .sum::<f32>()
                        * scale;
                let g = sigmoid(z) - if *label { 1.0 } else { 0.0 };
                for &(f, v) in fs {
                    let f = f as usize;
                    let gf = g * v * scale + hyper.l2 * weights[f];
                    squared[f] += gf * gf;
                    weights[f] -= hyper.rate * gf / squared[f].sqrt();
                }
                bias_squared += g * g;
                bias -= hyper.rate * g / bias_squared.sqrt();
            }
        }
        Model { weights, bias }
    }

    /// The probability that a question with these features is on topic.
    pub fn probability(&self, features: &[Feature]) -> f32 {
        let sum: f32 = features
            .iter()
            .filter_map(|&(f, v)| self.weights.get(f as usize).map(|w| w * v))
            .sum();
        sigmoid(self.bias + sum * norm(features))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_sets_parse_and_are_balanced() {
        for (name, text) in TRAINING_SETS {
            let set: Vec<Labelled> = serde_json::from_str(text).expect(name);
            let on = set.iter().filter(|l| l.on_topic).count();
            assert!(set.len() >= 290, "{name}: {}", set.len());
            assert!(
                on * 3 >= set.len() && on * 3 <= set.len() * 2,
                "{name}: {on}"
            );
        }
    }

    /// The evaluation sets (`tests/fixtures/topic_*.json`): none of their
    /// questions may be in a training file, or their figures would be optimistic.
    const EVALUATION_SETS: [&str; 12] = [
        include_str!("../../tests/fixtures/topic_dev.json"),
        include_str!("../../tests/fixtures/topic_test.json"),
        include_str!("../../tests/fixtures/topic_test2.json"),
        include_str!("../../tests/fixtures/topic_test3.json"),
        include_str!("../../tests/fixtures/topic_test4.json"),
        include_str!("../../tests/fixtures/topic_test5.json"),
        include_str!("../../tests/fixtures/topic_test6_en.json"),
        include_str!("../../tests/fixtures/topic_test7.json"),
        include_str!("../../tests/fixtures/topic_test8.json"),
        include_str!("../../tests/fixtures/topic_test9.json"),
        include_str!("../../tests/fixtures/topic_test10.json"),
        include_str!("../../tests/fixtures/topic_test11.json"),
    ];

    #[test]
    fn no_evaluation_question_is_trained_on() {
        use super::super::normalize::fold;
        let trained: std::collections::HashSet<String> =
            training_set().iter().map(|l| fold(&l.q)).collect();
        let mut overlap = Vec::new();
        for raw in EVALUATION_SETS {
            let set: Vec<Labelled> = serde_json::from_str(raw).expect("evaluation set parses");
            overlap.extend(
                set.into_iter()
                    .map(|l| l.q)
                    .filter(|q| trained.contains(&fold(q))),
            );
        }
        assert!(overlap.is_empty(), "trained on: {overlap:?}");
    }

    #[test]
    fn a_toy_model_learns_its_examples() {
        let ex: Vec<(Vec<Feature>, bool)> = [
            ("what is grace", true),
            ("what is a sacrament", true),
            ("recipe for lasagna", false),
            ("recipe for cake", false),
        ]
        .iter()
        .map(|(q, l)| {
            let mut f = Vec::new();
            text_features(&Normalized::new(q), &mut f);
            (f.into_iter().map(|b| (b, 1.0)).collect(), *l)
        })
        .collect();
        let m = Model::train(&ex, HYPER);
        for (f, l) in &ex {
            assert_eq!(m.probability(f) >= 0.5, *l);
        }
    }

    #[test]
    fn features_are_bounded_and_deterministic() {
        let long = "grâce 恩典 ".repeat(2000);
        let a = question_features(&long, 1.0);
        assert_eq!(a, question_features(&long, 1.0));
        assert!(a.iter().all(|&(f, _)| (f as usize) < BUCKETS));
        assert!(a.len() < 50, "{}", a.len());
        assert!(question_features("", 1.0).len() <= 8);
        let p = MODEL.probability(&question_features("?!", HYPER.lexicon_weight));
        assert!((0.0..=1.0).contains(&p));
    }

    /// Accuracy of `hyper` by 5-fold cross-validation on the training set.
    fn cross_validated(set: &[Labelled], hyper: Hyper) -> f64 {
        let oof = out_of_fold(set, hyper);
        let right = oof.iter().filter(|(p, l)| (*p >= 0.5) == *l).count();
        right as f64 / oof.len() as f64
    }

    /// Out-of-fold probabilities of 5-fold cross-validation, with their labels.
    fn out_of_fold(set: &[Labelled], hyper: Hyper) -> Vec<(f32, bool)> {
        let examples: Vec<(Vec<Feature>, bool)> = set
            .iter()
            .map(|l| (question_features(&l.q, hyper.lexicon_weight), l.on_topic))
            .collect();
        let mut out = Vec::with_capacity(examples.len());
        for fold in 0..5 {
            let train: Vec<_> = (0..examples.len())
                .filter(|i| i % 5 != fold)
                .map(|i| examples[i].clone())
                .collect();
            let m = Model::train(&train, hyper);
            out.extend(
                (0..examples.len())
                    .filter(|i| i % 5 == fold)
                    .map(|i| (m.probability(&examples[i].0), examples[i].1)),
            );
        }
        out
    }

    /// How the threshold trades answered against refused questions, out of fold
    /// (run with `--ignored --nocapture`, release).
    #[test]
    #[ignore]
    fn thresholds() {
        let oof = out_of_fold(&training_set(), HYPER);
        let on = oof.iter().filter(|(_, l)| *l).count() as f64;
        let off = oof.len() as f64 - on;
        for t in [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75] {
            let answered = oof.iter().filter(|(p, l)| *l && *p >= t).count() as f64;
            let refused = oof.iter().filter(|(p, l)| !*l && *p < t).count() as f64;
            eprintln!(
                "threshold {t}: on-topic answered {:.3}, off-topic refused {:.3}",
                answered / on,
                refused / off
            );
        }
    }

    /// How the settings were chosen (run with `--ignored --nocapture`, release).
    #[test]
    #[ignore]
    fn cross_validation() {
        let set = training_set();
        for epochs in [20, 40] {
            for rate in [0.1, 0.3, 1.0] {
                for lexicon_weight in [0.5, 1.0, 2.0, 3.0] {
                    let h = Hyper {
                        epochs,
                        rate,
                        l2: 1e-5,
                        lexicon_weight,
                    };
                    eprintln!("{h:?}: accuracy {:.4}", cross_validated(&set, h));
                }
            }
        }
    }
}
