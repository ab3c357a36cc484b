//! `dara serve` (also what `dara` alone does): the Arcade, on the web.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use dara_server::Config;

/// Serve the Arcade: play Dara in the browser against the computer, a friend or anyone.
///
/// The options that tune the server default to the server's own `Config::default()`, so that
/// `dara serve` and a server built in a test start alike.
#[derive(Debug, Parser)]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, env = "DARA_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Searches the computer opponent may run at once (default: the number of cores).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// Searches that may wait for the computer (a game has at most one) before new games
    /// against it are refused with 503 and when to come back.
    #[arg(long, default_value_t = Config::default().engine_queue)]
    pub engine_queue: usize,
    /// The computer answers at once, without the short human-looking pause of the low levels
    /// (for tests and demonstrations).
    #[arg(long)]
    pub instant_computer: bool,
    /// Seconds a player may be gone before the opponent may claim the game.
    #[arg(long, default_value_t = Config::default().patience.claim_after.as_secs())]
    pub claim_after: u64,
    /// Seconds each side of a game on the clock has to make its first move (its clock starts
    /// with it) before the game is aborted without a result.
    #[arg(long, default_value_t = Config::default().patience.first_move_within.as_secs())]
    pub first_move_within: u64,
    /// Most games one client address may hold at once (games it started, until they are
    /// forgotten). Behind a reverse proxy every client has the proxy's address: raise it there.
    #[arg(long, default_value_t = Config::default().games_per_address)]
    pub games_per_address: usize,
    /// Most seats one client address may hold at open tables ("Sit down" and "play anyone",
    /// until the games are forgotten). Behind a reverse proxy: raise it there too.
    #[arg(long, default_value_t = Config::default().seats_per_address)]
    pub seats_per_address: usize,
    /// Most games held at once; beyond it new games are refused (503) until some end.
    #[arg(long, default_value_t = Config::default().max_games)]
    pub max_games: usize,
    /// Most private arenas one client address may hold at once (those it made, until they are
    /// forgotten an hour after their end). Behind a reverse proxy: raise it there too.
    #[arg(long, default_value_t = Config::default().arenas_per_address)]
    pub arenas_per_address: usize,
    /// Most private arenas held at once; beyond it new ones are refused (503). The server's own
    /// schedule always has room.
    #[arg(long, default_value_t = Config::default().max_arenas)]
    pub max_arenas: usize,
    /// Most connections (pages, sockets, requests) one client address may hold open at once.
    #[arg(long, default_value_t = Config::default().connections_per_address)]
    pub connections_per_address: u32,
    /// Of those, connections one client address may hold whose request headers have not all
    /// come yet (half-open requests) [default: half of --connections-per-address].
    #[arg(long)]
    pub unfinished_per_address: Option<u32>,
    /// Most connections from every client together whose request headers have not all come:
    /// past it the oldest is let go [default: a quarter of the open-files limit].
    #[arg(long)]
    pub max_unfinished: Option<usize>,
    /// Reverse proxies to believe: their connections carry many clients, each named in
    /// `X-Forwarded-For`. Networks or addresses, comma-separated (`127.0.0.1,10.0.0.0/8`).
    #[arg(long, value_name = "CIDR")]
    pub trusted_proxy: Option<dara_server::address::TrustedProxies>,
    /// The site's public origin (`https://dara.example`), which a browser's `Origin` must
    /// match; without it, the request's `Host` names the site when it is an address or
    /// `localhost` (a site reached by a name needs this option: any name can be pointed at
    /// this machine).
    #[arg(long, value_name = "URL")]
    pub public_origin: Option<String>,
    /// The token a scraper of `/metrics` sends (`Authorization: Bearer TOKEN`); without one,
    /// `/metrics` answers only requests made on this machine that no proxy forwarded.
    #[arg(long, env = "DARA_METRICS_TOKEN", value_name = "TOKEN")]
    pub metrics_token: Option<String>,
    /// Seconds a client has to send a request's headers before its connection is closed.
    #[arg(long, default_value_t = Config::default().header_timeout.as_secs())]
    pub header_timeout: u64,
    /// Movement-phase tablebases for arcade (`dara tablebase build --rules arcade`): the
    /// analysis board says "win in N plies" or "drawn" where they hold the position, and level 8
    /// plays from them. The Arcade works without them.
    #[arg(long)]
    pub tablebases: Option<std::path::PathBuf>,
    /// The server's own arenas, comma-separated, each `hourly:MM CLOCK LENGTH` (every hour at
    /// minute MM) or `daily:HH:MM CLOCK LENGTH`, the clock as players say it (`3+2`), the
    /// length in minutes (`30m`); each is announced an hour before its start. "" for none.
    /// The default is the issue's: a 30-minute 3+2 arena every hour, and a 90-minute 10+5 one
    /// at 20:00.
    #[arg(long, value_name = "SCHEDULE", default_value = dara_server::arena::schedule::DEFAULT_SCHEDULE)]
    pub arenas: dara_server::arena::Schedule,
    /// The time zone of --arenas, in minutes east of UTC (the default: West Africa Time,
    /// UTC+1).
    #[arg(long, value_name = "MINUTES", allow_hyphen_values = true,
          default_value_t = dara_server::arena::schedule::DEFAULT_UTC_OFFSET_MINUTES)]
    pub arena_utc_offset: i32,
    /// Connections waiting to be accepted (the listen backlog).
    #[arg(long, default_value_t = 4096)]
    pub backlog: u32,
    /// Where live games are kept, so that they survive a crash and a restart (made on first
    /// start; one server at a time). A game is erased from it when it is forgotten.
    #[arg(long, value_name = "PATH", default_value = "dara-data", conflicts_with = "memory_only")]
    pub data_dir: std::path::PathBuf,
    /// Keep live games in memory only: a restart loses them.
    #[arg(long)]
    pub memory_only: bool,
    /// Serve a data directory whose journal lacks commits that were acknowledged (its
    /// write-ahead log deleted, cut short or damaged), or whose journal mark is missing:
    /// without this the server refuses to start, naming the files. With it, what is left is served and the games that may have
    /// lost their last turns are named in the log.
    #[arg(long, conflicts_with = "memory_only")]
    pub accept_loss: bool,
    /// Run as one node of a cluster whose live games are kept in this Redis
    /// (`redis://HOST:PORT[/DB]`): any node serves any player, and the games of a node that
    /// dies or stops go on on the others. Needs --node-id. Give a password in the URL
    /// (`redis://:PASSWORD@HOST:PORT`) through DARA_REDIS rather than the command line, which
    /// every user of the machine can read.
    #[arg(
        long,
        env = "DARA_REDIS",
        value_name = "URL",
        requires = "node_id",
        conflicts_with = "memory_only"
    )]
    pub redis: Option<String>,
    /// This node's name in the cluster (letters, digits, '-' and '_'; unique among the nodes).
    #[arg(long, value_name = "NAME", requires = "redis", value_parser = dara_server::redis::node::NodeName::given)]
    pub node_id: Option<dara_server::redis::node::NodeName>,
}

