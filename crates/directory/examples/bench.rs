//! Ingest the shared datasets, then measure look-up latency and field coverage.
//!
//! `cargo run --release -p ecclesia-directory --example bench [-- <data dir>]`

use ecclesia_core::{IngestContext, Ingester, NoProgress};
use ecclesia_directory::{Directory, DirectoryIngester, Kind, Lookup};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let data = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
        });
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = Instant::now();
    let ctx = IngestContext {
        data_dir: data,
        out_dir: tmp.path().to_path_buf(),
        progress: &NoProgress,
    };
    let report = DirectoryIngester::default().ingest(&ctx).expect("ingest");
    println!(
        "ingest: {:.2} s, {} warnings",
        t.elapsed().as_secs_f64(),
        report.warnings.len()
    );
    let size = std::fs::metadata(tmp.path().join("directory.sqlite"))
        .map(|m| m.len())
        .unwrap_or(0);
    println!("store: {:.1} MB", size as f64 / 1e6);
    let t = Instant::now();
    let d = Directory::open(tmp.path()).expect("open");
    println!("open + index: {} ms", t.elapsed().as_millis());
    println!("counts: {}", d.counts().expect("counts"));

    // coverage: share of records with each top-level field filled
    for kind in [Kind::Saint, Kind::Pope, Kind::Person, Kind::Diocese] {
        let ps = d.profiles(kind).expect("profiles");
        let mut keys: Vec<String> = ps
            .first()
            .and_then(|p| p.as_object())
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        let mut line = format!("{} ({}):", kind.as_str(), ps.len());
        for k in keys {
            let filled = ps
                .iter()
                .filter(|p| match &p[&k] {
                    serde_json::Value::Null => false,
                    serde_json::Value::Array(a) => !a.is_empty(),
                    serde_json::Value::String(s) => !s.is_empty(),
                    _ => true,
                })
                .count();
            line.push_str(&format!(
                " {k} {:.0}%,",
                100.0 * filled as f64 / ps.len().max(1) as f64
            ));
        }
        println!("{line}");
    }

    // latency over varied queries: every record's own name, perturbed
    let mut queries: Vec<(Kind, String, String, String)> = Vec::new();
    for kind in [Kind::Saint, Kind::Pope, Kind::Person, Kind::Diocese] {
        for (i, p) in d.profiles(kind).expect("profiles").iter().enumerate() {
            if i % 7 != 0 && kind != Kind::Pope {
                continue;
            }
            let name = p["primary_name"].as_str().unwrap_or("").to_string();
            let q = match i % 3 {
                0 => name.clone(),
                1 => name.to_lowercase(),
                _ => {
                    // a typo: swap two letters in the middle
                    let mut c: Vec<char> = name.chars().collect();
                    if c.len() > 5 {
                        c.swap(3, 4);
                    }
                    c.into_iter().collect()
                }
            };
            let id = p[match kind {
                Kind::Saint => "saint_id",
                Kind::Pope => "pope_id",
                Kind::Person => "person_id",
                Kind::Diocese => "source_code",
            }]
            .as_str()
            .unwrap_or("")
            .to_string();
            queries.push((kind, q, id, name));
        }
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut found = 0usize;
    for (k, q, _, _) in &queries {
        let t = Instant::now();
        let r = d.lookup(*k, Lookup::Query(q)).expect("lookup");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        if matches!(r, ecclesia_directory::Outcome::Found(_)) {
            found += 1;
        } else if std::env::var_os("BENCH_SHOW_MISSES").is_some() {
            println!(
                "not found: {} {q:?} → {:?}",
                k.as_str(),
                d.candidates(*k, q, 2)
            );
        }
    }
    // the confidence cut on these self-labelled queries: a top candidate is right
    // when it is the record the query was made from, or a namesake of the same name
    let tops: Vec<(bool, f32, bool)> = queries
        .iter()
        .filter_map(|(k, q, id, name)| {
            let top = d.candidates(*k, q, 1).into_iter().next()?;
            let same = top.0 == *id
                || d.index().by_id(*k, &top.0).is_some_and(|e| {
                    ecclesia_directory::fold::fold(&e.name) == ecclesia_directory::fold::fold(name)
                });
            Some((same, top.1.score, top.1.complete))
        })
        .collect();
    println!(
        "threshold  confident  right  precision  recall (of {})",
        queries.len()
    );
    for t in [0.6f32, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9] {
        let conf: Vec<&(bool, f32, bool)> = tops.iter().filter(|x| x.1 >= t || x.2).collect();
        let right = conf.iter().filter(|x| x.0).count();
        println!(
            "{t:9.2}  {:9}  {right:5}  {:9.3}  {:.3}",
            conf.len(),
            right as f64 / conf.len().max(1) as f64,
            right as f64 / queries.len().max(1) as f64
        );
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| times[((times.len() as f64 - 1.0) * p) as usize];
    println!(
        "lookups: {} queries, {} found, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        found,
        pct(0.5),
        pct(0.99),
        times.last().copied().unwrap_or(0.0)
    );
}
