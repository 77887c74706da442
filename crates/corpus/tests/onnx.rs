//! The ONNX Runtime embedder on the real int8 all-MiniLM-L6-v2 and the real
//! `libonnxruntime.so` (both from `scripts/fetch-ort.sh`): skipped with a
//! message when they are absent, required with `ECCLESIA_REQUIRE_ORT=1`.
#![cfg(feature = "ort")]

use ecclesia_corpus::semantic::PassageEmbedder;
use ecclesia_corpus::{OnnxConfig, OnnxEmbedder};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn config(max_seq: usize) -> Option<OnnxConfig> {
    let model_dir = std::env::var_os("ECCLESIA_ONNX_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("models/all-MiniLM-L6-v2-int8"));
    let library = std::env::var_os("ORT_DYLIB_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("models/onnxruntime/libonnxruntime.so.1.32.0"));
    if !model_dir.join("model.onnx").is_file() || !library.is_file() {
        assert!(
            std::env::var("ECCLESIA_REQUIRE_ORT").as_deref() != Ok("1"),
            "no ONNX model or runtime (run scripts/fetch-ort.sh)"
        );
        eprintln!("skipped: no ONNX model or runtime (run scripts/fetch-ort.sh)");
        return None;
    }
    Some(OnnxConfig {
        model_dir,
        library,
        threads: 2,
        max_seq,
    })
}

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn int8_minilm_embeds_normalised_vectors_and_ranks_paraphrases() {
    let Some(cfg) = config(256) else { return };
    let m = OnnxEmbedder::load(cfg).unwrap();
    assert_eq!(m.dim(), 384);
    assert!(
        m.model_id()
            .starts_with("all-MiniLM-L6-v2-int8@8199be6f699a"),
        "{}",
        m.model_id()
    );
    let passages = [
        "This is my body, which is given for you: do this in remembrance of me.",
        "Whose sins you shall forgive, they are forgiven them.",
        "What therefore God hath joined together, let no man put asunder.",
        "Blessed are the poor in spirit: for theirs is the kingdom of heaven.",
    ];
    let questions = [
        "do this in memory of me, my body given for you",
        "the apostles forgive sins",
        "no man may separate what God joined",
        "blessed are the poor",
    ];
    let pv = m.embed(&passages).unwrap();
    assert_eq!(pv.len(), 4);
    for v in &pv {
        assert!((cos(v, v) - 1.0).abs() < 1e-4);
    }
    for (i, q) in questions.iter().enumerate() {
        let qv = m.embed_query(q).unwrap();
        let best = (0..4)
            .max_by(|&a, &b| cos(&qv, &pv[a]).total_cmp(&cos(&qv, &pv[b])))
            .unwrap();
        assert_eq!(best, i, "{q}");
    }
    // A batch pads to its longest text; each vector is the one it has alone.
    let alone = m.embed(&passages[2..3]).unwrap();
    assert!(cos(&alone[0], &pv[2]) > 0.9999);
    assert!(m.embed(&[]).unwrap().is_empty());
    let long = "grace ".repeat(2000);
    assert_eq!(m.embed(&[long.as_str(), ""]).unwrap().len(), 2);
}

/// The int8 export agrees with the F32 safetensors run by candle (when that model is present).
#[cfg(feature = "transformer")]
#[test]
fn int8_vectors_agree_with_candle() {
    let Some(cfg) = config(256) else { return };
    let dir = root().join("models/all-MiniLM-L6-v2");
    if !dir.join("model.safetensors").is_file() {
        eprintln!("skipped: no candle model (run scripts/fetch-model.sh)");
        return;
    }
    let candle = ecclesia_corpus::TransformerEmbedder::load(&dir, Default::default()).unwrap();
    let m = OnnxEmbedder::load(cfg).unwrap();
    let texts = [
        "Grace is favor, the free and undeserved help that God gives us.",
        "The Lord is my shepherd; I shall not want.",
        "Q. 6. Why did God make you? A. God made me to know Him, to love Him, and to serve Him.",
    ];
    let a = candle.embed(&texts).unwrap();
    let b = m.embed(&texts).unwrap();
    for ((x, y), t) in a.iter().zip(&b).zip(&texts) {
        assert!(cos(x, y) > 0.99, "{t}: cosine {}", cos(x, y));
    }
}

#[test]
fn another_window_is_another_model_id_and_bad_settings_are_errors() {
    let Some(cfg) = config(128) else { return };
    let m = OnnxEmbedder::load(cfg.clone()).unwrap();
    assert!(m.model_id().ends_with("/w128"), "{}", m.model_id());
    let e = OnnxEmbedder::load(OnnxConfig {
        max_seq: 4,
        ..cfg.clone()
    })
    .unwrap_err();
    assert!(e.to_string().contains("max_tokens"), "{e}");
    let tmp = tempfile::tempdir().unwrap();
    let e = OnnxEmbedder::load(OnnxConfig {
        model_dir: tmp.path().to_path_buf(),
        ..cfg
    })
    .unwrap_err();
    assert!(e.to_string().contains("model.onnx"), "{e}");
}

#[test]
fn parallel_sub_batches_give_each_text_its_own_vector() {
    let Some(cfg) = config(256) else { return };
    let m = OnnxEmbedder::load(cfg).unwrap();
    // 20 texts of varied lengths: three sub-batches, taken by two threads.
    let texts: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "{} On grace and the sacraments, part {i}.",
                "Charity. ".repeat(i % 7)
            )
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let together = pool.install(|| m.embed(&refs)).unwrap();
    assert_eq!(together.len(), texts.len());
    for (t, v) in refs.iter().zip(&together) {
        let alone = m.embed(&[t]).unwrap().pop().unwrap();
        assert!(cos(&alone, v) > 0.999, "{t}: cosine {}", cos(&alone, v));
    }
}
