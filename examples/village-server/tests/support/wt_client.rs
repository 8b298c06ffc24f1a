//! A `wtransport` client that trusts a test server's development certificate by its hash,
//! as a browser does with `serverCertificateHashes`; shared by the WebTransport tests.

use village_server::Server;
use wtransport::tls::Sha256Digest;
use wtransport::{ClientConfig, Endpoint};

/// A client endpoint trusting `s`'s certificate (its SHA-256 hash, hex) and nothing else.
pub fn endpoint(s: &Server) -> Endpoint<wtransport::endpoint::endpoint_side::Client> {
    let hex = s.cert_hash().expect("WebTransport is on");
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let config = ClientConfig::builder()
        .with_bind_default()
        .with_server_certificate_hashes([Sha256Digest::new(bytes.try_into().unwrap())])
        .build();
    Endpoint::client(config).unwrap()
}
