//! Who is asking: the client address that games, seats and connections are counted against,
//! so that one client cannot fill the server for everyone else.
//!
//! An IPv6 client usually holds a whole /64 network and can pick any address in it, so such
//! an address counts as its /64. IPv4 addresses (also when written as IPv6) count as themselves.
//! Behind a reverse proxy every connection comes from the proxy: for a proxy the operator names
//! as trusted (`--trusted-proxy`), the client is read from `X-Forwarded-For`; from anyone else
//! that header means nothing, since anyone can write it. A trusted proxy that forwards a header
//! whose last hop does not read as an address is refused rather than guessed at: counted
//! against the proxy, every such request would share one client's caps; counted by the text,
//! anyone could write a new client each time.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use ipnet::IpNet;

use crate::error::AppError;

/// The networks of the reverse proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Whether `ip` is one of the trusted proxies.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = unmapped(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Adds a network (`10.0.0.0/8`, `::1/128`, or a single address).
    pub fn push(&mut self, net: IpNet) {
        self.0.push(net);
    }

    /// The client behind a request that came from `peer`: `peer` itself, unless `peer` is a
    /// trusted proxy, when it is the rightmost address of `X-Forwarded-For` that is not a
    /// trusted proxy (each proxy appends the address it heard from; the ones left of the last
    /// untrusted hop were written by the client and prove nothing). A trusted proxy's request
    /// with no such header is its own (a health check, a script on that machine); one whose
    /// every hop is a trusted proxy comes from the first of them.
    ///
    /// # Errors
    /// When a hop that a trusted proxy wrote does not read as an address (`1.2.3.4`, `::1`,
    /// with or without a port, `[::1]`): the proxy does not say who its client is.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Result<IpAddr, UnreadableHop> {
        if !self.contains(peer) {
            return Ok(requester(peer));
        }
        let values: Vec<_> = headers.get_all("x-forwarded-for").iter().collect();
        if values.is_empty() {
            return Ok(requester(peer));
        }
        let mut hops = Vec::new();
        for value in values {
            let text = value.to_str().map_err(|_| UnreadableHop::new("(not text)"))?;
            hops.extend(text.split(',').map(str::trim));
        }
        let mut first_trusted = peer;
        for hop in hops.iter().rev() {
            let ip = hop_address(hop).ok_or_else(|| UnreadableHop::new(hop))?;
            if !self.contains(ip) {
                return Ok(requester(ip));
            }
            first_trusted = ip;
        }
        Ok(requester(first_trusted))
    }
}

impl FromStr for TrustedProxies {
    type Err = ipnet::AddrParseError;

    /// Networks separated by commas; a bare address is its own network.
    fn from_str(text: &str) -> Result<TrustedProxies, Self::Err> {
        let mut proxies = TrustedProxies::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let net = match part.parse::<IpAddr>() {
                Ok(ip) => IpNet::from(ip),
                Err(_) => part.parse::<IpNet>()?,
            };
            proxies.push(net);
        }
        Ok(proxies)
    }
}

/// A hop of `X-Forwarded-For` as an address: bare, with a port (`1.2.3.4:5678`,
/// `[::1]:443`, as some load balancers write it), or in brackets.
fn hop_address(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<SocketAddr>().ok().map(|a| a.ip())).or_else(
        || hop.strip_prefix('[')?.strip_suffix(']')?.parse::<Ipv6Addr>().ok().map(IpAddr::V6),
    )
}

/// A hop of `X-Forwarded-For`, written by a trusted proxy, that names no address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableHop(String);

impl UnreadableHop {
    /// The hop as read, cut short: it is sent back in the answer.
    fn new(hop: &str) -> UnreadableHop {
        UnreadableHop(hop.chars().take(60).collect())
    }
}

impl fmt::Display for UnreadableHop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the X-Forwarded-For that a trusted proxy forwarded does not end with the client's \
             address ({:?} is not one); the proxy must append the address it heard from",
            self.0
        )
    }
}

