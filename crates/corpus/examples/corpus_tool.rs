//! Development tool (run with `--release`):
//!
//! * `corpus_tool ingest <data_dir> <out_dir>` — full ingest with timings;
//! * `corpus_tool eval <store> <queries.tsv>` — recall@10 and MRR for lexical,
//!   dense and hybrid search over a query set (`query<TAB>expected doc id[,id…]`);
//! * `corpus_tool bench <store> <queries.tsv>` — search latency p50/p99 and RSS.

use ecclesia_core::{IngestContext, Ingester, NoProgress};
use ecclesia_corpus::{Corpus, CorpusIngester, Filters, SearchMode, SearchRequest};
use std::path::PathBuf;
use std::time::Instant;

fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|k| k.parse::<f64>().ok())
            })
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

fn queries(path: &str) -> Vec<(String, Vec<String>)> {
    std::fs::read_to_string(path)
        .expect("query file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (q, ids) = l.split_once('\t')?;
            Some((
                q.to_string(),
                ids.split(',').map(|s| s.trim().to_string()).collect(),
            ))
        })
        .collect()
}

/// With `SEMANTIC_MODEL=<dir>` and `SEMANTIC_CACHE=<file>`: attach the
/// transformer vectors cached so far (nothing is computed).
fn attach_semantic(c: &mut Corpus) {
    let (Ok(model), Ok(cache)) = (
        std::env::var("SEMANTIC_MODEL"),
        std::env::var("SEMANTIC_CACHE"),
    ) else {
        return;
    };
    let m = ecclesia_corpus::TransformerEmbedder::load(
        std::path::Path::new(&model),
        Default::default(),
    )
    .expect("model");
    let ix = ecclesia_corpus::SemanticIndex::new(std::sync::Arc::new(m), c.passage_count());
    c.attach_semantic(ix.clone());
    let t = Instant::now();
    let opts = ecclesia_corpus::WorkerOptions {
        cache: Some(cache.into()),
        compute: false,
        ..Default::default()
    };
    ecclesia_corpus::semantic::run_worker(
        &std::sync::Arc::downgrade(&ix),
        &c.database_path(),
        &opts,
    )
    .expect("cache");
    println!(
        "semantic: {:?} (loaded in {:.1} s, RSS {:.0} MB)",
        ix.status(),
        t.elapsed().as_secs_f64(),
        rss_mb()
    );
}

