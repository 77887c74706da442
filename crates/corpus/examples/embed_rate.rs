//! Embedding coverage measurements on a real store (run with `--release`):
//!
//! * `embed_rate rate <corpus dir> <model dir> <window> <threads> <n> [all|priority|rest][-dedup] [batch]`:
//!   embed a fixed sample of `n` English passages (every k-th passage in
//!   ordinal order, of the whole English corpus, of the priority set or of
//!   the rest, with
//!   `-dedup` only the passages computed after sharing near-duplicates) in
//!   worker-sized batches and print passages/s, CPU seconds and the load
//!   average. A folder with `model.onnx` runs on ONNX Runtime
//!   (`ORT_DYLIB_PATH`), otherwise candle.
//! * `embed_rate counts <corpus dir> <tokenizer.json>`: passages of the
//!   English corpus and of the priority set by rank, word pieces at 128 and
//!   256, and how many passages the de-duplication shares.
//! * `embed_rate plan <corpus dir>`: the background worker's own plan
//!   ([`coverage::plan`], nothing cached): by rank, passages, passages
//!   computed and sharing; the priority set's size, and the worker's
//!   `embedded` count at the moment the priority set is complete (its
//!   computed passages and everything that shares their vectors).
//! * `embed_rate recall <corpus dir> <model dir> <window> <queries.tsv> <distractors> [cap]`:
//!   dense-only document recall@10 and MRR of the set's queries over the
//!   passages of their expected documents (every k-th, at most `cap`) plus
//!   every j-th English passage (`distractors` of them), to compare windows
//!   and models on one pool.

use ecclesia_corpus::coverage::{self, Dedup, PassageRow};
use ecclesia_corpus::semantic::{passage_text, PassageEmbedder};
use rusqlite::Connection;
use std::path::Path;
use std::time::Instant;

fn process_cpu() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes the struct we pass.
    let u = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, u.as_mut_ptr());
        u.assume_init()
    };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn load_model(dir: &Path, window: usize, threads: usize) -> Box<dyn PassageEmbedder> {
    if dir.join("model.onnx").is_file() {
        Box::new(
            ecclesia_corpus::OnnxEmbedder::load(ecclesia_corpus::OnnxConfig {
                model_dir: dir.to_path_buf(),
                library: std::env::var("ORT_DYLIB_PATH")
                    .unwrap_or_else(|_| "models/onnxruntime/libonnxruntime.so.1.32.0".into())
                    .into(),
                threads,
                max_seq: window,
            })
            .expect("onnx model"),
        )
    } else {
        Box::new(
            ecclesia_corpus::TransformerEmbedder::load(dir, Default::default())
                .and_then(|m| m.with_max_seq(window))
                .expect("candle model"),
        )
    }
}

/// Every English passage: (ord, rank, type, reference, heading, text), in ordinal order.
type Row = (u64, u8, String, String, Option<String>, String);

fn english(conn: &Connection) -> Vec<Row> {
    let mut st = conn
        .prepare(
            "SELECT p.ord, d.id, d.type, d.magisterial, p.reference, p.heading, p.text \
             FROM passages p JOIN documents d ON d.idx = p.doc_idx WHERE d.language = 'en' ORDER BY p.ord",
        )
        .expect("sql");
    st.query_map([], |r| {
        let id: String = r.get(1)?;
        let ty: String = r.get(2)?;
        let rank = coverage::rank(&id, &ty, r.get(3)?);
        Ok((
            r.get::<_, i64>(0)? as u64,
            rank,
            ty,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
        ))
    })
    .expect("query")
    .map(|r| r.expect("row"))
    .collect()
}

fn rate(args: &[String]) {
    let conn = Connection::open(Path::new(&args[2]).join("corpus.sqlite")).expect("db");
    let window: usize = args[4].parse().expect("window");
    let threads: usize = args[5].parse().expect("threads");
    let n: usize = args[6].parse().expect("n");
    let which = args.get(7).map(String::as_str).unwrap_or("all");
    let batch: usize = args.get(8).and_then(|b| b.parse().ok()).unwrap_or(32);
    // `all`, `priority`, `rest` (outside the priority set), or any with `-dedup`: only the passages the
    // worker computes (one per group of near-duplicates), in embedding order.
    let mut rows: Vec<Row> = english(&conn)
        .into_iter()
        .filter(|r| match which.split('-').next() {
            Some("all") => true,
            Some("rest") => !coverage::is_priority(r.1),
            _ => coverage::is_priority(r.1),
        })
        .collect();
    if which.ends_with("-dedup") {
        rows.sort_by_key(|r| (r.1, r.0));
        let mut d = Dedup::new();
        rows.retain(|r| {
            d.representative(&PassageRow {
                ord: r.0,
                doc_type: &r.2,
                reference: &r.3,
                heading: r.4.as_deref(),
                text: &r.5,
            })
            .is_none()
        });
        rows.sort_by_key(|r| r.0);
    }
    let step = (rows.len() / n).max(1);
    let texts: Vec<String> = rows
        .iter()
        .step_by(step)
        .take(n)
        .map(|r| passage_text(r.4.as_deref(), &r.5))
        .collect();
    drop(rows);
    let m = load_model(Path::new(&args[3]), window, threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let chars: usize = texts.iter().map(String::len).sum();
    let la0 = loadavg();
    let (t, c0) = (Instant::now(), process_cpu());
    for chunk in texts.chunks(batch) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        pool.install(|| m.embed(&refs)).expect("embed");
    }
    let s = t.elapsed().as_secs_f64();
    let cpu = process_cpu() - c0;
    println!(
        "{} {which} passages ({chars} chars), {}, window {window}, {threads} thread(s), batch {batch}: \
         {s:.1} s, {:.1} passages/s wall, {:.1} per CPU-s ({cpu:.1} CPU-s); load {la0} -> {}",
        texts.len(),
        m.model_id(),
        texts.len() as f64 / s,
        texts.len() as f64 / cpu,
        loadavg()
    );
}

