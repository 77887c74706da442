fn main() {
    for q in std::env::args().skip(1) {
        let s = ecclesia_qa::classify(&q);
        println!(
            "{} | {q} | p {:.3} (word lists alone: {}) faith {} off {} {:?}",
            if s.on_topic() { "ON " } else { "off" },
            s.probability,
            if s.lexicon_on_topic() { "on" } else { "off" },
            s.faith,
            s.off_topic,
            s.matched
        );
    }
}
