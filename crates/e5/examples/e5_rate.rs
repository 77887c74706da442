//! Embedding rate of the engine on this machine: `cargo run --release -p
//! ecclesia-e5 --example e5_rate -- <model dir> [texts file, one per line]`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("models/multilingual-e5-small");
    let e5 = ecclesia_e5::E5::load(std::path::Path::new(dir), None).expect("load the model");
    let texts: Vec<String> = match args.get(2) {
        Some(f) => std::fs::read_to_string(f)
            .expect("texts")
            .lines()
            .map(String::from)
            .collect(),
        None => (0..50)
            .map(|i| format!("La Chiesa insegna {i} ").repeat(40))
            .collect(),
    };
    let t = Instant::now();
    let q = e5
        .query("Che cosa insegna la Chiesa sulla grazia?")
        .expect("query");
    println!(
        "one query: {:.1} ms (dim {})",
        t.elapsed().as_secs_f64() * 1e3,
        q.len()
    );
    let t = Instant::now();
    for s in &texts {
        e5.passage(s).expect("passage");
    }
    let secs = t.elapsed().as_secs_f64();
    let chars: usize = texts.iter().map(|s| s.len()).sum();
    println!(
        "{} passages ({} bytes mean): {:.1} s, {:.1} passages/s",
        texts.len(),
        chars / texts.len().max(1),
        secs,
        texts.len() as f64 / secs
    );
}
