//! The on-topic classifier's embedding voice for `catholic_qa`: finds and loads
//! multilingual-e5-small (`ecclesia-e5`, `scripts/fetch-e5.sh`) as `[qa]
//! topic_model` says, and hands it to the engine as a [`SemanticVote`]. Without
//! the model the classifier uses its word model alone, and says so.

use crate::SkillEnv;
use ecclesia_e5::{E5, MODEL_SHA256};
use ecclesia_qa::SemanticVote;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The vote `topic_model` asks for: `"off"` none; a folder that one (an error
/// logged when it cannot be loaded); unset the default folder under `./models`
/// or `<data>/../models` when present.
pub fn topic_vote(topic_model: Option<&str>, env: &SkillEnv) -> Option<Arc<SemanticVote>> {
    let setting = topic_model.map(str::trim).filter(|d| !d.is_empty());
    match (locate(setting, env), setting) {
        (Some(dir), _) => load(&dir),
        (None, Some("off")) => None,
        (None, Some(d)) => {
            tracing::error!(
                dir = d,
                "[qa] topic_model: no multilingual-e5-small there (run scripts/fetch-e5.sh); \
                 the on-topic classifier uses its word model alone"
            );
            None
        }
        (None, None) => {
            tracing::info!(
                "multilingual-e5-small not installed (scripts/fetch-e5.sh): \
                 the on-topic classifier uses its word model alone"
            );
            None
        }
    }
}

/// The model folder `[qa] topic_model` selects, if it holds the model (what
/// `ecclesia sources` shows).
pub fn configured_dir(env: &SkillEnv) -> Option<PathBuf> {
    let section = env.section("qa");
    let setting = section.get("topic_model").and_then(|v| v.as_str());
    locate(setting.map(str::trim).filter(|d| !d.is_empty()), env)
}

/// The folder a (trimmed, non-empty) setting names, if it holds the model:
/// `"off"` none, a folder that one, unset the default folder under `./models`
/// or `<data>/../models`.
fn locate(setting: Option<&str>, env: &SkillEnv) -> Option<PathBuf> {
    match setting {
        Some("off") => None,
        Some(d) => E5::find(Some(Path::new(d)), &[]),
        None => E5::find(None, &[PathBuf::from("."), env.data_dir.join("..")]),
    }
}

/// The engine and model of `dir`, loaded once per process (the on-topic
/// classifier and the cross-language search share it).
pub fn shared_e5(dir: &Path) -> Result<Arc<E5>, String> {
    static LOADED: std::sync::Mutex<Vec<(PathBuf, Arc<E5>)>> = std::sync::Mutex::new(Vec::new());
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, e)) = loaded.iter().find(|(d, _)| d == dir) {
        return Ok(e.clone());
    }
    let e = Arc::new(E5::load(dir, None).map_err(|e| e.to_string())?);
    loaded.push((dir.to_path_buf(), e.clone()));
    Ok(e)
}

fn load(dir: &Path) -> Option<Arc<SemanticVote>> {
    let e5 = match shared_e5(dir) {
        Ok(m) => m,
        Err(e) => {
            tracing::error!(error = %e, "the on-topic classifier uses its word model alone");
            return None;
        }
    };
    let encode = Box::new(move |q: &str| e5.query(q).map_err(|e| e.to_string()));
    match SemanticVote::bundled(MODEL_SHA256, encode) {
        Ok(v) => {
            tracing::info!(dir = %dir.display(), "on-topic classifier: word model and multilingual embedding");
            Some(Arc::new(v))
        }
        Err(e) => {
            tracing::error!(error = %e, "the on-topic classifier uses its word model alone");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(data: &Path) -> SkillEnv {
        SkillEnv {
            data_dir: data.to_path_buf(),
            generation: None,
            today: None,
            timezone: "UTC".into(),
            settings: Default::default(),
            background: false,
        }
    }

    #[test]
    fn off_and_a_folder_without_the_model_give_the_word_model_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let e = env(tmp.path());
        assert!(topic_vote(Some("off"), &e).is_none());
        assert!(topic_vote(Some(tmp.path().to_str().unwrap()), &e).is_none());
    }

    #[test]
    fn the_fetched_model_gives_a_vote() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let Some(dir) = E5::find(None, &[root]) else {
            assert!(
                std::env::var_os("ECCLESIA_REQUIRE_E5").is_none(),
                "ECCLESIA_REQUIRE_E5 is set but models/multilingual-e5-small is missing"
            );
            eprintln!("models/multilingual-e5-small missing (scripts/fetch-e5.sh): skipped");
            return;
        };
        let tmp = tempfile::tempdir().unwrap();
        let vote = topic_vote(Some(dir.to_str().unwrap()), &env(tmp.path())).expect("a vote");
        let on = vote.probability("Co učí církev o milosti?").unwrap();
        let off = vote.probability("Jak upéct kváskový chléb?").unwrap();
        assert!(on > 0.5 && off < 0.5, "on {on} off {off}");
    }
}