impl std::error::Error for UnreadableHop {}

fn unmapped(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The client a request counts against (see [`TrustedProxies::client`]), read with the
/// proxies that the server's state `S` trusts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Client(pub IpAddr);

impl<S: AsRef<TrustedProxies> + Send + Sync> FromRequestParts<S> for Client {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Client, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer.ip())
            .ok_or(AppError::NotFound)?;
        let client = state.as_ref().client(peer, &parts.headers);
        Ok(Client(client.map_err(|e| AppError::bad(e.to_string()))?))
    }
}

/// The address a game is counted against, for a request from `peer`.
pub fn requester(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_ipv6_network_counts_as_one_client() {
        assert_eq!(requester(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(requester(ip("2001:db8:1:2:bbbb::7")), ip("2001:db8:1:2::"));
        assert_ne!(requester(ip("2001:db8:1:3::1")), ip("2001:db8:1:2::"));
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn only_a_trusted_proxy_is_believed() {
        let proxies: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
        let client = |peer: &str, headers: &HeaderMap| proxies.client(ip(peer), headers).unwrap();
        let spoofed = forwarded("203.0.113.9");
        // From anyone else the header changes nothing, junk or not.
        assert_eq!(client("198.51.100.7", &spoofed), ip("198.51.100.7"));
        assert_eq!(client("198.51.100.7", &forwarded("garbage")), ip("198.51.100.7"));
        assert_eq!(client("10.1.2.3", &spoofed), ip("203.0.113.9"));
        assert_eq!(client("::1", &spoofed), ip("203.0.113.9"));
        // What the client wrote itself, left of the hop the proxy saw, proves nothing.
        let chain = forwarded("1.2.3.4, 198.51.100.7, 10.0.0.5");
        assert_eq!(client("10.1.2.3", &chain), ip("198.51.100.7"));
        assert_eq!(client("10.1.2.3", &forwarded("garbage, 198.51.100.7")), ip("198.51.100.7"));
        // No header: the proxy's own request. Only trusted hops: the first of them.
        assert_eq!(client("10.1.2.3", &HeaderMap::new()), ip("10.1.2.3"));
        assert_eq!(client("10.1.2.3", &forwarded("10.9.9.9, 10.0.0.5")), ip("10.9.9.9"));
        // An IPv6 client counts as its /64 here too.
        assert_eq!(client("10.1.2.3", &forwarded("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert!("not-a-net".parse::<TrustedProxies>().is_err());
    }

    #[test]
    fn a_hop_may_carry_a_port_or_brackets() {
        let proxies: TrustedProxies = "10.0.0.0/8".parse().unwrap();
        let client = |hop| proxies.client(ip("10.1.2.3"), &forwarded(hop));
        assert_eq!(client("203.0.113.9:4711"), Ok(ip("203.0.113.9")));
        assert_eq!(client("[2001:db8:1:2::9]:443"), Ok(ip("2001:db8:1:2::")));
        assert_eq!(client("[2001:db8:1:2::9]"), Ok(ip("2001:db8:1:2::")));
    }

    #[test]
    fn a_trusted_proxy_that_names_no_client_is_refused() {
        let proxies: TrustedProxies = "10.0.0.0/8".parse().unwrap();
        let client = |hop| proxies.client(ip("10.1.2.3"), &forwarded(hop));
        for junk in ["garbage", "", " , ", "unknown", "300.1.2.3", "203.0.113.9, x", "10.0.0.5, x"]
        {
            assert!(client(junk).is_err(), "{junk:?}");
        }
        let long = "x".repeat(500);
        let refused = client(&long).unwrap_err().to_string();
        assert!(refused.starts_with("the X-Forwarded-For that a trusted proxy forwarded"));
        assert!(refused.len() < 250, "the hop is cut short: {refused}");
    }

    #[test]
    fn ipv4_counts_as_itself_however_written() {
        assert_eq!(requester(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(requester(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }
}
