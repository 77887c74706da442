//! Train the on-topic classifier's embedding voice and write
//! `data/topic_e5.json`: embeds the questions of the `data/topic_train*.json`
//! files with multilingual-e5-small (`scripts/fetch-e5.sh`), chooses the L2
//! penalty by 5-fold cross-validation and trains on them all.
//!
//! `cargo run --release -p ecclesia-qa --example topic_e5_train [-- MODEL_DIR]`
//! (about two minutes on 2 cores: most of it embedding 4,667 questions).

use ecclesia_e5::{E5, MODEL_NAME, MODEL_SHA256};
use ecclesia_qa::topic::learned::{training_fingerprint, training_questions};
use ecclesia_qa::topic::semantic::{probability, train, Weights};
use std::error::Error;
use std::path::PathBuf;

/// The penalties tried (scikit-learn's `C`).
const GRID: [f32; 4] = [1.0, 4.0, 16.0, 64.0];
const FOLDS: usize = 5;

fn main() -> Result<(), Box<dyn Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => E5::find(None, &[root])
            .ok_or("models/multilingual-e5-small missing: run scripts/fetch-e5.sh")?,
    };
    let model = E5::load(&dir, None)?;
    let labelled = training_questions();
    let started = std::time::Instant::now();
    let mut xs = Vec::with_capacity(labelled.len());
    for (i, (q, _)) in labelled.iter().enumerate() {
        xs.push(model.query(q)?);
        if i % 500 == 499 {
            eprintln!(
                "embedded {} of {} ({:.0} s)",
                i + 1,
                labelled.len(),
                started.elapsed().as_secs_f32()
            );
        }
    }
    let ys: Vec<bool> = labelled.iter().map(|(_, y)| *y).collect();
    let mut best = (GRID[0], -1.0f32);
    for c in GRID {
        let mut right = 0usize;
        for fold in 0..FOLDS {
            let (mut tx, mut ty) = (Vec::new(), Vec::new());
            for (i, (x, y)) in xs.iter().zip(&ys).enumerate() {
                if i % FOLDS != fold {
                    tx.push(x.clone());
                    ty.push(*y);
                }
            }
            let (w, b) = train(&tx, &ty, c);
            right += xs
                .iter()
                .zip(&ys)
                .enumerate()
                .filter(|(i, (x, y))| i % FOLDS == fold && (probability(&w, b, x) >= 0.5) == **y)
                .count();
        }
        let acc = right as f32 / xs.len() as f32;
        eprintln!("C {c}: out-of-fold accuracy {acc:.3}");
        if acc > best.1 {
            best = (c, acc);
        }
    }
    let (weights, bias) = train(&xs, &ys, best.0);
    let out = Weights {
        model: MODEL_NAME.to_string(),
        model_sha256: MODEL_SHA256.to_string(),
        training_fingerprint: training_fingerprint(),
        examples: xs.len(),
        c: best.0,
        cv_accuracy: best.1,
        bias,
        weights,
    };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/topic_e5.json");
    std::fs::write(&path, serde_json::to_string(&out)? + "\n")?;
    eprintln!(
        "wrote {} (C {}, out-of-fold accuracy {:.3}, {:.0} s)",
        path.display(),
        best.0,
        best.1,
        started.elapsed().as_secs_f32()
    );
    Ok(())
}