impl Default for Args {
    fn default() -> Args {
        // `dara` with no subcommand: the same defaults, including `DARA_LISTEN`.
        Args::parse_from(["serve"])
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // Logs go to standard error, so that standard output says only where the Arcade is served.
    let colours = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(log_filter())
        .with_ansi(colours)
        .with_writer(std::io::stderr)
        .init();
    // Every socket is a file: a server that stops at the default 1,024 refuses players long
    // before it runs short of anything else.
    let open_files = match crate::open_files::raise_open_files() {
        Ok(files) => {
            tracing::info!(soft = files.soft, hard = files.hard, "open files");
            Some(files.soft)
        }
        Err(e) => {
            tracing::warn!("cannot raise the open-file limit: {e}");
            None
        }
    };
    // Opened before anything is served, so that a second server on the same directory stops
    // here with a clear error.
    let opened = if args.redis.is_some() {
        // The cluster's games are in Redis, and are taken up as their players come.
        None
    } else if args.memory_only {
        tracing::info!("live games are kept in memory only: a restart loses them");
        None
    } else {
        let opened = dara_server::store::Store::open_with(&args.data_dir, args.accept_loss)
            .with_context(|| format!("cannot keep live games in {}", args.data_dir.display()))?;
        tracing::info!(
            games = opened.games.len(),
            damaged = opened.damaged.len(),
            "live games are kept in {}",
            args.data_dir.display()
        );
        Some(opened)
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        // Joined before anything is served, so that a node that cannot reach Redis stops here
        // with a clear error rather than saying where it serves.
        let cluster = match (&args.redis, &args.node_id) {
            (Some(url), Some(node)) => {
                let joined =
                    dara_server::cluster::Cluster::join(url, node).await.with_context(|| {
                        format!("cannot join the cluster through Redis at {}", without_password(url))
                    })?;
                tracing::info!(node = %joined.0.node(), "a node of the cluster: live games are kept in Redis");
                Some(joined)
            }
            _ => None,
        };
        let listener = listen(args.listen, args.backlog)
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let address = listener.local_addr()?;
        println!("Dara is being served at http://{address}/ (Ctrl-C to stop)");
        match dara_server::pages::page_modules() {
            Some(modules) => tracing::info!(
                engine = modules.engine.len(),
                table = modules.table.len(),
                "the page's engine and table: /assets/engine.wasm, /assets/table.wasm (bytes)"
            ),
            None => tracing::info!(
                "no engine.wasm or table.wasm among the assets (scripts/build-wasm makes them): the computer plays on the server"
            ),
        }
        let mut config = args.config();
        if let (None, Some(files)) = (args.max_unfinished, open_files) {
            // Half-sent requests may hold a quarter of the descriptors, never all of them.
            config.max_unfinished = usize::try_from(files / 4).unwrap_or(usize::MAX).max(16);
        }
        if let Some(dir) = &args.tablebases {
            let tb = crate::commands::tablebase::load(dara::Ruleset::default(), dir)?;
            println!(
                "tablebases: every material up to {} stones from {}",
                tb.stones(),
                dir.display()
            );
            config.tablebase = Some(std::sync::Arc::new(tb));
        }
        // Ctrl-C at a terminal, SIGTERM from a service manager.
        let shutdown = async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{signal, SignalKind};
                match signal(SignalKind::terminate()) {
                    Ok(mut term) => {
                        tokio::select! {
                            _ = tokio::signal::ctrl_c() => {}
                            _ = term.recv() => {}
                        }
                    }
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
            }
            #[cfg(not(unix))]
            let _ = tokio::signal::ctrl_c().await;
        };
        if let Some((cluster, key)) = cluster {
            return dara_server::run_clustered(listener, config, cluster, key, shutdown)
                .await
                .context("serving");
        }
        match opened {
            Some(opened) => dara_server::run_kept(listener, config, opened, shutdown).await,
            None => dara_server::run(listener, config, shutdown).await,
        }
        .context("serving")
    })
}

