//! The store, the registries, the servers and a small HTTP client.

use ecclesia_core::{NoProgress, SkillRegistry, StoreLayout};
use ecclesia_skills::SkillEnv;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub fn data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

/// "Today" of the tests.
pub fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap()
}

/// One store for the whole binary: the liturgy and directory ingesters only.
fn generation() -> &'static PathBuf {
    static GEN: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &GEN.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let layout = StoreLayout::new(tmp.path());
        let ingesters: Vec<_> = ecclesia_skills::ingesters()
            .into_iter()
            .filter(|i| matches!(i.name(), "liturgy" | "directory"))
            .collect();
        assert!(ingesters.len() >= 2, "liturgy and directory ingesters");
        layout
            .ingest(&data_dir(), &ingesters, &NoProgress)
            .expect("ingest liturgy and directory");
        let gen = layout.current().expect("a current generation");
        (tmp, gen)
    })
    .1
}

/// The real registry: every skill whose store exists (no corpus, so no
/// `catholic_qa`, `document_search`, `document_fetch`).
pub fn real_registry() -> SkillRegistry {
    let env = SkillEnv {
        data_dir: data_dir(),
        generation: Some(generation().clone()),
        today: Some(today()),
        timezone: "UTC".into(),
        ..Default::default()
    };
    ecclesia_skills::build_registry(&env)
}

pub struct Server {
    pub base: String,
}

pub fn spawn(registry: SkillRegistry, with_a2a: bool) -> Server {
    spawn_with(
        registry,
        with_a2a,
        ecclesia_console::ConsoleOptions {
            today: Some(today()),
            ..Default::default()
        },
    )
}

pub fn spawn_with(
    registry: SkillRegistry,
    with_a2a: bool,
    opts: ecclesia_console::ConsoleOptions,
) -> Server {
    let registry = Arc::new(registry);
    let mut app = ecclesia_console::router(registry.clone(), opts);
    if with_a2a {
        app = app.merge(crate::fakes::a2a_router(registry));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    Server {
        base: format!("http://{addr}"),
    }
}

/// The console over the real registry only (the corpus skills are absent).
pub fn real() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| spawn(real_registry(), false))
}

/// The console over the real registry plus the corpus stand-ins, with the
/// A2A stand-in mounted beside it.
pub fn full() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        let mut reg = real_registry();
        crate::fakes::register(&mut reg);
        spawn(reg, true)
    })
}

pub struct Reply {
    pub status: u16,
    pub body: String,
    pub headers: Vec<(String, String)>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn reply(r: ureq::Response) -> Reply {
    let status = r.status();
    let headers = r
        .headers_names()
        .into_iter()
        .map(|n| {
            let v = r.header(&n).unwrap_or("").to_string();
            (n, v)
        })
        .collect();
    let body = r.into_string().unwrap_or_default();
    Reply {
        status,
        body,
        headers,
    }
}

fn done(r: Result<ureq::Response, ureq::Error>) -> Reply {
    match r {
        Ok(r) => reply(r),
        Err(ureq::Error::Status(_, r)) => reply(r),
        Err(e) => panic!("request failed: {e}"),
    }
}

/// GET `path` (already encoded) from `server`.
pub fn get(server: &Server, path: &str) -> Reply {
    get_with(server, path, &[])
}

pub fn get_with(server: &Server, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut req =
        ureq::get(&format!("{}{path}", server.base)).timeout(std::time::Duration::from_secs(120));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    done(req.call())
}

pub fn post_form(server: &Server, path: &str, body: &str) -> Reply {
    done(
        ureq::post(&format!("{}{path}", server.base))
            .set("Content-Type", "application/x-www-form-urlencoded")
            .timeout(std::time::Duration::from_secs(120))
            .send_string(body),
    )
}

/// Percent-encode a query value.
pub fn enc(s: &str) -> String {
    ecclesia_console::html::url_enc(s)
}
