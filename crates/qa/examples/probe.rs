//! Show what retrieval sees for one question against a built store: the raw
//! hybrid hits, the Magisterium pass and the passages finally gathered.
//! `cargo run -p ecclesia-qa --features corpus --example probe -- <store>/corpus "question"`

use ecclesia_corpus::Corpus;
use ecclesia_qa::{gather, CorpusRetriever, RetrievalConfig, Retriever, SourceKind};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(store), Some(q)) = (args.first(), args.get(1)) else {
        eprintln!("usage: probe <corpus store> <question>");
        std::process::exit(2);
    };
    let corpus = match Corpus::open(std::path::Path::new(store)) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let r = CorpusRetriever::new(corpus, Some("en".into()));
    let show = |label: &str, ps: Vec<ecclesia_qa::Passage>| {
        println!("== {label}");
        for p in ps {
            let t: String = p.text.chars().take(90).collect();
            println!(
                "{:>8.4} {} #{} | {}",
                p.score,
                p.doc_id,
                p.reference.unwrap_or_default(),
                t.replace('\n', " ")
            );
        }
    };
    match r.search(q, 15) {
        Ok(ps) => show("search", ps),
        Err(e) => eprintln!("{e}"),
    }
    match r.search_kind(q, SourceKind::Magisterium, 10) {
        Ok(ps) => show("magisterium", ps),
        Err(e) => eprintln!("{e}"),
    }
    match gather(&r, q, &RetrievalConfig::default()) {
        Ok(ps) => show("gathered", ps),
        Err(e) => eprintln!("{e}"),
    }
}
