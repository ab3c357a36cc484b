//! `dara serve` (also what `dara` alone does): the Arcade, on the web.

use std::net::SocketAddr;

use anyhow::Context;
use clap::Parser;

/// Serve the Arcade: play Dara in the browser against the computer, a friend or anyone.
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
    #[arg(long, default_value_t = 64)]
    pub engine_queue: usize,
    /// The computer answers at once, without the short human-looking pause of the low levels
    /// (for tests and demonstrations).
    #[arg(long)]
    pub instant_computer: bool,
    /// Seconds a player may be gone before the opponent may claim the game.
    #[arg(long, default_value_t = 30)]
    pub claim_after: u64,
    /// Most games one client address may hold at once (games it started, until they are
    /// forgotten). Behind a reverse proxy every client has the proxy's address: raise it there.
    #[arg(long, default_value_t = 20)]
    pub games_per_address: usize,
}

impl Default for Args {
    fn default() -> Args {
        // `dara` with no subcommand: the same defaults, including `DARA_LISTEN`.
        Args::parse_from(["serve"])
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let address = listener.local_addr()?;
        println!("Dara is being served at http://{address}/ (Ctrl-C to stop)");
        let mut config = dara_server::Config::default();
        if let Some(n) = args.engine_threads {
            config.engine_threads = n.max(1);
        }
        config.engine_queue = args.engine_queue;
        config.human_pause = !args.instant_computer;
        config.claim_after = std::time::Duration::from_secs(args.claim_after);
        config.games_per_address = args.games_per_address;
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
        dara_server::run(listener, config, shutdown).await.context("serving")
    })
}
