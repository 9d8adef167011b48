//! What enforces the limits at run time: per-address rate limits (the
//! `governor` crate), counts of live connections, the import slots, and the
//! origins allowed to open live connections.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::Semaphore;

use crate::config::Limits;
use crate::error::AppError;

/// The address a request came from (unspecified when served without one,
/// as in tests that call the router directly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientIp, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

impl ClientIp {
    /// The client as the per-address limits count it. An IPv6 client gets a
    /// whole /64 network (the least a provider hands out), and can pick any
    /// address in it: counted alone, each would come with limits of its
    /// own. An IPv4 client, or one mapped into IPv6, is its address.
    pub fn limit_key(self) -> IpAddr {
        match self.0 {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
            },
        }
    }
}

/// A rate per address (or per other key, such as an account's name);
/// `None` when unlimited.
#[derive(Debug)]
pub struct Rate<K: Hash + Eq + Clone = IpAddr>(Option<DefaultKeyedRateLimiter<K>>);

impl Rate<IpAddr> {
    /// Counts one request from `ip` (its /64, for IPv6), or says when to
    /// come back.
    pub fn check(&self, ip: ClientIp) -> Result<(), AppError> {
        self.check_key(&ip.limit_key())
    }
}

impl<K: Hash + Eq + Clone> Rate<K> {
    pub fn per_minute(n: u32) -> Rate<K> {
        Rate(NonZeroU32::new(n).map(|n| RateLimiter::keyed(Quota::per_minute(n))))
    }

    /// Counts one request for `key`, or says when to come back.
    pub fn check_key(&self, key: &K) -> Result<(), AppError> {
        let Some(limiter) = &self.0 else {
            return Ok(());
        };
        limiter.check_key(key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AppError::RateLimited(wait.as_secs().max(1))
        })
    }

    fn forget_idle(&self) {
        if let Some(limiter) = &self.0 {
            limiter.retain_recent();
        }
    }
}

/// Live connections, per address (per /64 for IPv6) and in all.
#[derive(Debug, Default)]
struct Sockets {
    per_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// Everything that refuses a client who asks too much.
#[derive(Debug)]
pub struct Guards {
    pub limits: Limits,
    pub creates: Rate,
    pub joins: Rate,
    pub hints: Rate,
    pub imports: Rate,
    pub signups: Rate,
    /// Log-in attempts per address, and per account name (whether or not
    /// it exists, so that the answers do not tell).
    pub logins: Rate,
    pub logins_per_name: Rate<String>,
    pub import_slots: Semaphore,
    sockets: Arc<Mutex<Sockets>>,
}

/// One live connection counted; dropping it frees the place.
#[derive(Debug)]
pub struct SocketPlace {
    /// The address as counted ([`ClientIp::limit_key`]).
    key: IpAddr,
    sockets: Arc<Mutex<Sockets>>,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let mut s = self.sockets.lock().expect("sockets");
        s.total -= 1;
        if let Some(n) = s.per_address.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                s.per_address.remove(&self.key);
            }
        }
    }
}

impl Guards {
    pub fn new(limits: Limits) -> Guards {
        Guards {
            creates: Rate::per_minute(limits.creates_per_minute),
            joins: Rate::per_minute(limits.joins_per_minute),
            hints: Rate::per_minute(limits.hints_per_minute),
            imports: Rate::per_minute(limits.imports_per_minute),
            signups: Rate::per_minute(limits.signups_per_minute),
            logins: Rate::per_minute(limits.logins_per_minute),
            logins_per_name: Rate::per_minute(limits.logins_per_name_per_minute),
            import_slots: Semaphore::new(limits.import_jobs.max(1)),
            sockets: Arc::default(),
            limits,
        }
    }

    /// A place for a new live connection from `ip`, if there is one.
    pub fn open_socket(&self, ip: ClientIp) -> Result<SocketPlace, AppError> {
        let key = ip.limit_key();
        let mut s = self.sockets.lock().expect("sockets");
        let mine = s.per_address.get(&key).copied().unwrap_or(0);
        if s.total >= self.limits.sockets || mine >= self.limits.sockets_per_address {
            return Err(AppError::TooManyConnections);
        }
        s.total += 1;
        *s.per_address.entry(key).or_default() += 1;
        Ok(SocketPlace {
            key,
            sockets: Arc::clone(&self.sockets),
        })
    }

    /// Live connections open now.
    pub fn sockets(&self) -> usize {
        self.sockets.lock().expect("sockets").total
    }

    /// Drops the rate-limit state of addresses that have been quiet.
    pub fn forget_idle(&self) {
        for rate in [
            &self.creates,
            &self.joins,
            &self.hints,
            &self.imports,
            &self.signups,
            &self.logins,
        ] {
            rate.forget_idle();
        }
        self.logins_per_name.forget_idle();
    }

