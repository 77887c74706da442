//! Is a question about the Catholic faith, religion or morals? A learned,
//! inspectable classifier that works in the ten languages served (English, Czech,
//! Chinese, Bengali, Konkani, Latin, Italian, Spanish, Portuguese, French):
//!
//! - [`faith`]: a curated multilingual lexicon of Catholic and theological concepts;
//! - [`glossary`]: the corpus's multilingual glossary of theological terms
//!   (the one query translation uses), in the nine languages other than English;
//! - [`popes`]: a pope named with his number ("Pius X", "Benedict XV");
//! - [`requests`]: a lexicon of the kinds of request not served (recipes, code,
//!   sport, weather, shopping, travel, devices, fitness, entertainment, trivia);
//! - [`learned`]: a logistic regression over the question's words, word pairs,
//!   character trigrams and first words, and over what the word lists found,
//!   trained at first use on the 5,756 labelled questions of the
//!   `data/topic_train*.json` files;
//! - [`semantic`]: a second voice, a logistic regression over the question's
//!   multilingual sentence embedding (multilingual-e5-small), used when the
//!   model is installed (`scripts/fetch-e5.sh`);
//! - [`classify_with`]: the word lists' scores and the models' probability (the
//!   mean of both voices, or the word model's alone); a question
//!   that cites a Bible verse is on topic (unless it is clearly another kind of
//!   request, such as code: off-topic score ≥ [`CLEAR_REQUEST`]), any other
//!   when the probability is at least [`THRESHOLD`]. The word lists'
//!   own rule (a faith score of at least [`MIN_FAITH`] beating the off-topic
//!   score by [`MARGIN`], or by [`MARGIN_CLEAR_REQUEST`] against a clear request)
//!   is kept as [`TopicScore::lexicon_on_topic`], to compare.
//!
//! Measured on the labelled sets `tests/fixtures/topic_*.json` (see
//! `tests/it/topic.rs`; none of them is in the training set). On the tenth
//! held-out set (291 questions in the ten languages, written by someone who had
//! read nothing in the repository) the two voices together miss 9: 4 of 147
//! off-topic questions answered, 5 of 144 on-topic ones refused; the word
//! model alone misses 18 (7 and 11).
//! Off-topic questions get a short, polite refusal ([`REFUSAL`], configurable).

pub mod faith;
pub mod glossary;
pub mod learned;
pub mod normalize;
pub mod popes;
pub mod requests;
pub mod semantic;

use crate::refs::verse_refs;
use faith::{Concept, FAITH};
use normalize::Normalized;
use requests::{PRACTICAL_FRAMES, REQUESTS};

/// Least faith score for a question to be on topic (one strong term).
pub const MIN_FAITH: u32 = 2;
/// How much the faith score must exceed the off-topic score.
pub const MARGIN: u32 = 1;
/// Off-topic score from which a question is clearly a request not served.
pub const CLEAR_REQUEST: u32 = 3;
/// The margin needed against such a request.
pub const MARGIN_CLEAR_REQUEST: u32 = 2;
/// What a pope named with his number counts (enough on its own).
const POPE: u32 = 2;
/// What a practical frame adds to a request ([`requests::PRACTICAL_FRAMES`]).
const PRACTICAL_FRAME: u32 = 1;
/// Most a single concept contributes.
const CONCEPT_CAP: u32 = 3;

/// The scores behind a decision.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicScore {
    /// Sum over the faith concepts named.
    pub faith: u32,
    /// Sum over the off-topic request types named.
    pub off_topic: u32,
    /// The question cites a Bible verse.
    pub bible_reference: bool,
    /// Names of the concepts that matched (faith first, then requests), for logs.
    pub matched: Vec<&'static str>,
    /// The word model's probability that the question is on topic
    /// (`topic::learned`: trained on the `data/topic_train*.json` files).
    pub probability: f32,
    /// The embedding voice's probability ([`semantic`]), when it is configured
    /// and answered.
    pub semantic: Option<f32>,
}

/// The probability from which a question is on topic (chosen on `topic_dev.json`).
pub const THRESHOLD: f32 = 0.5;

impl TopicScore {
    /// The decision: a question that cites a Bible verse is on topic unless it is
    /// clearly a request of another kind (code that parses references); otherwise
    /// the learned model's probability against `THRESHOLD` (0.5).
    pub fn on_topic(&self) -> bool {
        if self.bible_reference && self.off_topic < CLEAR_REQUEST {
            return true;
        }
        self.combined() >= THRESHOLD
    }

    /// The probability decided on: the mean of the two voices, or the word
    /// model's alone.
    pub fn combined(&self) -> f32 {
        match self.semantic {
            Some(p) => (self.probability + p) / 2.0,
            None => self.probability,
        }
    }