fn counts(args: &[String]) {
    let conn = Connection::open(Path::new(&args[2]).join("corpus.sqlite")).expect("db");
    let tok = ecclesia_corpus::WordPiece::load(Path::new(&args[3])).expect("tokenizer");
    let rows = english(&conn);
    // rank -> (passages, word pieces at 128, at 256, shared)
    let mut by_rank = std::collections::BTreeMap::<u8, [u64; 4]>::new();
    let mut order: Vec<&Row> = rows.iter().collect();
    order.sort_by_key(|r| (r.1, r.0));
    let mut dedup = Dedup::new();
    for r in order {
        let text = passage_text(r.4.as_deref(), &r.5);
        let n = tok.tokenize(&text, 510, true).len() as u64 + 2;
        let e = by_rank.entry(r.1).or_default();
        e[0] += 1;
        e[1] += n.min(128);
        e[2] += n.min(256);
        let row = PassageRow {
            ord: r.0,
            doc_type: &r.2,
            reference: &r.3,
            heading: r.4.as_deref(),
            text: &r.5,
        };
        if dedup.representative(&row).is_some() {
            e[3] += 1;
        }
    }
    println!("rank priority passages wp@128 wp@256 shared");
    let mut tot = [[0u64; 4]; 2];
    for (k, v) in &by_rank {
        let p = coverage::is_priority(*k);
        println!("{k} {p} {} {} {} {}", v[0], v[1], v[2], v[3]);
        for i in 0..4 {
            tot[usize::from(!p)][i] += v[i];
        }
    }
    println!("priority {:?}\nrest     {:?}", tot[0], tot[1]);
}

fn plan(args: &[String]) {
    let conn = Connection::open(Path::new(&args[2]).join("corpus.sqlite")).expect("db");
    let order = coverage::embedding_order(&conn).expect("order");
    let t = Instant::now();
    let plan = coverage::plan(&conn, &order, |_, _| Ok(coverage::Lookup::Missing))
        .expect("plan")
        .expect("not stopped");
    let secs = t.elapsed().as_secs_f64();
    let priority = coverage::PrioritySet::from_order(&order);
    let rank_of = |ord: u64| {
        order
            .iter()
            .find(|(a, n, _)| (*a..a + n).contains(&ord))
            .map_or(u8::MAX, |r| r.2)
    };
    // rank -> [passages, computed, sharing]
    let mut by_rank = std::collections::BTreeMap::<u8, [u64; 3]>::new();
    for (_, n, k) in &order {
        by_rank.entry(*k).or_default()[0] += n;
    }
    let computed: std::collections::HashSet<u64> = plan.compute.iter().copied().collect();
    for &(a, n, k) in &order {
        let e = by_rank.entry(k).or_default();
        for ord in a..a + n {
            if computed.contains(&ord) {
                e[1] += 1;
            } else {
                e[2] += 1;
            }
        }
    }
    println!("rank priority passages computed sharing");
    for (k, v) in &by_rank {
        println!(
            "{k} {} {} {} {}",
            coverage::is_priority(*k),
            v[0],
            v[1],
            v[2]
        );
    }
    let lead = &plan.compute[..plan.priority_compute];
    let followers: Vec<u64> = lead
        .iter()
        .flat_map(|o| plan.followers.get(o).into_iter().flatten().copied())
        .collect();
    let outside = followers.iter().filter(|&&f| !priority.contains(f)).count();
    let stray = followers.iter().filter(|&&f| rank_of(f) == u8::MAX).count();
    println!(
        "planned in {secs:.1} s: {} passages, {} computed, {} sharing\n\
         priority set: {} passages, {} computed first, {} sharing their vectors \
         ({outside} of those outside the set, {stray} unranked)\n\
         embedded when the priority set is complete: {}",
        order.iter().map(|r| r.1).sum::<u64>(),
        plan.compute.len(),
        plan.shared(),
        priority.passages(),
        plan.priority_compute,
        followers.len(),
        plan.priority_compute + followers.len()
    );
}

