//! The cross-language document list for each query on stdin, with cosines:
//! `cargo run --release -p ecclesia-corpus --example across_probe -- <corpus
//! folder> <multilingual-e5-small folder> < queries`.

use ecclesia_corpus::crosslingual::CrossLingual;
use ecclesia_corpus::Corpus;
use std::io::BufRead;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(store), Some(model)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: across_probe <corpus folder> <e5 folder> < queries");
        std::process::exit(2);
    };
    let mut c = Corpus::open(Path::new(store)).expect("open the corpus");
    let e5 = std::sync::Arc::new(ecclesia_e5::E5::load(Path::new(model), None).expect("e5"));
    let x = CrossLingual::new(
        ecclesia_e5::MODEL_SHA256,
        Box::new(move |t: &str, q: bool| {
            if q { e5.query(t) } else { e5.passage(t) }.map_err(|e| e.to_string())
        }),
    );
    let (units, heads) = c.crosslingual_units().expect("texts");
    x.build(&units, heads, &x.cache_path(c.dir()))
        .expect("vectors");
    c.attach_crosslingual(x.clone());
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let q = line.split('\t').nth(1).unwrap_or(&line);
        let r = x.standing_out(q, 5);
        let cos: Vec<String> = r.iter().map(|(_, _, s)| format!("{s:.3}")).collect();
        println!("{q}\n   {}", cos.join(" "));
    }
}
