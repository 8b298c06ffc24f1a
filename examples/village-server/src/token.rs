//! Signed join tokens: who a client is, as the game's backend says, not as the client says.
//!
//! A token is `v1.<claims>.<mac>`: the claims as JSON in base64url (no padding), and an
//! HMAC-SHA-256 of `v1.<claims>` under the key the backend and the room servers share, also
//! base64url. HMAC rather than Ed25519: the backend that signs and the servers that check
//! are run by the same team, one shared secret is simpler to rotate than a key pair, and the
//! RustCrypto `hmac` and `sha2` crates are small and maintained; the check compares in
//! constant time. (With Ed25519 a room server would hold only a public key; choose it when
//! the servers are run by someone who must not be able to mint tokens.)
//!
//! `village-server mint-token` mints one from the command line (the bots and the tests use
//! [`mint`]).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// What a token says about its holder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The account id.
    pub account: u64,
    /// The display name (1 to 24 bytes).
    pub name: String,
    /// Expiry, seconds since the Unix epoch.
    pub exp: u64,
    /// May read the room's diagnostics and reset its meters.
    #[serde(default)]
    pub admin: bool,
    /// May speak on, and hears, the staff channel.
    #[serde(default)]
    pub staff: bool,
    /// The party the backend placed this player in: party chat reaches its members only.
    #[serde(default)]
    pub party: Option<u32>,
}

impl Claims {
    /// A plain player's claims, valid for `ttl_s` seconds from now.
    pub fn player(account: u64, name: &str, ttl_s: u64) -> Claims {
        Claims {
            account,
            name: name.into(),
            exp: now_s() + ttl_s,
            admin: false,
            staff: false,
            party: None,
        }
    }
}

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    /// Not of the form `v1.<claims>.<mac>`, or its claims are not readable.
    Malformed,
    /// The MAC does not match: not signed with this server's key.
    BadSignature,
    /// Signed, but past its expiry.
    Expired,
}

impl TokenError {
    /// The drop counter's code.
    pub fn code(self) -> &'static str {
        match self {
            TokenError::Malformed => "token_malformed",
            TokenError::BadSignature => "token_bad_signature",
            TokenError::Expired => "token_expired",
        }
    }
}

const VERSION: &str = "v1";

fn mac(key: &[u8], signed: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(signed.as_bytes());
    mac
}

/// Signs `claims` with `key`.
pub fn mint(key: &[u8], claims: &Claims) -> String {
    let json = serde_json::to_vec(claims).expect("claims serialize");
    let signed = format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(json));
    let tag = mac(key, &signed).finalize().into_bytes();
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(tag))
}

/// Checks `token` against `key` and the clock (`now_s`, seconds since the epoch).
pub fn verify(key: &[u8], token: &str, now_s: u64) -> Result<Claims, TokenError> {
    let (signed, tag) = token.rsplit_once('.').ok_or(TokenError::Malformed)?;
    let (version, body) = signed.split_once('.').ok_or(TokenError::Malformed)?;
    if version != VERSION {
        return Err(TokenError::Malformed);
    }
    let tag = URL_SAFE_NO_PAD
        .decode(tag)
        .map_err(|_| TokenError::Malformed)?;
    mac(key, signed)
        .verify_slice(&tag)
        .map_err(|_| TokenError::BadSignature)?;
    let json = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| TokenError::Malformed)?;
    let claims: Claims = serde_json::from_slice(&json).map_err(|_| TokenError::Malformed)?;
    if claims.name.is_empty() || claims.name.len() > 24 {
        return Err(TokenError::Malformed);
    }
    if claims.exp <= now_s {
        return Err(TokenError::Expired);
    }
    Ok(claims)
}

/// What a resume token says: the session it resumes, in which room, the one use it is good
/// for, and who held the session (the join token's claims, so rights still end at that
/// token's expiry; `None` for a guest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumeClaims {
    /// The session id.
    pub s: String,
    /// The room's name.
    pub room: String,
    /// Single use: the room accepts only the nonce it issued last for this session.
    pub n: u64,
    /// The join token's claims; `None` for a guest.
    pub who: Option<Claims>,
}

const RESUME_VERSION: &str = "r1";

