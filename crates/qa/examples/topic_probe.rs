fn main() {
    for q in std::env::args().skip(1) {
        let s = ecclesia_qa::classify(&q);
        println!(
            "{} | {q} | faith {} off {} {:?}",
            if s.on_topic() { "ON " } else { "off" },
            s.faith,
            s.off_topic,
            s.matched
        );
    }
}