    /// Whether a browser page at the request's `Origin` may open a live
    /// connection. Clients that are not browsers send no `Origin`. A page
    /// served from an address (`http://127.0.0.1:8080`, `http://[::1]`) or
    /// from `localhost` is this machine's; any other name must be listed,
    /// because a name can be made to point here (DNS rebinding) and the
    /// `Host` header would then agree with it.
    pub fn origin_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true;
        };
        let Ok(origin) = origin.to_str() else {
            return false;
        };
        if self
            .limits
            .origins
            .iter()
            .any(|o| o.trim_end_matches('/') == origin)
        {
            return true;
        }
        let Some((scheme, rest)) = origin.split_once("://") else {
            return false;
        };
        if scheme != "http" && scheme != "https" {
            return false;
        }
        let host = match rest.strip_prefix('[') {
            Some(v6) => v6.split_once(']').map_or("", |(h, _)| h),
            None => rest.rsplit_once(':').map_or(rest, |(h, _)| h),
        };
        host == "localhost" || host.parse::<IpAddr>().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with_origin(o: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        h.insert(header::HOST, HeaderValue::from_static("evil.example:8080"));
        h
    }

    #[test]
    fn only_this_machines_addresses_and_listed_origins_may_connect() {
        let guards = Guards::new(Limits {
            origins: vec!["https://palabre.example".into()],
            ..Limits::default()
        });
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://[::1]:8080",
            "http://192.168.1.20",
            "https://palabre.example",
        ] {
            assert!(guards.origin_allowed(&with_origin(ok)), "{ok}");
        }
        // A rebinding page: its Host header agrees with its Origin.
        for bad in [
            "http://evil.example:8080",
            "null",
            "file://",
            "http://127.0.0.1.evil.example",
        ] {
            assert!(!guards.origin_allowed(&with_origin(bad)), "{bad}");
        }
        assert!(guards.origin_allowed(&HeaderMap::new()));
    }

    #[test]
    fn socket_places_are_counted_per_address_and_freed() {
        let guards = Guards::new(Limits {
            sockets_per_address: 2,
            sockets: 3,
            ..Limits::default()
        });
        let a = ClientIp("10.0.0.1".parse().unwrap());
        let b = ClientIp("10.0.0.2".parse().unwrap());
        let first = guards.open_socket(a).unwrap();
        let _second = guards.open_socket(a).unwrap();
        assert!(matches!(
            guards.open_socket(a),
            Err(AppError::TooManyConnections)
        ));
        let _third = guards.open_socket(b).unwrap();
        assert!(matches!(
            guards.open_socket(b),
            Err(AppError::TooManyConnections)
        ));
        drop(first);
        assert!(guards.open_socket(b).is_ok());
    }

    /// Addresses `prefix:0:0:0:n` for n in 1..=count: one /64's worth of hosts.
    fn one_slash_64(prefix: &str, count: u16) -> Vec<ClientIp> {
        (1..=count)
            .map(|n| ClientIp(format!("{prefix}::{n:x}").parse().unwrap()))
            .collect()
    }

    #[test]
    fn one_ipv6_network_of_64_bits_counts_as_one_address() {
        let guards = Guards::new(Limits::default());
        let cap = guards.limits.sockets_per_address;
        let hosts = one_slash_64("2001:db8:1:2", cap as u16 + 1);
        let mut places = Vec::new();
        for ip in &hosts[..cap] {
            places.push(guards.open_socket(*ip).unwrap());
        }
        assert!(
            matches!(
                guards.open_socket(hosts[cap]),
                Err(AppError::TooManyConnections)
            ),
            "socket {} from one /64 is refused",
            cap + 1
        );
        // The next /64 is someone else.
        let next = ClientIp("2001:db8:1:3::1".parse().unwrap());
        assert!(guards.open_socket(next).is_ok());

        let rate = Rate::per_minute(2);
        let hosts = one_slash_64("2001:db8:5:6", 3);
        assert!(rate.check(hosts[0]).is_ok());
        assert!(rate.check(hosts[1]).is_ok());
        assert!(matches!(
            rate.check(hosts[2]),
            Err(AppError::RateLimited(_))
        ));
    }

    #[test]
    fn ipv4_is_limited_per_address_even_inside_ipv6() {
        let rate = Rate::per_minute(1);
        let v4 = ClientIp("192.0.2.7".parse().unwrap());
        let mapped = ClientIp("::ffff:192.0.2.7".parse().unwrap());
        let neighbour = ClientIp("::ffff:192.0.2.8".parse().unwrap());
        assert!(rate.check(v4).is_ok());
        assert!(rate.check(mapped).is_err(), "the same IPv4 client");
        assert!(rate.check(neighbour).is_ok(), "another IPv4 client");
    }

    #[test]
    fn a_rate_refuses_with_a_wait() {
        let rate = Rate::per_minute(2);
        let ip = ClientIp("10.0.0.1".parse().unwrap());
        assert!(rate.check(ip).is_ok());
        assert!(rate.check(ip).is_ok());
        assert!(matches!(rate.check(ip), Err(AppError::RateLimited(s)) if s >= 1));
        assert!(Rate::per_minute(0).check(ip).is_ok());
    }
}
