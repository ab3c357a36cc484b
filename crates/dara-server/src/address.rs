//! Who is asking: the client address that games, seats and connections are counted against,
//! so that one client cannot fill the server for everyone else.
//!
//! An IPv6 client usually holds a whole /64 network and can pick any address in it, so such
//! an address counts as its /64. IPv4 addresses (also when written as IPv6) count as themselves.
//! Behind a reverse proxy every connection comes from the proxy: for a proxy the operator names
//! as trusted (`--trusted-proxy`), the client is read from `X-Forwarded-For`; from anyone else
//! that header means nothing, since anyone can write it.

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
    /// untrusted hop were written by the client and prove nothing).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.contains(peer) {
            return requester(peer);
        }
        let hops = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        for hop in hops.iter().rev() {
            let Ok(ip) = hop.parse::<IpAddr>() else {
                // A hop a trusted proxy would never write: stop believing the header here.
                break;
            };
            if !self.contains(ip) {
                return requester(ip);
            }
        }
        requester(peer)
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
        Ok(Client(state.as_ref().client(peer, &parts.headers)))
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
        let spoofed = forwarded("203.0.113.9");
        // From anyone else the header changes nothing.
        assert_eq!(proxies.client(ip("198.51.100.7"), &spoofed), ip("198.51.100.7"));
        assert_eq!(proxies.client(ip("10.1.2.3"), &spoofed), ip("203.0.113.9"));
        assert_eq!(proxies.client(ip("::1"), &spoofed), ip("203.0.113.9"));
        // What the client wrote itself, left of the hop the proxy saw, proves nothing.
        let chain = forwarded("1.2.3.4, 198.51.100.7, 10.0.0.5");
        assert_eq!(proxies.client(ip("10.1.2.3"), &chain), ip("198.51.100.7"));
        // No header, or nothing readable: the proxy itself.
        assert_eq!(proxies.client(ip("10.1.2.3"), &HeaderMap::new()), ip("10.1.2.3"));
        assert_eq!(proxies.client(ip("10.1.2.3"), &forwarded("garbage")), ip("10.1.2.3"));
        // An IPv6 client counts as its /64 here too.
        assert_eq!(
            proxies.client(ip("10.1.2.3"), &forwarded("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert!("not-a-net".parse::<TrustedProxies>().is_err());
    }

    #[test]
    fn ipv4_counts_as_itself_however_written() {
        assert_eq!(requester(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(requester(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }
}
