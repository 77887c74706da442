//! The on-disk layout of the built stores, and the ingest runner.
//!
//! ```text
//! <store>/CURRENT            name of the generation being served
//! <store>/gen-<stamp>/       one complete generation: <ingester>/… and manifest.json
//! <store>/.building-<stamp>/ a generation being built (deleted if the ingest fails)
//! <store>/state.sqlite       tasks and API keys (outside generations)
//! ```
//!
//! A generation is built aside and made current by renaming it into place and
//! then atomically replacing `CURRENT`, so a crash mid-ingest leaves the
//! previous generation serving.

use crate::ingest::{IngestContext, IngestError, Ingester, ProgressFactory, SourceInfo};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a generation holds, written as `manifest.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// When it was built (RFC 3339).
    pub built_at: String,
    /// The data directory it was built from.
    pub data_dir: String,
    /// Ingesters that ran, with their sources.
    pub ingesters: Vec<IngesterManifest>,
}

/// One ingester's part of a [`Manifest`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IngesterManifest {
    /// Ingester name (its directory).
    pub name: String,
    /// Seconds it took.
    pub seconds: f64,
    /// Datasets used.
    pub sources: Vec<SourceInfo>,
    /// Records skipped, with file and position.
    pub warnings: Vec<String>,
}

/// The store directory.
#[derive(Debug, Clone)]
pub struct StoreLayout {
    root: PathBuf,
}

impl StoreLayout {
    /// The store at `root` (created on first ingest).
    pub fn new(root: &Path) -> Self {
        StoreLayout {
            root: root.to_path_buf(),
        }
    }

    /// The store root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The generation being served, if any.
    pub fn current(&self) -> Option<PathBuf> {
        let name = std::fs::read_to_string(self.root.join("CURRENT")).ok()?;
        let name = name.trim();
        if name.is_empty() || name.contains('/') || name.contains("..") {
            return None;
        }
        let dir = self.root.join(name);
        dir.is_dir().then_some(dir)
    }

    /// The manifest of the current generation.
    pub fn manifest(&self) -> Option<Manifest> {
        let dir = self.current()?;
        let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Run `ingesters` over `data_dir` into a new generation and make it current.
    /// On error the new generation is removed and the previous one stays current.
    pub fn ingest(
        &self,
        data_dir: &Path,
        ingesters: &[Box<dyn Ingester>],
        progress: &dyn ProgressFactory,
    ) -> Result<Manifest, IngestError> {
        if !data_dir.is_dir() {
            return Err(IngestError::MissingData(data_dir.to_path_buf()));
        }
        std::fs::create_dir_all(&self.root).map_err(|e| IngestError::io(&self.root, e))?;
        let stamp = format!(
            "{}-{}",
            chrono::Utc::now().format("%Y%m%dT%H%M%S"),
            &uuid::Uuid::new_v4().simple().to_string()[..6]
        );
        let building = self.root.join(format!(".building-{stamp}"));
        let result = self.build(&building, data_dir, ingesters, progress);
        let manifest = match result {
            Ok(m) => m,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&building);
                return Err(e);
            }
        };
        let gen_name = format!("gen-{stamp}");
        let gen = self.root.join(&gen_name);
        std::fs::rename(&building, &gen).map_err(|e| IngestError::io(&gen, e))?;
        let previous = self.current();
        let tmp = self.root.join("CURRENT.tmp");
        std::fs::write(&tmp, &gen_name).map_err(|e| IngestError::io(&tmp, e))?;
        std::fs::rename(&tmp, self.root.join("CURRENT")).map_err(|e| IngestError::io(&tmp, e))?;
        self.prune(previous.as_deref(), &gen);
        Ok(manifest)
    }

    fn build(
        &self,
        dir: &Path,
        data_dir: &Path,
        ingesters: &[Box<dyn Ingester>],
        progress: &dyn ProgressFactory,
    ) -> Result<Manifest, IngestError> {
        std::fs::create_dir_all(dir).map_err(|e| IngestError::io(dir, e))?;
        let mut manifest = Manifest {
            built_at: chrono::Utc::now().to_rfc3339(),
            data_dir: data_dir.display().to_string(),
            ingesters: Vec::new(),
        };
        for ing in ingesters {
            let out_dir = dir.join(ing.name());
            std::fs::create_dir_all(&out_dir).map_err(|e| IngestError::io(&out_dir, e))?;
            let started = std::time::Instant::now();
            let ctx = IngestContext {
                data_dir: data_dir.to_path_buf(),
                out_dir,
                progress,
            };
            let report = ing
                .ingest(&ctx)
                .map_err(|e| IngestError::Other(format!("{}: {e}", ing.name())))?;
            manifest.ingesters.push(IngesterManifest {
                name: ing.name().to_string(),
                seconds: started.elapsed().as_secs_f64(),
                sources: report.sources,
                warnings: report.warnings,
            });
        }
        let path = dir.join("manifest.json");
        let text = serde_json::to_string_pretty(&manifest)
            .map_err(|e| IngestError::Other(e.to_string()))?;
        std::fs::write(&path, text).map_err(|e| IngestError::io(&path, e))?;
        Ok(manifest)
    }

    /// Remove generations other than the new one and the previous one, and
    /// leftovers of failed builds.
    fn prune(&self, previous: Option<&Path>, current: &Path) {
        let Ok(entries) = std::fs::read_dir(&self.root) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            let is_gen = name.starts_with("gen-") || name.starts_with(".building-");
            if is_gen && p != current && Some(p.as_path()) != previous {
                let _ = std::fs::remove_dir_all(&p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{IngestReport, NoProgress};

    struct Writes(&'static str, bool);
    impl Ingester for Writes {
        fn name(&self) -> &'static str {
            self.0
        }
        fn ingest(&self, ctx: &IngestContext<'_>) -> Result<IngestReport, IngestError> {
            std::fs::write(ctx.out("x.txt"), "x").map_err(|e| IngestError::io(&ctx.out_dir, e))?;
            if self.1 {
                return Err(IngestError::Other("boom".into()));
            }
            Ok(IngestReport::default())
        }
    }

    #[test]
    fn swap_is_atomic_and_failures_keep_previous() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        let store = StoreLayout::new(&tmp.path().join("store"));
        assert!(store.current().is_none());
        let ok: Vec<Box<dyn Ingester>> = vec![Box::new(Writes("a", false))];
        store.ingest(&data, &ok, &NoProgress).unwrap();
        let first = store.current().unwrap();
        assert!(first.join("a/x.txt").exists());
        assert_eq!(store.manifest().unwrap().ingesters[0].name, "a");

        let bad: Vec<Box<dyn Ingester>> =
            vec![Box::new(Writes("a", false)), Box::new(Writes("b", true))];
        let err = store.ingest(&data, &bad, &NoProgress).unwrap_err();
        assert!(err.to_string().contains("b: boom"));
        assert_eq!(store.current().unwrap(), first);
        let leftovers = std::fs::read_dir(store.root())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".building")
            })
            .count();
        assert_eq!(leftovers, 0);

        store.ingest(&data, &ok, &NoProgress).unwrap();
        assert_ne!(store.current().unwrap(), first);
        assert!(store
            .ingest(&tmp.path().join("nope"), &ok, &NoProgress)
            .is_err());
    }
}
