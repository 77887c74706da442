//! The first pass of a vector search, on synthetic rows the size of the full
//! corpus: Hamming distances of 1-bit sign codes to a query code, row by row
//! (`SignCodes::distance` and `Candidates`, the first version) and in one
//! pass over the code matrix (`SignCodes::distances` and `cut_off`, what the
//! search does). Prints the time per query and per row.
//!
//! ```text
//! cargo bench -p ecclesia-corpus --bench scan            # 415,260 rows of 384 dims
//! SCAN_ROWS=4152600 cargo bench -p ecclesia-corpus --bench scan   # 10× the corpus
//! ```
//!
//! A plain timing harness (no criterion: it would be the crate's only user of
//! a dozen new build dependencies); the times are medians of `SCAN_RUNS` runs
//! (default 15) on whatever else the machine is doing, so contended figures
//! say so.

use ecclesia_corpus::binary::{cut_off, Candidates, SignCodes, NO_ROW};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn report(label: &str, rows: usize, t: Duration) {
    println!(
        "{label:<44} {:>8.3} ms/query {:>6.2} ns/row",
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() * 1e9 / rows as f64
    );
}

fn main() {
    let rows = env("SCAN_ROWS", 415_260);
    let dim = env("SCAN_DIM", 384);
    let runs = env("SCAN_RUNS", 15);
    let want = 1000;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // Codes straight from random signs (the centre is zero): the pass reads
    // the same bytes whatever the vectors mean.
    let mut codes = SignCodes::new(rows, dim, Vec::new());
    let mut row = vec![0u8; dim];
    for i in 0..rows {
        for b in row.iter_mut() {
            *b = next() as u8;
        }
        codes.set_row(i, &row, 0.01);
    }
    let scales = vec![0.01f32; rows];
    let q: Vec<f32> = (0..dim).map(|_| (next() % 200) as f32 - 100.0).collect();
    let qc = codes.encode(&q);
    println!(
        "{rows} rows of {dim} dimensions ({} MiB of codes), {want} candidates",
        codes.bytes() >> 20
    );

    let old: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let mut c = Candidates::new(want, codes.words() * 64);
            for (i, &s) in scales.iter().enumerate() {
                if s != 0.0 {
                    c.push(i as u64, codes.distance(i, &qc));
                }
            }
            black_box(c.into_rows());
            t.elapsed()
        })
        .collect();
    report("row by row (distance + Candidates)", rows, median(old));

    let mut dist = vec![NO_ROW; rows];
    let new: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let mut histogram = vec![0u32; codes.words() * 64 + 1];
            codes.distances(&qc, 0, &scales, &mut dist, &mut histogram);
            let (cut, mut at_cut) = cut_off(&histogram, want);
            let mut out = Vec::with_capacity(want);
            for (i, &d) in dist.iter().enumerate() {
                let d = d as usize;
                if d < cut || (d == cut && at_cut > 0) {
                    if d == cut {
                        at_cut -= 1;
                    }
                    out.push(i as u64);
                }
            }
            black_box(out);
            t.elapsed()
        })
        .collect();
    report("one pass (distances + histogram + cut)", rows, median(new));
}