    /// What the word lists found, as the learned model's input.
    pub fn signals(&self) -> learned::LexiconSignals<'_> {
        learned::LexiconSignals {
            faith: self.faith,
            off_topic: self.off_topic,
            bible_reference: self.bible_reference,
            matched: &self.matched,
        }
    }

    /// The word lists' own decision (the rule before the learned model, kept to
    /// compare the two): see the module docs.
    pub fn lexicon_on_topic(&self) -> bool {
        if self.bible_reference {
            return true;
        }
        let margin = if self.off_topic >= CLEAR_REQUEST {
            MARGIN_CLEAR_REQUEST
        } else {
            MARGIN
        };
        self.faith >= MIN_FAITH && self.faith >= self.off_topic + margin
    }
}

/// Sum of the concept scores of `lexicon` in `q`, and the names of those matched.
fn score(q: &Normalized, lexicon: &[Concept], matched: &mut Vec<&'static str>) -> u32 {
    let mut total = 0;
    for c in lexicon {
        let s: u32 = c
            .terms
            .iter()
            .filter(|(t, _)| q.has(t))
            .map(|(_, w)| u32::from(*w))
            .sum();
        if s > 0 {
            matched.push(c.name);
            total += s.min(CONCEPT_CAP);
        }
    }
    total
}

/// Score a question: the word lists, then the learned model.
pub fn classify(question: &str) -> TopicScore {
    classify_with(question, None)
}

/// [`classify`] with the embedding voice when one is given.
pub fn classify_with(question: &str, vote: Option<&semantic::SemanticVote>) -> TopicScore {
    let q = Normalized::new(question);
    let mut score = lexicon_score(&q, question);
    let features = learned::features(&q, &score.signals(), learned::HYPER.lexicon_weight);
    score.probability = learned::MODEL.probability(&features);
    score.semantic = vote.and_then(|v| v.probability(question));
    score
}

/// The word lists' scores of a question (`probability` left at 0).
fn lexicon_score(q: &Normalized, question: &str) -> TopicScore {
    let mut matched = Vec::new();
    let (glossary, names) = glossary::score(q);
    let mut faith = score(q, FAITH, &mut matched) + glossary;
    matched.extend(names);
    if popes::names_a_pope(q) {
        faith += POPE;
        matched.push("a pope by name and number");
    }
    let mut off_topic = score(q, REQUESTS, &mut matched);
    if off_topic > 0 && PRACTICAL_FRAMES.iter().any(|f| q.has(f)) {
        off_topic += PRACTICAL_FRAME;
        matched.push("a request for practical help");
    }
    TopicScore {
        faith,
        off_topic,
        bible_reference: !verse_refs(question).is_empty(),
        matched,
        probability: 0.0,
        semantic: None,
    }
}

/// Train the learned model now, if it is not trained yet.
pub fn warm() {
    std::sync::LazyLock::force(&learned::MODEL);
}

/// True when `question` is about faith, religion or morals (see [`classify`]).
pub fn is_on_topic(question: &str) -> bool {
    classify(question).on_topic()
}

/// The default refusal for an off-topic question.
pub const REFUSAL: &str =
    "I can only answer questions about the Catholic faith, religion and morals, \
from the Church's documents, Scripture, the Fathers and the catechism. \
Please ask a question on one of those subjects.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_and_off_topic() {
        for q in [
            "What does the Church teach about the Eucharist?",
            "Is it wrong to lie to protect someone?",
            "Who was St. Augustine?",
            "What does John 6:51 mean?",
            "Why do Catholics pray the rosary?",
            "What is the just wage according to Leo XIII?",
            "Can a divorced person receive communion?",
            "Who was St. Ephrem the Syrian?",
            "Co učí církev o milosti?",
            "教会关于恩典的教导是什么？",
            "Che cosa insegna la Chiesa sulla grazia?",
            "Is it ever OK to steal bread when starving?",
            "How do I pray the rosary?",
        ] {
            assert!(is_on_topic(q), "{q}: {:?}", classify(q));
        }
        for q in [
            "What is the best recipe for lasagna?",
            "What is a good recipe for lasagna?",
            "How do I bake sourdough bread for Easter?",
            "How do I change the oil in my car?",
            "Who won the football world cup in 2018?",
            "Write a Python function that sorts a list",
            "What is the capital of Australia?",
            "How do I bake a cake for my daughter's First Communion?",
        ] {
            assert!(!is_on_topic(q), "{q}: {:?}", classify(q));
        }
    }

    #[test]
    fn lexicon_terms_are_folded_and_unique() {
        for lexicon in [FAITH, REQUESTS] {
            let mut seen = std::collections::HashSet::new();
            for c in lexicon {
                for (t, w) in c.terms {
                    let bare = t.trim_end_matches('*');
                    assert_eq!(normalize::fold(bare), bare, "not folded: {t}");
                    assert!((1..=3).contains(w), "{t}");
                    assert!(seen.insert(*t), "twice: {t}");
                }
            }
        }
    }
}
