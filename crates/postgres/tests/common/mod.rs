//! What the PostgreSQL tests share: the server from `scripts/services.sh`, and a fresh
//! database per test.

#![allow(dead_code)]

use std::str::FromStr;

/// The server's URL (`ECCLESIA_TEST_POSTGRES`), or `None` to skip; with
/// `ECCLESIA_REQUIRE_SERVICES=1` a missing server fails the test instead.
pub fn server() -> Option<String> {
    match std::env::var("ECCLESIA_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("ECCLESIA_REQUIRE_SERVICES").as_deref() != Ok("1"),
                "ECCLESIA_REQUIRE_SERVICES=1 but ECCLESIA_TEST_POSTGRES is not set (run under scripts/services.sh)"
            );
            eprintln!("skipped: ECCLESIA_TEST_POSTGRES is not set (scripts/services.sh starts PostgreSQL)");
            None
        }
    }
}

/// A new, empty database on the server at `base`; returns its URL.
pub fn fresh_database(base: &str) -> String {
    let name = format!("ecc_test_{:016x}", rand::random::<u64>());
    let config = tokio_postgres::Config::from_str(base).expect("ECCLESIA_TEST_POSTGRES is a URL");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let (client, conn) = config
            .connect(tokio_postgres::NoTls)
            .await
            .expect("the test server answers");
        let task = tokio::spawn(conn);
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .expect("CREATE DATABASE");
        drop(client);
        let _ = task.await;
    });
    // Replace the database name at the end of the URL.
    let (head, _) = base.rsplit_once('/').expect("the URL names a database");
    format!("{head}/{name}")
}