impl Args {
    /// The server's settings as these options set them (the tablebases aside: loading them can
    /// fail, and takes a while).
    fn config(&self) -> Config {
        let mut config = Config::default();
        if let Some(n) = self.engine_threads {
            config.engine_threads = n.max(1);
        }
        config.engine_queue = self.engine_queue;
        config.human_pause = !self.instant_computer;
        config.patience.claim_after = Duration::from_secs(self.claim_after);
        config.patience.first_move_within = Duration::from_secs(self.first_move_within);
        config.games_per_address = self.games_per_address;
        config.seats_per_address = self.seats_per_address;
        config.max_games = self.max_games;
        config.arenas_per_address = self.arenas_per_address;
        config.max_arenas = self.max_arenas;
        config.connections_per_address = self.connections_per_address;
        config.unfinished_per_address = self.unfinished_per_address;
        if let Some(most) = self.max_unfinished {
            config.max_unfinished = most.max(1);
        }
        config.trusted_proxies = self.trusted_proxy.clone().unwrap_or_default();
        config.public_origin.clone_from(&self.public_origin);
        config.metrics_token.clone_from(&self.metrics_token);
        config.header_timeout = Duration::from_secs(self.header_timeout.max(1));
        config.arena_schedule = self.arenas.clone();
        config.arena_schedule.utc_offset_minutes = self.arena_utc_offset;
        config
    }
}

