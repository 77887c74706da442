//! The corpus's HTML importer (blocks, entities, title).
#![no_main]
use ecclesia_corpus::html;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for b in html::blocks(&s) {
        assert!((0.0..=1.0).contains(&b.emphasis), "emphasis {}", b.emphasis);
    }
    let _ = html::decode_entities(&s);
    let _ = html::title(&s);
});
