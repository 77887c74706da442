//! Which Bible episode each query (one a line on stdin, or a `kind<TAB>query<TAB>…`
//! set line) is taken for, and why not: `cargo run --release -p ecclesia-corpus
//! --example episode_probe < queries`.

use ecclesia_corpus::query::episodes::Episodes;
use std::io::BufRead;

fn main() {
    let e = Episodes::bundled();
    println!("{} episodes", e.len());
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let q = line.split('\t').nth(1).unwrap_or(&line);
        match e.explain(q) {
            Ok(f) => println!("FOUND {} <- {q}", f.id),
            Err(why) => println!("none  {q}\n      {why}"),
        }
    }
}
