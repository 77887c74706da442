//! The classifier's second voice: a logistic regression over a multilingual
//! sentence embedding of the question (multilingual-e5-small through
//! `ecclesia-e5`, wired by the skills crate). Its weights are trained once by
//! `examples/topic_e5_train.rs` on the same training files as the word model
//! ([`super::learned`]) and kept in `data/topic_e5.json` with the model's
//! checksum and the training files' fingerprint; a test fails when the files
//! change and the weights were not trained again.
//!
//! The word model sees words and trigrams; this one sees meaning across
//! languages ("Who wrote Os Lusíadas?" is literature whatever its words), so
//! the two err on different questions. [`super::TopicScore`] averages their
//! probabilities when this voice is configured.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Encodes a question into the embedding the weights were trained on
/// (`Err` carries a message for the log).
pub type Encoder = Box<dyn Fn(&str) -> Result<Vec<f32>, String> + Send + Sync>;

/// The weights file as written by the training example.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Weights {
    /// What the vectors come from (name; the model file's sha256 follows).
    pub model: String,
    /// sha256 of the model file the vectors were computed with.
    pub model_sha256: String,
    /// [`super::learned::training_fingerprint`] of the files trained on.
    pub training_fingerprint: String,
    /// Training questions.
    pub examples: usize,
    /// The inverse L2 penalty (as scikit-learn's `C`), chosen by 5-fold
    /// cross-validation on the training files.
    pub c: f32,
    /// Out-of-fold accuracy at that `C`.
    pub cv_accuracy: f32,
    /// The intercept.
    pub bias: f32,
    /// One weight a dimension.
    pub weights: Vec<f32>,
}

/// The bundled weights (`data/topic_e5.json`).
pub const BUNDLED: &str = include_str!("../../data/topic_e5.json");

/// Why a vote cannot be built.
#[derive(Debug, Clone, PartialEq)]
pub enum VoteError {
    /// The weights file does not parse.
    Weights(String),
    /// The weights were trained on another model's vectors.
    OtherModel {
        /// The model the weights name.
        trained: String,
        /// The model offered.
        offered: String,
    },
}

impl fmt::Display for VoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VoteError::Weights(e) => write!(f, "data/topic_e5.json does not parse: {e}"),
            VoteError::OtherModel { trained, offered } => write!(
                f,
                "the on-topic weights were trained on model {trained}, not {offered}"
            ),
        }
    }
}

/// The embedding voice: an encoder and the weights trained on its vectors.
pub struct SemanticVote {
    encode: Encoder,
    weights: Weights,
}

impl fmt::Debug for SemanticVote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SemanticVote")
            .field("model", &self.weights.model)
            .field("c", &self.weights.c)
            .finish()
    }
}

impl SemanticVote {
    /// The bundled weights over `encode`, whose model file has sha256 `model_sha256`.
    pub fn bundled(model_sha256: &str, encode: Encoder) -> Result<SemanticVote, VoteError> {
        let weights: Weights =
            serde_json::from_str(BUNDLED).map_err(|e| VoteError::Weights(e.to_string()))?;
        SemanticVote::new(weights, model_sha256, encode)
    }

    /// `weights` over `encode` (checked against `model_sha256`).
    pub fn new(
        weights: Weights,
        model_sha256: &str,
        encode: Encoder,
    ) -> Result<SemanticVote, VoteError> {
        if weights.model_sha256 != model_sha256 {
            return Err(VoteError::OtherModel {
                trained: weights.model_sha256,
                offered: model_sha256.to_string(),
            });
        }
        Ok(SemanticVote { encode, weights })
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The probability that `question` is on topic, or `None` (logged) when the
    /// encoder fails or gives a vector of another length.
    pub fn probability(&self, question: &str) -> Option<f32> {
        match (self.encode)(question) {
            Ok(v) if v.len() == self.weights.weights.len() => {
                Some(probability(&self.weights.weights, self.weights.bias, &v))
            }
            Ok(v) => {
                tracing::warn!(
                    got = v.len(),
                    want = self.weights.weights.len(),
                    "question vector of the wrong length; the word model decides alone"
                );
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "question not encoded; the word model decides alone");
                None
            }
        }
    }
}

/// σ(w·x + b).
pub fn probability(w: &[f32], b: f32, x: &[f32]) -> f32 {
    let z: f32 = w.iter().zip(x).map(|(a, b)| a * b).sum::<f32>() + b;
    1.0 / (1.0 + (-z).exp())
}

