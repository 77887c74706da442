//! One ingest of the full shared datasets, shared by every test of a binary.
#![allow(dead_code)]

use ecclesia_core::{IngestContext, IngestReport, Ingester, NoProgress};
use ecclesia_directory::{Directory, DirectoryIngester};
use std::path::PathBuf;
use std::sync::OnceLock;

pub fn data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

pub struct Built {
    pub dir: PathBuf,
    pub report: IngestReport,
    pub directory: Directory,
    pub secs: f64,
}

pub fn ingest_into(out: PathBuf, extra: Vec<PathBuf>) -> IngestReport {
    let ctx = IngestContext {
        data_dir: data_dir(),
        out_dir: out,
        progress: &NoProgress,
    };
    DirectoryIngester::with_extra(extra).ingest(&ctx).unwrap()
}

pub fn built() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        // One folder per target dir, emptied at each run (a TempDir in a
        // static is never dropped, and would pile up in /tmp).
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("directory-built");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let t = std::time::Instant::now();
        let report = ingest_into(dir.clone(), Vec::new());
        let secs = t.elapsed().as_secs_f64();
        let directory = Directory::open(&dir).unwrap();
        Built {
            dir,
            report,
            directory,
            secs,
        }
    })
}
