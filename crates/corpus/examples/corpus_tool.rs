//! Development tool (run with `--release`):
//!
//! * `corpus_tool ingest <data_dir> <out_dir>` — full ingest with timings;
//! * `corpus_tool eval <store> <queries.tsv>` — recall@10 and MRR for lexical,
//!   dense and hybrid search over a query set (`query<TAB>expected doc id[,id…]`);
//! * `corpus_tool bench <store> <queries.tsv>` — search latency p50/p99 and RSS;
//! * `corpus_tool lexbench <store> <queries.tsv>` — CPU time of the BM25 list alone.

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

/// CPU seconds of this thread (wall time is meaningless on 2 shared cores).
fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec we pass.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// CPU seconds of the whole process (user + system, every thread).
fn process_cpu() -> f64 {
    // SAFETY: getrusage writes the struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn queries(path: &str) -> Vec<(String, Vec<String>)> {
    std::fs::read_to_string(path)
        .expect("query file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            // `query<TAB>ids`, or `kind<TAB>query<TAB>ids` (the sets of `tests/quality.rs`).
            let fields: Vec<&str> = l.split('\t').collect();
            let (q, ids) = match fields.as_slice() {
                [_, q, ids, ..] => (*q, *ids),
                [q, ids] => (*q, *ids),
                _ => return None,
            };
            Some((
                q.to_string(),
                ids.split(',').map(|s| s.trim().to_string()).collect(),
            ))
        })
        .collect()
}

