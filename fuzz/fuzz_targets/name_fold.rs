//! The directory's name folding and tokenizing.
#![no_main]
use ecclesia_directory::fold;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let f = fold::fold(s);
    // Folding is idempotent.
    assert_eq!(fold::fold(&f), f, "fold is not idempotent for {s:?}");
    let _ = fold::slug(s);
    let _ = fold::strip_title(s);
    let _ = fold::analyze(s);
    let _ = fold::tokens(s);
    for w in s.split_whitespace().take(8) {
        if let Some(n) = fold::roman_value(w) {
            let _ = fold::to_roman(n);
        }
    }
});
