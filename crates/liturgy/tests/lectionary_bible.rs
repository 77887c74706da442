//! Every citation of the lectionary table parses, and every range resolves in both Bibles.
use ecclesia_liturgy::bible::Bibles;
use ecclesia_liturgy::lectionary::Lectionary;
use std::path::Path;
use std::sync::OnceLock;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

fn lect() -> &'static Lectionary {
    static L: OnceLock<Lectionary> = OnceLock::new();
    L.get_or_init(|| Lectionary::load(dir()).unwrap())
}

fn bibles() -> &'static Bibles {
    static B: OnceLock<Bibles> = OnceLock::new();
    B.get_or_init(|| Bibles::load(dir()).unwrap())
}

#[test]
fn every_citation_parses() {
    let l = lect();
    assert!(l.failures.is_empty(), "{:?}", l.failures);
    // 2,314 distinct citations in the table, and those of our supplement.
    assert!(l.citations().count() > 2314, "{}", l.citations().count());
    assert_eq!(l.row_count(), 4000);
}

#[test]
fn every_range_resolves_in_both_bibles() {
    let l = lect();
    let b = bibles();
    for t in b.translations() {
        let mut bad = Vec::new();
        for c in l.citations() {
            if let Err(missing) = b.render(t, c) {
                // The CPDV data ships Revelation empty: those passages fall back to the Douay-Rheims.
                if t.id == "cpdv" && missing.iter().all(|m| m.starts_with("Rev ")) {
                    continue;
                }
                bad.push(format!("{} [{}]: {:?}", c.source, c.display, missing));
            }
        }
        assert!(
            bad.is_empty(),
            "{}: {} unresolved:\n{}",
            t.id,
            bad.len(),
            bad.join("\n")
        );
    }
}
