//! Which webhooks the server may call: `http://` and `https://` URLs whose host resolves only to public
//! addresses. Private, loopback, link-local, multicast, unspecified, broadcast, shared
//! (CGNAT) and documentation addresses are refused unless the operator allows them
//! (`[server] push_allow = ["127.0.0.1"]`: addresses or host names). The check is made on
//! the addresses the host resolves to, when the config is set and again at every delivery,
//! and the delivery connects only to the addresses that passed (no second resolution, so a
//! rebinding name cannot slip through); redirects are not followed.

use axum::http::Uri;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// A checked webhook URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Host as written.
    pub host: String,
    /// Port (80 or 443 by default).
    pub port: u16,
}

/// Whether `ip` is an address on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64)
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let seg = v6.segments();
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (seg[0] & 0xfe00) == 0xfc00
                || (seg[0] & 0xffc0) == 0xfe80
                || (seg[0] == 0x2001 && seg[1] == 0x0db8))
        }
    }
}

/// Parse and check the form of a webhook URL.
pub fn parse(url: &str) -> Result<Target, String> {
    let uri: Uri = url
        .parse()
        .map_err(|_| format!("the push notification url {url:?} is not a URL"))?;
    let default_port = match uri.scheme_str() {
        Some("http") => 80,
        Some("https") => 443,
        _ => {
            return Err(format!(
                "the push notification url {url:?} must be http:// or https://"
            ))
        }
    };
    let host = uri
        .host()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| format!("the push notification url {url:?} has no host"))?;
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    Ok(Target {
        host,
        port: uri.port_u16().unwrap_or(default_port),
    })
}

/// The addresses `host:port` resolves to that the server may call: all of them must be
/// public or allowed, else the target is refused (a name with one private address is not
/// half-trusted).
pub fn resolve(host: &str, port: u16, allow: &[String]) -> Result<Vec<SocketAddr>, String> {
    let host_allowed = allow.iter().any(|a| a.eq_ignore_ascii_case(host));
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("the push notification host {host:?} does not resolve: {e}"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!(
            "the push notification host {host:?} has no address"
        ));
    }
    for a in &addrs {
        let ip = a.ip();
        let allowed = host_allowed || allow.iter().any(|x| x.parse::<IpAddr>() == Ok(ip));
        if !allowed && !is_public(ip) {
            return Err(format!(
                "the push notification host {host:?} resolves to {ip}, which is not a public address; the operator can allow it with [server] push_allow"
            ));
        }
    }
    Ok(addrs)
}

/// Check a webhook URL when a config is set.
pub fn check(url: &str, allow: &[String]) -> Result<Target, String> {
    let t = parse(url)?;
    resolve(&t.host, t.port, allow)?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_refused_unless_allowed() {
        for bad in [
            "http://127.0.0.1:9/x",
            "http://10.1.2.3/",
            "http://192.168.0.1/",
            "http://172.16.5.5/",
            "http://169.254.169.254/latest/meta-data",
            "http://0.0.0.0/",
            "http://224.0.0.1/",
            "http://100.64.0.1/",
            "http://[::1]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://localhost/",
        ] {
            assert!(check(bad, &[]).is_err(), "{bad}");
        }
        assert!(check("http://127.0.0.1:9/x", &["127.0.0.1".into()]).is_ok());
        assert!(check("http://localhost:9/x", &["localhost".into()]).is_ok());
        assert!(is_public("8.8.8.8".parse().unwrap()));
        assert!(is_public("2606:4700::1111".parse().unwrap()));
    }

    #[test]
    fn only_http_urls_with_a_host() {
        assert!(parse("ftp://example.org/").is_err());
        assert_eq!(parse("https://example.org/").unwrap().port, 443);
        assert!(parse("not a url").is_err());
        assert!(parse("/relative").is_err());
        assert_eq!(
            parse("http://example.org:8080/hook").unwrap(),
            Target {
                host: "example.org".into(),
                port: 8080
            }
        );
    }
}