/// Signs a resume token: `r1.<claims>.<mac>`, the join token's form under its own version
/// tag (so neither kind of token passes for the other), keyed with the server's resume key.
pub fn mint_resume(key: &[u8], claims: &ResumeClaims) -> String {
    let json = serde_json::to_vec(claims).expect("claims serialize");
    let signed = format!("{RESUME_VERSION}.{}", URL_SAFE_NO_PAD.encode(json));
    let tag = mac(key, &signed).finalize().into_bytes();
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(tag))
}

/// Checks a resume token's signature and form (the room checks its nonce and session; the
/// caller checks the join claims' expiry).
pub fn verify_resume(key: &[u8], token: &str) -> Result<ResumeClaims, TokenError> {
    let (signed, tag) = token.rsplit_once('.').ok_or(TokenError::Malformed)?;
    let (version, body) = signed.split_once('.').ok_or(TokenError::Malformed)?;
    if version != RESUME_VERSION {
        return Err(TokenError::Malformed);
    }
    let tag = URL_SAFE_NO_PAD
        .decode(tag)
        .map_err(|_| TokenError::Malformed)?;
    mac(key, signed)
        .verify_slice(&tag)
        .map_err(|_| TokenError::BadSignature)?;
    let json = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| TokenError::Malformed)?;
    serde_json::from_slice(&json).map_err(|_| TokenError::Malformed)
}

/// Seconds since the Unix epoch.
pub fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test key, 32 bytes or any length";

    #[test]
    fn minted_tokens_verify_and_nothing_else_does() {
        let mut claims = Claims::player(7, "Ana", 60);
        claims.admin = true;
        let token = mint(KEY, &claims);
        assert_eq!(verify(KEY, &token, now_s()), Ok(claims.clone()));
        assert_eq!(
            verify(b"another key", &token, now_s()),
            Err(TokenError::BadSignature)
        );
        assert_eq!(
            verify(KEY, &token, claims.exp),
            Err(TokenError::Expired),
            "expired at exp"
        );
        // Claims changed after signing: the MAC no longer matches.
        let (_, rest) = token.split_once('.').unwrap();
        let (_, tag) = rest.split_once('.').unwrap();
        claims.account = 8;
        let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).unwrap());
        let forged = format!("v1.{body}.{tag}");
        assert_eq!(verify(KEY, &forged, now_s()), Err(TokenError::BadSignature));
        for bad in [
            "",
            "v1",
            "v1.x",
            "v2.e30.AAAA",
            "bot-token-0123456789",
            "v1.!!.??",
        ] {
            assert!(verify(KEY, bad, now_s()).is_err(), "{bad}");
        }
    }

    #[test]
    fn resume_tokens_verify_and_are_not_join_tokens() {
        let claims = ResumeClaims {
            s: "abcdefghi".into(),
            room: "village".into(),
            n: 42,
            who: Some(Claims::player(7, "Ana", 60)),
        };
        let token = mint_resume(KEY, &claims);
        assert_eq!(verify_resume(KEY, &token), Ok(claims.clone()));
        assert_eq!(
            verify_resume(b"another key", &token),
            Err(TokenError::BadSignature)
        );
        // A resume token is no join token, and a join token no resume token.
        assert_eq!(verify(KEY, &token, now_s()), Err(TokenError::Malformed));
        let join = mint(KEY, &Claims::player(7, "Ana", 60));
        assert_eq!(verify_resume(KEY, &join), Err(TokenError::Malformed));
        // Another session's id in the claims: the MAC no longer matches.
        let (signed, tag) = token.rsplit_once('.').unwrap();
        let _ = signed;
        let mut other = claims;
        other.s = "zzzzzzzzz".into();
        let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&other).unwrap());
        assert_eq!(
            verify_resume(KEY, &format!("r1.{body}.{tag}")),
            Err(TokenError::BadSignature)
        );
    }

    /// The MAC is HMAC-SHA-256 as RFC 4231 defines it (test case 2), not a home-made one.
    #[test]
    fn mac_is_rfc_4231_hmac_sha256() {
        let tag = mac(b"Jefe", "what do ya want for nothing?")
            .finalize()
            .into_bytes();
        let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