/// A Redis URL fit for a log line: `redis://user:secret@host:6379` loses `user:secret@`.
fn without_password(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((_, host)) => format!("{scheme}://{host}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// A listening socket with room for `backlog` connections waiting to be accepted (tokio's
/// default, 1,024, loses connections when hundreds of pages arrive at once).
fn listen(address: SocketAddr, backlog: u32) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(backlog)
}

/// `RUST_LOG` as the operator sets it (`info` by default), except that the WebSocket and HTTP
/// libraries never log below `info`: at `trace` they would print frames, and frames carry seat
/// tokens.
fn log_filter() -> tracing_subscriber::EnvFilter {
    let mut filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    for quiet in [
        "tungstenite=info",
        "tokio_tungstenite=info",
        "hyper=info",
        "hyper_util=info",
        "axum=info",
        "h2=info",
    ] {
        if let Ok(directive) = quiet.parse() {
            filter = filter.add_directive(directive);
        }
    }
    filter
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_option_given_is_the_servers_own_defaults() {
        // Parsed from the words alone: `DARA_LISTEN` plays no part in what is compared here.
        let given = Args::parse_from(["serve"]).config();
        let server = Config::default();
        assert_eq!(given.engine_threads, server.engine_threads);
        assert_eq!(given.engine_queue, server.engine_queue);
        assert_eq!(given.human_pause, server.human_pause);
        assert_eq!(given.patience.claim_after, server.patience.claim_after);
        assert_eq!(given.patience.first_move_within, server.patience.first_move_within);
        assert_eq!(given.games_per_address, server.games_per_address);
        assert_eq!(given.seats_per_address, server.seats_per_address);
        assert_eq!(given.max_games, server.max_games);
        assert_eq!(given.arenas_per_address, server.arenas_per_address);
        assert_eq!(given.max_arenas, server.max_arenas);
        assert_eq!(given.connections_per_address, server.connections_per_address);
        assert_eq!(given.unfinished_per_address, server.unfinished_per_address);
        assert_eq!(given.public_origin, server.public_origin);
        assert_eq!(given.metrics_token, server.metrics_token);
        assert_eq!(given.header_timeout, server.header_timeout);
        // Except the arenas: a test's server has none, `dara serve` the issue's schedule.
        assert_eq!(given.arena_schedule, dara_server::arena::Schedule::issue_default());
    }

    #[test]
    fn the_arenas_are_the_operator_s() {
        let config =
            Args::parse_from(["serve", "--arenas", "", "--arena-utc-offset=-300"]).config();
        assert!(config.arena_schedule.entries.is_empty());
        assert_eq!(config.arena_schedule.utc_offset_minutes, -300);
        let config = Args::parse_from(["serve", "--arenas=daily:18:30 5+0 45m"]).config();
        assert_eq!(config.arena_schedule.entries.len(), 1);
        assert!(Args::try_parse_from(["serve", "--arenas=weekly 5+0 45m"]).is_err());
    }

    #[test]
    fn each_option_reaches_the_server() {
        let config = Args::parse_from([
            "serve",
            "--engine-queue=5",
            "--claim-after=7",
            "--first-move-within=4",
            "--max-games=9",
            "--header-timeout=0",
            "--instant-computer",
        ])
        .config();
        assert_eq!(config.engine_queue, 5);
        assert_eq!(config.patience.claim_after, Duration::from_secs(7));
        assert_eq!(config.patience.first_move_within, Duration::from_secs(4));
        assert_eq!(config.max_games, 9);
        // A header timeout of zero would close every connection at once.
        assert_eq!(config.header_timeout, Duration::from_secs(1));
        assert!(!config.human_pause);
    }

    #[test]
    fn a_redis_password_stays_out_of_the_log() {
        assert_eq!(without_password("redis://:s3cret@10.0.0.5:6379/0"), "redis://10.0.0.5:6379/0");
        assert_eq!(without_password("redis://u:p@h"), "redis://h");
        assert_eq!(without_password("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
    }
}