fn recall(args: &[String]) {
    let dir = Path::new(&args[2]);
    let conn = Connection::open(dir.join("corpus.sqlite")).expect("db");
    let window: usize = args[4].parse().expect("window");
    let set = std::fs::read_to_string(&args[5]).expect("queries");
    let distractors: usize = args[6].parse().expect("distractors");
    let queries: Vec<(String, Vec<String>, String)> = set
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c.len() == 3 && c[0] != "multilingual").then(|| {
                (
                    c[1].to_string(),
                    c[2].split(',').map(|s| s.trim().to_string()).collect(),
                    c[0].to_string(),
                )
            })
        })
        .collect();
    let wanted = |id: &str, w: &str| match w.strip_suffix('*') {
        Some(p) => id.starts_with(p),
        None => id == w || id.strip_prefix(w).is_some_and(|r| r.starts_with('~')),
    };
    let mut st = conn
        .prepare(
            "SELECT p.ord, d.id, p.heading, p.text FROM passages p JOIN documents d ON d.idx = p.doc_idx \
             WHERE d.language = 'en' ORDER BY p.ord",
        )
        .expect("sql");
    let all: Vec<(u64, String, String)> = st
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)? as u64,
                r.get::<_, String>(1)?,
                passage_text(
                    r.get::<_, Option<String>>(2)?.as_deref(),
                    &r.get::<_, String>(3)?,
                ),
            ))
        })
        .expect("query")
        .map(|r| r.expect("row"))
        .collect();
    let cap: usize = args
        .get(7)
        .and_then(|c| c.parse().ok())
        .unwrap_or(usize::MAX);
    let expected: Vec<usize> = (0..all.len())
        .filter(|&i| {
            queries
                .iter()
                .any(|q| q.1.iter().any(|w| wanted(&all[i].1, w)))
        })
        .collect();
    // Every k-th passage of the expected documents (at most `cap`), every j-th other one.
    let k = expected.len().div_ceil(cap.max(1)).max(1);
    let mut keep: std::collections::BTreeSet<usize> = expected.iter().step_by(k).copied().collect();
    let step = (all.len() / distractors.max(1)).max(1);
    keep.extend((0..all.len()).step_by(step));
    let pool: Vec<&(u64, String, String)> = keep.iter().map(|&i| &all[i]).collect();
    let m = load_model(Path::new(&args[3]), window, 2);
    let t = Instant::now();
    let mut vecs: Vec<Vec<f32>> = Vec::with_capacity(pool.len());
    for chunk in pool.chunks(32) {
        let refs: Vec<&str> = chunk.iter().map(|p| p.2.as_str()).collect();
        vecs.extend(m.embed(&refs).expect("embed"));
    }
    let secs = t.elapsed().as_secs_f64();
    let mut tally = std::collections::BTreeMap::<&str, (usize, usize, f64)>::new();
    for (q, want, kind) in &queries {
        let qv = m.embed_query(q).expect("query vector");
        let mut scored: Vec<(f32, usize)> = vecs
            .iter()
            .enumerate()
            .map(|(i, v)| (v.iter().zip(&qv).map(|(a, b)| a * b).sum(), i))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut docs: Vec<&str> = Vec::new();
        for (_, i) in scored {
            let id = pool[i].1.as_str();
            if !docs.contains(&id) {
                docs.push(id);
            }
            if docs.len() == 10 {
                break;
            }
        }
        let rank = docs.iter().position(|d| want.iter().any(|w| wanted(d, w)));
        for key in [kind.as_str(), "all"] {
            let t = tally.entry(key).or_default();
            t.0 += 1;
            if let Some(k) = rank {
                t.1 += 1;
                t.2 += 1.0 / (k as f64 + 1.0);
            }
        }
    }
    println!(
        "{}: window {window}, {} queries over {} passages ({secs:.0} s to embed), dense only:",
        m.model_id(),
        queries.len(),
        pool.len(),
    );
    for (kind, (n, hit, rr)) in &tally {
        println!(
            "  {kind:<12} {n:>4}  recall@10 {:.3}  MRR {:.3}",
            *hit as f64 / *n as f64,
            rr / *n as f64
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("rate") if args.len() >= 7 => rate(&args),
        Some("counts") if args.len() >= 4 => counts(&args),
        Some("recall") if args.len() >= 7 => recall(&args),
        Some("plan") if args.len() >= 3 => plan(&args),
        _ => eprintln!(
            "usage: embed_rate rate <corpus> <model> <window> <threads> <n> [all|priority] [batch] \
             | counts <corpus> <tokenizer.json> | plan <corpus> | recall <corpus> <model> <window> <queries.tsv> <distractors> [cap]"
        ),
    }
}
