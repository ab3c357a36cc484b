//! Who asked for a game: the client address that each game is counted against, so that one
//! client cannot fill the server's memory with games nobody plays.
//!
//! An IPv6 client usually holds a whole /64 network and can pick any address in it, so such
//! an address counts as its /64. IPv4 addresses (also when written as IPv6) count as themselves.

use std::net::{IpAddr, Ipv6Addr};

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

    #[test]
    fn ipv4_counts_as_itself_however_written() {
        assert_eq!(requester(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(requester(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }
}