/// L2-penalised logistic regression by Newton's method (the objective of
/// scikit-learn's `LogisticRegression(C=c)`: the sum of log losses plus
/// ‖w‖² / 2c, intercept not penalised). Returns `(weights, bias)`.
pub fn train(xs: &[Vec<f32>], ys: &[bool], c: f32) -> (Vec<f32>, f32) {
    let d = xs.first().map_or(0, Vec::len);
    let n = d + 1; // the last parameter is the intercept
    let mut theta = vec![0f64; n];
    for _ in 0..25 {
        let mut grad = vec![0f64; n];
        let mut hess = vec![0f64; n * n];
        for (x, y) in xs.iter().zip(ys) {
            let xv: Vec<f64> = x.iter().map(|v| f64::from(*v)).chain([1.0]).collect();
            let z: f64 = xv.iter().zip(&theta).map(|(a, t)| a * t).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let r = p - if *y { 1.0 } else { 0.0 };
            let s = (p * (1.0 - p)).max(1e-12);
            for i in 0..n {
                grad[i] += r * xv[i];
                let si = s * xv[i];
                for j in 0..=i {
                    hess[i * n + j] += si * xv[j];
                }
            }
        }
        let lambda = 1.0 / f64::from(c.max(1e-6));
        for i in 0..n {
            for j in 0..i {
                hess[j * n + i] = hess[i * n + j];
            }
            if i < d {
                grad[i] += lambda * theta[i];
                hess[i * n + i] += lambda;
            }
            hess[i * n + i] += 1e-9;
        }
        let Some(step) = solve_spd(&mut hess, &grad, n) else {
            break;
        };
        let mut largest = 0f64;
        for (t, s) in theta.iter_mut().zip(&step) {
            *t -= s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-7 {
            break;
        }
    }
    let bias = theta.pop().unwrap_or(0.0) as f32;
    (theta.into_iter().map(|t| t as f32).collect(), bias)
}

/// Solve `a x = b` for a symmetric positive definite `a` (n × n, row-major,
/// overwritten by its Cholesky factor); `None` if it is not positive definite.
fn solve_spd(a: &mut [f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut s = a[j * n + j];
        for k in 0..j {
            s -= a[j * n + k] * a[j * n + k];
        }
        if s <= 0.0 {
            return None;
        }
        let l = s.sqrt();
        a[j * n + j] = l;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / l;
        }
    }
    let mut y = vec![0f64; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * y[k];
        }
        y[i] = s / a[i * n + i];
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k * n + i] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_separable_toy_set_is_learned() {
        let xs: Vec<Vec<f32>> = (0..40)
            .map(|i| {
                let on = i % 2 == 0;
                vec![if on { 1.0 } else { -1.0 }, (i as f32 * 0.37).sin() * 0.3]
            })
            .collect();
        let ys: Vec<bool> = (0..40).map(|i| i % 2 == 0).collect();
        let (w, b) = train(&xs, &ys, 4.0);
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(probability(&w, b, x) >= 0.5, *y);
        }
        assert!(w[0] > 1.0 && w[1].abs() < w[0]);
    }

    #[test]
    fn the_penalty_shrinks_the_weights() {
        let xs: Vec<Vec<f32>> = (0..20).map(|i| vec![(i as f32 - 9.5) / 10.0]).collect();
        let ys: Vec<bool> = (0..20).map(|i| i >= 10).collect();
        let (loose, _) = train(&xs, &ys, 100.0);
        let (tight, _) = train(&xs, &ys, 0.01);
        assert!(loose[0] > tight[0] && tight[0] > 0.0);
    }

    #[test]
    fn the_bundled_weights_were_trained_on_the_current_training_files() {
        let w: Weights = serde_json::from_str(BUNDLED).expect("data/topic_e5.json parses");
        assert_eq!(
            w.training_fingerprint,
            super::super::learned::training_fingerprint(),
            "the training files changed: run `cargo run --release -p ecclesia-qa --example \
             topic_e5_train` (needs scripts/fetch-e5.sh) and commit data/topic_e5.json"
        );
        assert_eq!(w.weights.len(), 384);
        assert_eq!(
            w.examples,
            super::super::learned::training_questions().len()
        );
        assert!(w.weights.iter().all(|x| x.is_finite()) && w.bias.is_finite());
    }

    #[test]
    fn weights_of_another_model_are_refused_and_encoder_failures_abstain() {
        let w = Weights {
            model: "m".into(),
            model_sha256: "aa".into(),
            training_fingerprint: String::new(),
            examples: 0,
            c: 1.0,
            cv_accuracy: 0.0,
            bias: 0.0,
            weights: vec![1.0, 0.0],
        };
        let other = SemanticVote::new(w.clone(), "bb", Box::new(|_| Ok(vec![1.0, 0.0])));
        assert!(matches!(other, Err(VoteError::OtherModel { .. })));
        let failing = SemanticVote::new(w.clone(), "aa", Box::new(|_| Err("down".into()))).unwrap();
        assert_eq!(failing.probability("q"), None);
        let short = SemanticVote::new(w.clone(), "aa", Box::new(|_| Ok(vec![1.0]))).unwrap();
        assert_eq!(short.probability("q"), None);
        let ok = SemanticVote::new(w, "aa", Box::new(|_| Ok(vec![2.0, 0.0]))).unwrap();
        assert!(ok.probability("q").unwrap() > 0.8);
    }
}
