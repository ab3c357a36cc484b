//! The server under load: its address, the promise that it is this machine's own unless the user
//! says otherwise, and the loopback addresses the driver's sockets leave from.

use core::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Where the server listens, as the driver connects to it.
#[derive(Debug, Clone)]
pub struct Target {
    /// The address connected to.
    pub addr: SocketAddr,
    /// `host:port` as given, for the `Host` header and the socket's URL.
    pub authority: String,
}

/// Why a server address cannot be load-tested.
#[derive(Debug)]
pub enum TargetError {
    /// Not `http://host[:port]`.
    Unreadable(String),
    /// The name did not resolve.
    Unresolved(String, std::io::Error),
    /// A host that is not this machine's, without `--allow-remote`.
    NotLoopback { host: String, addr: IpAddr },
    /// `--spread-sources` with a server the 127.0.0.0/8 addresses cannot reach.
    SpreadNeedsIpv4Loopback(SocketAddr),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Unreadable(why) => write!(f, "--server: {why}"),
            TargetError::Unresolved(host, e) => write!(f, "--server: cannot resolve {host}: {e}"),
            TargetError::NotLoopback { host, addr } => write!(
                f,
                "refusing to load-test {host} ({addr}): not a loopback address (127.0.0.0/8, ::1, \
                 localhost). A load test floods the server it aims at; pass --allow-remote only \
                 for a server you run and may load"
            ),
            TargetError::SpreadNeedsIpv4Loopback(addr) => write!(
                f,
                "--spread-sources binds sockets to 127.0.0.2, 127.0.0.3, ...: they reach a server \
                 on 127.0.0.0/8, not one on {addr}"
            ),
        }
    }
}

impl std::error::Error for TargetError {}

/// Reads `http://host[:port]` (a trailing `/` allowed), resolves the host, and refuses any
/// address outside this machine's loopback unless `allow_remote`.
///
/// # Errors
/// An unreadable address, a name that does not resolve, or a remote server not allowed.
pub async fn resolve(server: &str, allow_remote: bool) -> Result<Target, TargetError> {
    let (host, port) = split(server)?;
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
        .await
        .map_err(|e| TargetError::Unresolved(host.clone(), e))?
        .collect();
    // Every address the name stands for must be loopback: a name that resolves to this machine
    // and elsewhere could send the load elsewhere.
    if !allow_remote {
        if let Some(remote) = addrs.iter().find(|a| !a.ip().is_loopback()) {
            return Err(TargetError::NotLoopback { host, addr: remote.ip() });
        }
    }
    let addr = addrs.iter().find(|a| a.is_ipv4()).or(addrs.first()).copied().ok_or_else(|| {
        TargetError::Unresolved(host.clone(), std::io::ErrorKind::NotFound.into())
    })?;
    let authority = if port == 80 { host } else { format!("{host}:{port}") };
    Ok(Target { addr, authority })
}

/// The host (IPv6 in brackets, as a URL writes it) and port of `http://host[:port][/]`.
fn split(server: &str) -> Result<(String, u16), TargetError> {
    let rest = server.strip_prefix("http://").or_else(|| server.strip_prefix("ws://")).ok_or_else(
        || {
            TargetError::Unreadable(format!(
                "expected http://host:port, not {server:?} (TLS is not supported)"
            ))
        },
    )?;
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.contains('/') || authority.contains('@') || authority.is_empty() {
        return Err(TargetError::Unreadable(format!(
            "expected http://host:port with no path, not {server:?}"
        )));
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (ip, after) = v6
            .split_once(']')
            .ok_or_else(|| TargetError::Unreadable(format!("unclosed [ in {server:?}")))?;
        (ip.to_owned(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (authority.to_owned(), None),
        }
    };
    let port = match port {
        None => 80,
        Some(p) => p
            .parse()
            .map_err(|_| TargetError::Unreadable(format!("bad port {p:?} in {server:?}")))?,
    };
    Ok((host, port))
}

/// The source addresses for `--spread-sources n`: 127.0.0.2 onwards, `n` of them.
///
/// # Errors
/// When the server is not on 127.0.0.0/8 (a socket bound there reaches nothing else).
pub fn spread_sources(target: &Target, n: u32) -> Result<Vec<IpAddr>, TargetError> {
    match target.addr.ip() {
        IpAddr::V4(v4) if v4.is_loopback() => {}
        _ => return Err(TargetError::SpreadNeedsIpv4Loopback(target.addr)),
    }
    // 127.0.0.2 .. 127.255.255.254: far more than anyone needs.
    let n = n.min((1 << 24) - 3);
    Ok((0..n)
        .map(|i| IpAddr::V4(Ipv4Addr::from(u32::from(Ipv4Addr::new(127, 0, 0, 2)) + i)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_with_their_port() {
        assert_eq!(split("http://127.0.0.1:8080").unwrap(), ("127.0.0.1".into(), 8080));
        assert_eq!(split("http://localhost/").unwrap(), ("localhost".into(), 80));
        assert_eq!(split("http://[::1]:9000").unwrap(), ("::1".into(), 9000));
        assert!(split("https://127.0.0.1").is_err());
        assert!(split("http://127.0.0.1:8080/api").is_err());
        assert!(split("127.0.0.1:8080").is_err());
    }

    #[tokio::test]
    async fn only_loopback_unless_allowed() {
        for ok in
            ["http://127.0.0.1:1", "http://127.8.9.10:1", "http://[::1]:1", "http://localhost:1"]
        {
            resolve(ok, false).await.unwrap();
        }
        // Documentation addresses (RFC 5737, 3849): no traffic is sent, the check refuses first.
        for remote in ["http://192.0.2.1:8080", "http://[2001:db8::1]:8080"] {
            let e = resolve(remote, false).await.unwrap_err();
            assert!(e.to_string().contains("--allow-remote"), "{e}");
            resolve(remote, true).await.unwrap();
        }
    }

    #[tokio::test]
    async fn spread_sources_count_up_from_127_0_0_2() {
        let target = resolve("http://127.0.0.1:8080", false).await.unwrap();
        let sources = spread_sources(&target, 300).unwrap();
        assert_eq!(sources[0], IpAddr::from([127, 0, 0, 2]));
        assert_eq!(sources[299], IpAddr::from([127, 0, 1, 45]));
        let v6 = resolve("http://[::1]:8080", false).await.unwrap();
        assert!(spread_sources(&v6, 2).is_err());
    }
}