/// With `SEMANTIC_MODEL=<dir>` and `SEMANTIC_CACHE=<file>`: attach the
/// transformer vectors cached so far (nothing is computed). The model folder
/// is read as the server reads it (`model.onnx`: ONNX Runtime, else candle;
/// `MAX_TOKENS`, default 256), so its vectors are the ones cached under the
/// same model id. `IVF_LISTS=<n>` builds the inverted file with n lists.
fn attach_semantic(c: &mut Corpus) {
    let (Ok(model), Ok(cache)) = (
        std::env::var("SEMANTIC_MODEL"),
        std::env::var("SEMANTIC_CACHE"),
    ) else {
        return;
    };
    let window = std::env::var("MAX_TOKENS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let m = ecclesia_corpus::semantic::load_local_model(std::path::Path::new(&model), 1, window)
        .expect("model");
    println!("semantic model {}", m.model_id());
    let ix = ecclesia_corpus::SemanticIndex::new(m, c.passage_count());
    if let Some(n) = std::env::var("IVF_LISTS").ok().and_then(|v| v.parse().ok()) {
        ix.set_index_lists(n);
    }
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
    let missing: Vec<u64> = ix.with_rows(|_, scales, _| {
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
    let t = Instant::now();
    ix.build_index();
    println!(
        "semantic: filled {} rows with random vectors, RSS {:.0} MB; index {:?} in {:.1} s",
        missing.len(),
        rss_mb(),
        ix.index_info(),
        t.elapsed().as_secs_f64()
    );
}

/// `PROBE=<share>`: the share of the transformer rows a search scores
/// through the inverted file (0: the sign codes instead).
fn probe_share(c: &Corpus) {
    if let (Some(ix), Some(p)) = (
        c.semantic(),
        std::env::var("PROBE").ok().and_then(|v| v.parse().ok()),
    ) {
        ix.set_probe_share(p);
    }
}

/// `RESCORE=<factor>` (0: exact scans) for experiments.
fn rescore_tuning(mut t: ecclesia_corpus::SearchTuning) -> ecclesia_corpus::SearchTuning {
    if let Some(f) = std::env::var("RESCORE").ok().and_then(|v| v.parse().ok()) {
        t.rescore_factor = f;
    }
    t
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
            c.wait_for_static_index();
            attach_semantic(&mut c);
            probe_share(&c);
            // TUNE="title,author,lexw,densew,second[,semanticw]" for experiments.
            let mut base = rescore_tuning(c.tuning());
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
                        ..base
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
            // `transformerbench <store> <model dir> <n> [threads]`: embed n English passages
            // (heading + text; TYPE=encyclical by default, sampled across the type), batch 32,
            // and report the rate. A folder with model.onnx runs on ONNX Runtime
            // (ORT_DYLIB_PATH, MAX_TOKENS); otherwise candle.
            let dir = PathBuf::from(&args[2]);
            let mdir = std::path::Path::new(&args[3]);
            let threads_arg: usize = args.get(5).and_then(|t| t.parse().ok()).unwrap_or(2);
            let m: Box<dyn ecclesia_corpus::semantic::PassageEmbedder> = if mdir.join("model.onnx").is_file() {
                Box::new(ecclesia_corpus::OnnxEmbedder::load(ecclesia_corpus::OnnxConfig {
                    model_dir: mdir.to_path_buf(),
                    library: std::env::var("ORT_DYLIB_PATH").unwrap_or_else(|_| "models/onnxruntime/libonnxruntime.so.1.32.0".into()).into(),
                    threads: threads_arg,
                    max_seq: std::env::var("MAX_TOKENS").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
                }).expect("onnx model"))
            } else {
                Box::new(ecclesia_corpus::TransformerEmbedder::load(mdir, Default::default()).expect("model"))
            };
            println!("model {}", m.model_id());
            let n: usize = args[4].parse().expect("n");
            let threads = threads_arg;
            let conn = rusqlite::Connection::open(dir.join("corpus.sqlite")).expect("db");
            let mut st = conn
                .prepare("SELECT p.heading, p.text FROM passages p JOIN documents d ON d.idx = p.doc_idx WHERE d.type = ?2 AND d.language = 'en' AND d.metadata_only = 0 AND p.ord % 7 = 0 ORDER BY p.ord LIMIT ?1")
                .expect("sql");
            let ty = std::env::var("TYPE").unwrap_or_else(|_| "encyclical".into());
            let texts: Vec<String> = st
                .query_map(rusqlite::params![n as i64, ty], |r| Ok(ecclesia_corpus::semantic::passage_text(r.get::<_, Option<String>>(0)?.as_deref(), &r.get::<_, String>(1)?)))
                .expect("query")
                .map(|r| r.expect("row"))
                .collect();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            let chars: usize = texts.iter().map(String::len).sum();
            let (t, c0) = (Instant::now(), process_cpu());
            for chunk in texts.chunks(32) {
                let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
                pool.install(|| m.embed(&refs)).expect("embed");
            }
            let s = t.elapsed().as_secs_f64();
            let cpu = process_cpu() - c0;
            println!("{} {ty} passages ({} chars) in {s:.1} s on {threads} thread(s): {:.1} passages/s wall, {:.1} passages per CPU-second ({cpu:.1} CPU-s), RSS {:.0} MB", texts.len(), chars, texts.len() as f64 / s, texts.len() as f64 / cpu, rss_mb());
        }
        Some("bench") => {
            let t = Instant::now();
            let mut c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            c.wait_for_static_index();
            attach_semantic(&mut c);
            fill_semantic(&c);
            probe_share(&c);
            c.set_tuning(rescore_tuning(c.tuning()));
            println!("open: {:.2}s, RSS {:.0} MB, {:?}", t.elapsed().as_secs_f64(), rss_mb(), c.stats());
            let qs = queries(&args[3]);
            for mode in [SearchMode::Lexical, SearchMode::Dense, SearchMode::Hybrid] {
                let mut times = Vec::new();
                let mut cpu = 0.0;
                let mut sem_times = Vec::new();
                for _ in 0..3 {
                    for (q, _) in &qs {
                        let mut r = SearchRequest::new(q.clone());
                        r.mode = mode;
                        let t = Instant::now();
                        let c0 = thread_cpu();
                        let _ = c.search(&r).expect("search");
                        cpu += thread_cpu() - c0;
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
                println!("{mode:?}: p50 {:.1} ms, p99 {:.1} ms over {} searches, mean CPU {:.2} ms", p(0.5), p(0.99), times.len(), cpu * 1000.0 / times.len().max(1) as f64);
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
        Some("recall") => {
            // `recall <store> <queries.tsv>`: how much of the exact top-k of the
            // transformer list the first passes keep: the sign codes + rescoring
            // (`sign codes`), then the inverted file at each share of `PROBES`
            // (default 0.01,0.02,0.03,0.05). `STATIC=1`: the static list through its
            // inverted file at each share of `STATIC_PROBES` too.
            let mut c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            c.wait_for_static_index();
            attach_semantic(&mut c);
            if let Some(ix) = c.semantic() {
                println!("index: {:?}", ix.index_info());
            }
            let probes: Vec<f32> = std::env::var("PROBES")
                .unwrap_or_else(|_| "0.01,0.02,0.03,0.05".into())
                .split(',')
                .filter_map(|p| p.trim().parse().ok())
                .collect();
            let qs = queries(&args[3]);
            let approx = rescore_tuning(c.tuning());
            let exact = ecclesia_corpus::SearchTuning { rescore_factor: 0, ..approx };
            let filters = Filters {
                magisterial_only: std::env::var("MAGISTERIAL").is_ok(),
                ..Default::default()
            };
            type List = dyn Fn(&Corpus, &str, usize, &Filters) -> Vec<(u64, f32)>;
            let mut lists: Vec<(String, Box<List>)> = Vec::new();
            for share in std::iter::once(0.0).chain(probes) {
                let name = if share == 0.0 { "transformer, sign codes".to_string() } else { format!("transformer, index probing {share}") };
                lists.push((name, Box::new(move |c: &Corpus, q: &str, n: usize, f: &Filters| {
                    if let Some(ix) = c.semantic() {
                        ix.set_probe_share(share);
                    }
                    c.semantic_passages(q, n, f)
                })));
            }
            if std::env::var("STATIC").is_ok() {
                // `STATIC_PROBES`: shares of the static rows' inverted file.
                println!("static index (lists, rows, build s): {:?}", c.static_index_info());
                let shares = std::env::var("STATIC_PROBES").unwrap_or_else(|_| "0.05,0.1,0.2".into());
                for share in shares.split(',').filter_map(|p| p.trim().parse::<f32>().ok()) {
                    let probing = ecclesia_corpus::SearchTuning { static_probe_share: share, ..approx };
                    for k in [10usize, 100] {
                        let (mut kept, mut total, mut te, mut ta) = (0usize, 0usize, 0.0, 0.0);
                        for (q, _) in &qs {
                            c.set_tuning(exact);
                            let t = thread_cpu();
                            let e = c.dense_passages(q, k, &filters);
                            te += thread_cpu() - t;
                            c.set_tuning(probing);
                            let t = thread_cpu();
                            let a = c.dense_passages(q, k, &filters);
                            ta += thread_cpu() - t;
                            let a: std::collections::HashSet<u64> = a.iter().map(|h| h.0).collect();
                            kept += e.iter().filter(|h| a.contains(&h.0)).count();
                            total += e.len();
                        }
                        let n = qs.len() as f64;
                        println!(
                            "static, index probing {share} top-{k}: recall {:.4} ({kept}/{total}); mean CPU ms exact {:.2}, approximate {:.2}",
                            kept as f64 / total.max(1) as f64, te * 1000.0 / n, ta * 1000.0 / n
                        );
                    }
                }
            }
            for (name, list) in &lists {
                for k in [10usize, 100] {
                    let (mut kept, mut total, mut te, mut ta) = (0usize, 0usize, 0.0, 0.0);
                    for (q, _) in &qs {
                        c.set_tuning(exact);
                        let t = thread_cpu();
                        let e = list(&c, q, k, &filters);
                        te += thread_cpu() - t;
                        c.set_tuning(approx);
                        let t = thread_cpu();
                        let a = list(&c, q, k, &filters);
                        ta += thread_cpu() - t;
                        let a: std::collections::HashSet<u64> = a.iter().map(|h| h.0).collect();
                        kept += e.iter().filter(|h| a.contains(&h.0)).count();
                        total += e.len();
                    }
                    let n = qs.len() as f64;
                    println!(
                        "{name} top-{k}: recall {:.4} ({kept}/{total}); mean CPU ms exact {:.2}, approximate {:.2} (factor {})",
                        kept as f64 / total.max(1) as f64, te * 1000.0 / n, ta * 1000.0 / n, approx.rescore_factor
                    );
                }
            }
        }
        Some("fakecache") => {
            // `fakecache <store> <cache file> <model id> <dim>`: a cache with a pseudo-random
            // vector for every English passage, to measure serving at full coverage
            // (never point a real install at it: the vectors mean nothing).
            let dir = PathBuf::from(&args[2]);
            let dim: usize = args[5].parse().expect("dim");
            let mut cache = ecclesia_corpus::EmbeddingCache::open(std::path::Path::new(&args[3]), &args[4], dim).expect("cache");
            let conn = rusqlite::Connection::open(dir.join("corpus.sqlite")).expect("db");
            let mut st = conn
                .prepare("SELECT p.heading, p.text FROM passages p JOIN documents d ON d.idx = p.doc_idx WHERE d.language = 'en'")
                .expect("sql");
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut rows: Vec<([u8; 32], Vec<i8>, f32)> = Vec::new();
            let mut n = 0;
            let mut q = st.query([]).expect("query");
            while let Some(r) = q.next().expect("row") {
                let t = ecclesia_corpus::semantic::passage_text(r.get::<_, Option<String>>(0).expect("h").as_deref(), &r.get::<_, String>(1).expect("t"));
                let v: Vec<f32> = (0..dim)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed % 2001) as f32 / 1000.0 - 1.0
                    })
                    .collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                let (q8, s) = ecclesia_corpus::embed::quantize(&v.iter().map(|x| x / norm).collect::<Vec<_>>());
                rows.push((ecclesia_corpus::semantic::content_hash(&t), q8, s));
                if rows.len() == 8192 {
                    let items: Vec<([u8; 32], &[i8], f32)> = rows.iter().map(|(h, v, s)| (*h, v.as_slice(), *s)).collect();
                    cache.put_many(&items).expect("put");
                    n += rows.len();
                    rows.clear();
                }
            }
            let items: Vec<([u8; 32], &[i8], f32)> = rows.iter().map(|(h, v, s)| (*h, v.as_slice(), *s)).collect();
            cache.put_many(&items).expect("put");
            println!("{} fake vectors written", n + rows.len());
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
        Some("lexbench") => {
            // `lexbench <store> <queries.tsv>`: CPU time of the BM25 list alone
            // (100 passages, as a 10-result search asks), per query, slowest last.
            let c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            c.wait_for_static_index();
            let qs = queries(&args[3]);
            let mut times: Vec<(f64, &str)> = Vec::new();
            for _ in 0..2 {
                times.clear();
                for (q, _) in &qs {
                    let t = thread_cpu();
                    let _ = c.lexical_passages(q, 100, &Filters::default()).expect("lexical");
                    times.push(((thread_cpu() - t) * 1000.0, q.as_str()));
                }
            }
            times.sort_by(|a, b| a.0.total_cmp(&b.0));
            let p = |x: f64| times[((times.len() as f64 - 1.0) * x) as usize].0;
            let mean = times.iter().map(|t| t.0).sum::<f64>() / times.len().max(1) as f64;
            for (ms, q) in times.iter().rev().take(8) {
                println!("  {ms:7.2} ms  {q}");
            }
            println!("lexical list: mean {mean:.2} ms CPU, p50 {:.2}, p90 {:.2}, p99 {:.2} over {} queries", p(0.5), p(0.9), p(0.99), times.len());
        }
        Some("lexcheck") => {
            // `lexcheck <store> <queries.tsv>`: the finding pass of each split query scored term
            // by term (`lexical::accumulate`) against tantivy's BooleanQuery of the same terms.
            use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
            let index = tantivy::Index::open_in_dir(PathBuf::from(&args[2]).join("tantivy")).expect("index");
            ecclesia_corpus::lexical::register_tokenizers(&index);
            let (_, fields) = ecclesia_corpus::lexical::schema();
            let searcher = index.reader().expect("reader").searcher();
            let limit = (searcher.num_docs() as f64 * ecclesia_corpus::lexical::COMMON_SHARE) as u64;
            let (mut same, mut checked, mut worst) = (0, 0, 0f32);
            for (q, _) in &queries(&args[3]) {
                let lq = ecclesia_corpus::lexical::build_query(&index, &fields, q, &Filters::default(), (1.5, 1.5)).expect("query");
                let ecclesia_corpus::lexical::LexicalQuery::Split { terms, phrases, .. } = &lq else { continue };
                if !phrases.is_empty() {
                    continue;
                }
                let finding: Vec<(&tantivy::Term, f32)> = terms.iter().filter(|(t, _)| searcher.doc_freq(t).expect("df") <= limit).map(|(t, b)| (t, *b)).collect();
                let clauses: Vec<(Occur, Box<dyn Query>)> = finding.iter().map(|(t, b)| {
                    let tq: Box<dyn Query> = Box::new(TermQuery::new((*t).clone(), tantivy::schema::IndexRecordOption::WithFreqs));
                    (Occur::Should, Box::new(BoostQuery::new(tq, *b)) as Box<dyn Query>)
                }).collect();
                let mut a = ecclesia_corpus::lexical::accumulate(&searcher, &finding, &[], 400).expect("accumulate");
                let b = searcher.search(&BooleanQuery::new(clauses), &tantivy::collector::TopDocs::with_limit(400).order_by_score()).expect("search");
                a.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1.segment_ord, x.1.doc_id).cmp(&(y.1.segment_ord, y.1.doc_id))));
                checked += 1;
                // the same passages down to the last score (ties at the cut may differ)
                let cut = b.last().map(|x| x.0).unwrap_or(0.0);
                let sa: std::collections::HashSet<_> = a.iter().filter(|x| x.0 > cut * 1.0001).map(|x| x.1).collect();
                let sb: std::collections::HashSet<_> = b.iter().filter(|x| x.0 > cut * 1.0001).map(|x| x.1).collect();
                for ((x, _), (y, _)) in a.iter().zip(&b) {
                    worst = worst.max((x - y).abs() / y.abs().max(1e-6));
                }
                if sa == sb && a.len() == b.len() {
                    same += 1;
                } else {
                    println!("  differs ({} vs {}, {} vs {} above the cut): {q}", a.len(), b.len(), sa.len(), sb.len());
                }
            }
            println!("{same} of {checked} split queries: the same passages; largest relative score difference by rank {worst:.2e}");
        }
        Some("lexshape") => {
            // `lexshape <store> <queries.tsv>`: the shape of each query's BM25 list (whole or
            // split), its term clauses with postings by field, and the CPU time it takes.
            let index = tantivy::Index::open_in_dir(PathBuf::from(&args[2]).join("tantivy")).expect("index");
            ecclesia_corpus::lexical::register_tokenizers(&index);
            let (_, fields) = ecclesia_corpus::lexical::schema();
            let schema = index.schema();
            let searcher = index.reader().expect("reader").searcher();
            let qs = queries(&args[3]);
            let (mut whole, mut whole_ms, mut split_ms, mut terms_all, mut with_postings) = (0usize, 0.0, 0.0, 0usize, 0usize);
            let mut by_field: std::collections::BTreeMap<String, usize> = Default::default();
            let (mut postings, mut all_postings) = (0u64, Vec::new());
            for (q, _) in &qs {
                let lq = ecclesia_corpus::lexical::build_query(&index, &fields, q, &Filters::default(), (1.5, 1.5)).expect("query");
                let t = thread_cpu();
                let _ = ecclesia_corpus::lexical::top_docs(&searcher, &lq, 100).expect("top");
                let ms = (thread_cpu() - t) * 1000.0;
                match &lq {
                    ecclesia_corpus::lexical::LexicalQuery::Whole(_) => {
                        whole += 1;
                        whole_ms += ms;
                        if std::env::var("SHOW").is_ok() {
                            println!("  whole {ms:6.2} ms  {q}");
                        }
                    }
                    ecclesia_corpus::lexical::LexicalQuery::Split { terms, .. } => {
                        split_ms += ms;
                        terms_all += terms.len();
                        let limit = (searcher.num_docs() as f64 * ecclesia_corpus::lexical::COMMON_SHARE) as u64;
                        let mut body_texts = std::collections::HashSet::new();
                        for (t, _) in terms {
                            let df = searcher.doc_freq(t).expect("df");
                            if df > 0 && df <= limit {
                                with_postings += 1;
                                postings += df;
                                let name = schema.get_field_name(t.field()).to_string();
                                if name.starts_with("body_") {
                                    body_texts.insert(t.value().as_str().unwrap_or("").to_string());
                                }
                                *by_field.entry(name).or_default() += 1;
                            }
                        }
                        *by_field.entry("(distinct body texts)".into()).or_default() += body_texts.len();
                        if std::env::var("SHOW").is_ok() {
                            println!("  split {ms:6.2} ms  {postings:8} postings  {q}");
                        }
                        all_postings.push(postings);
                        postings = 0;
                    }
                }
            }
            let split = qs.len() - whole;
            println!("whole: {whole} queries, mean {:.2} ms CPU; split: {split} queries, mean {:.2} ms CPU, {:.1} terms a query ({:.1} finding: with postings, not common)", whole_ms / whole.max(1) as f64, split_ms / split.max(1) as f64, terms_all as f64 / split.max(1) as f64, with_postings as f64 / split.max(1) as f64);
            all_postings.sort_unstable();
            let p = |x: f64| all_postings.get(((all_postings.len() as f64 - 1.0) * x) as usize).copied().unwrap_or(0);
            println!("postings of the finding terms: p50 {}, p90 {}, max {}", p(0.5), p(0.9), p(1.0));
            for (f, n) in by_field {
                println!("  {f}: {:.2} finding terms a query", n as f64 / split.max(1) as f64);
            }
        }
        Some("merge") => {
            // `merge <store>`: merge the tantivy segments of a store copy into one, as an
            // ingest now does (to measure a store built before; never a store being served).
            let index = tantivy::Index::open_in_dir(PathBuf::from(&args[2]).join("tantivy")).expect("index");
            ecclesia_corpus::lexical::register_tokenizers(&index);
            let before = index.searchable_segment_ids().expect("segments").len();
            let t = Instant::now();
            let mut w: tantivy::IndexWriter = index.writer_with_num_threads(1, 100_000_000).expect("writer");
            ecclesia_corpus::store::merge_segments(&mut w).expect("merge");
            w.wait_merging_threads().expect("wait");
            let after = index.searchable_segment_ids().expect("segments").len();
            println!("segments {before} -> {after} in {:.1} s", t.elapsed().as_secs_f64());
        }
        Some("query") => {
            let c = Corpus::open(&PathBuf::from(&args[2])).expect("open");
            c.wait_for_static_index();
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