/// With `SEMANTIC_FILL=1`: give every row without a transformer vector a
/// pseudo-random one, to measure latency at full coverage.
fn fill_semantic(c: &Corpus) {
    let (Some(ix), Ok(_)) = (c.semantic(), std::env::var("SEMANTIC_FILL")) else {
        return;
    };
    let dim = ix.dim();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let missing: Vec<u64> = ix.with_rows(|_, scales| {
        (0..scales.len() as u64)
            .filter(|&i| scales[i as usize] == 0.0)
            .collect()
    });
    for chunk in missing.chunks(4096) {
        let items: Vec<(u64, Vec<i8>, f32)> = chunk
            .iter()
            .map(|&ord| {
                let v: Vec<i8> = (0..dim)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed % 255) as u8 as i8
                    })
                    .collect();
                (ord, v, 0.0005)
            })
            .collect();
        ix.insert(&items);
    }
    println!(
        "semantic: filled {} rows with random vectors, RSS {:.0} MB",
        missing.len(),
        rss_mb()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("ingest") => {
            let ctx = IngestContext {
                data_dir: PathBuf::from(&args[2]),
                out_dir: PathBuf::from(&args[3]),
                progress: &NoProgress,
            };
            let t = Instant::now();
            let report = CorpusIngester::default().ingest(&ctx).expect("ingest");
            println!("ingest: {:.1}s, {} warnings, peak-ish RSS {:.0} MB", t.elapsed().as_secs_f64(), report.warnings.len(), rss_mb());
            for w in report.warnings.iter().take(10) {
                println!("  warning: {w}");
            }
            for s in &report.sources {
                println!("  {}: {} records", s.dataset, s.records);
            }
            println!("{}", std::fs::read_to_string(ctx.out("ingest.json")).unwrap_or_default());
        }
        Some("eval") => {
            let mut c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            attach_semantic(&mut c);
            // TUNE="title,author,lexw,densew,second[,semanticw]" for experiments.
            let mut base = c.tuning();
            if let Ok(t) = std::env::var("TUNE") {
                let v: Vec<f32> = t.split(',').filter_map(|x| x.parse().ok()).collect();
                if v.len() >= 5 {
                    base = ecclesia_corpus::SearchTuning {
                        title_boost: v[0],
                        author_boost: v[1],
                        lexical_weight: v[2],
                        dense_weight: v[3],
                        second_passage: v[4],
                        semantic_weight: v.get(5).copied().unwrap_or(base.semantic_weight),
                    };
                }
            }
            println!("tuning: {base:?}");
            let filters = Filters {
                magisterial_only: std::env::var("MAGISTERIAL").is_ok(),
                ..Default::default()
            };
            let qs = queries(&args[3]);
            let with = |f: &dyn Fn(&mut ecclesia_corpus::SearchTuning)| {
                let mut t = base;
                f(&mut t);
                t
            };
            // (name, mode, tuning, with the transformer vectors)
            let configs: Vec<(&str, SearchMode, ecclesia_corpus::SearchTuning, bool)> = vec![
                ("lexical", SearchMode::Lexical, base, false),
                ("dense static", SearchMode::Dense, base, false),
                ("dense transformer", SearchMode::Dense, with(&|t| t.dense_weight = 0.0), true),
                ("hybrid lexical+static", SearchMode::Hybrid, base, false),
                ("hybrid all", SearchMode::Hybrid, base, true),
            ];
            let semantic = c.semantic().cloned();
            for (name, mode, tuning, with_semantic) in configs {
                if with_semantic && semantic.is_none() {
                    continue;
                }
                c.detach_semantic();
                if let (true, Some(ix)) = (with_semantic, &semantic) {
                    c.attach_semantic(ix.clone());
                }
                c.set_tuning(tuning);
                let (mut hit10, mut mrr) = (0.0, 0.0);
                let mut misses = Vec::new();
                for (q, want) in &qs {
                    let mut r = SearchRequest::new(q.clone());
                    r.mode = mode;
                    r.limit = 10;
                    r.filters = filters.clone();
                    let page = c.search(&r).expect("search");
                    let rank = page.hits.iter().position(|h| want.iter().any(|w| h.doc.id == *w || h.doc.id.starts_with(&format!("{w}~"))));
                    if let Some(k) = rank {
                        hit10 += 1.0;
                        mrr += 1.0 / (k as f64 + 1.0);
                    } else {
                        misses.push(q.clone());
                    }
                }
                let n = qs.len() as f64;
                println!("{name}: n={} recall@10={:.3} MRR={:.3}", qs.len(), hit10 / n, mrr / n);
                if std::env::var("SHOW_MISSES").is_ok() {
                    for m in misses {
                        println!("   miss: {m}");
                    }
                }
            }
        }
        Some("transformerbench") => {
            // `transformerbench <store> <model dir> <n> [threads]`: embed n English encyclical
            // passages (heading + text), batch 32, and report the rate.
            let dir = PathBuf::from(&args[2]);
            let m = ecclesia_corpus::TransformerEmbedder::load(std::path::Path::new(&args[3]), Default::default()).expect("model");
            let n: usize = args[4].parse().expect("n");
            let threads: usize = args.get(5).and_then(|t| t.parse().ok()).unwrap_or(2);
            let conn = rusqlite::Connection::open(dir.join("corpus.sqlite")).expect("db");
            let mut st = conn
                .prepare("SELECT p.heading, p.text FROM passages p JOIN documents d ON d.idx = p.doc_idx WHERE d.type = 'encyclical' AND d.language = 'en' ORDER BY p.ord LIMIT ?1")
                .expect("sql");
            let texts: Vec<String> = st
                .query_map([n as i64], |r| Ok(ecclesia_corpus::semantic::passage_text(r.get::<_, Option<String>>(0)?.as_deref(), &r.get::<_, String>(1)?)))
                .expect("query")
                .map(|r| r.expect("row"))
                .collect();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            let chars: usize = texts.iter().map(String::len).sum();
            let t = Instant::now();
            for chunk in texts.chunks(32) {
                let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
                pool.install(|| ecclesia_corpus::semantic::PassageEmbedder::embed(&m, &refs)).expect("embed");
            }
            let s = t.elapsed().as_secs_f64();
            println!("{} passages ({} chars) in {s:.1} s on {threads} thread(s): {:.1} passages/s, RSS {:.0} MB", texts.len(), chars, texts.len() as f64 / s, rss_mb());
        }
        Some("bench") => {
            let t = Instant::now();
            let mut c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            attach_semantic(&mut c);
            fill_semantic(&c);
            println!("open: {:.2}s, RSS {:.0} MB, {:?}", t.elapsed().as_secs_f64(), rss_mb(), c.stats());
            let qs = queries(&args[3]);
            for mode in [SearchMode::Lexical, SearchMode::Dense, SearchMode::Hybrid] {
                let mut times = Vec::new();
                let mut sem_times = Vec::new();
                for _ in 0..3 {
                    for (q, _) in &qs {
                        let mut r = SearchRequest::new(q.clone());
                        r.mode = mode;
                        let t = Instant::now();
                        let _ = c.search(&r).expect("search");
                        times.push(t.elapsed().as_secs_f64() * 1000.0);
                        if mode == SearchMode::Dense && c.semantic().is_some() {
                            let t = Instant::now();
                            let _ = c.semantic_passages(q, 100, &Filters::default());
                            sem_times.push(t.elapsed().as_secs_f64() * 1000.0);
                        }
                    }
                }
                times.sort_by(|a, b| a.total_cmp(b));
                let p = |x: f64| times[((times.len() as f64 - 1.0) * x) as usize];
                println!("{mode:?}: p50 {:.1} ms, p99 {:.1} ms over {} searches", p(0.5), p(0.99), times.len());
                if !sem_times.is_empty() {
                    sem_times.sort_by(|a, b| a.total_cmp(b));
                    let p = |x: f64| sem_times[((sem_times.len() as f64 - 1.0) * x) as usize];
                    println!("  transformer list alone (query embedding + scan): p50 {:.1} ms, p99 {:.1} ms", p(0.5), p(0.99));
                }
            }
            if let Some(ix) = c.semantic() {
                // Query embedding alone, without the memo.
                let mut times: Vec<f64> = qs
                    .iter()
                    .map(|(q, _)| {
                        let t = Instant::now();
                        ix.embedder().embed(&[q.as_str()]).expect("embed");
                        t.elapsed().as_secs_f64() * 1000.0
                    })
                    .collect();
                times.sort_by(|a, b| a.total_cmp(b));
                let p = |x: f64| times[((times.len() as f64 - 1.0) * x) as usize];
                println!("query embedding (MiniLM, cold): p50 {:.1} ms, p99 {:.1} ms", p(0.5), p(0.99));
            }
            println!("RSS after searches: {:.0} MB", rss_mb());
        }
        Some("embedbench") => {
            // Embedding throughput on the store's own passages (CPU seconds from /proc).
            let dir = PathBuf::from(&args[2]);
            let emb = ecclesia_corpus::StaticEmbedder::load(&dir.join("model")).expect("model");
            let conn = rusqlite::Connection::open(dir.join("corpus.sqlite")).expect("db");
            let mut st = conn.prepare("SELECT text FROM passages WHERE ord % 10 = 0 LIMIT 50000").expect("sql");
            let texts: Vec<String> = st.query_map([], |r| r.get(0)).expect("q").filter_map(Result::ok).collect();
            let chars: usize = texts.iter().map(|t| t.len()).sum();
            let cpu = || {
                let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
                let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
                let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
                (ticks(11) + ticks(12)) / 100.0
            };
            let (t, c0) = (Instant::now(), cpu());
            let mut tokens = 0usize;
            for t in &texts {
                tokens += emb.tokenize(t).len();
                let _ = emb.embed(t);
            }
            let (wall, c) = (t.elapsed().as_secs_f64(), cpu() - c0);
            println!("{} passages, {} chars, {} tokens: wall {wall:.2}s, cpu {c:.2}s (tokenize counted twice) => {:.0} passages/cpu-s", texts.len(), chars, tokens, texts.len() as f64 / c);
        }
        Some("query") => {
            let c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            for mode in [SearchMode::Lexical, SearchMode::Dense, SearchMode::Hybrid] {
                let mut r = SearchRequest::new(args[3].clone());
                r.mode = mode;
                println!("{mode:?}:");
                for h in c.search(&r).expect("search").hits {
                    println!("  {:.4} {} [{}] {}", h.score, h.doc.id, h.passage.reference, h.doc.title);
                }
            }
        }
        _ => eprintln!("usage: corpus_tool ingest <data> <out> | eval <store> <queries.tsv> | bench <store> <queries.tsv>"),
    }
}
