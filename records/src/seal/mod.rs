//! The referee's seals, under the service's keys (XChaCha20-Poly1305, RustCrypto):
//!
//! - a **token** is a capability: it says "this holder speaks for this seat (or, the game's
//!   own token, for every seat) of game `game_id`", and holds nothing else. The referee keeps
//!   the game itself in its ledger ([`crate::referee`]); a token proves who asks.
//! - the **sealed truth** is a game's hidden truth (Banqi's layout …) encrypted at rest in the
//!   ledger, so that a reader of the database learns no layout.
//!
//! Both are `v1.<key id>.<base64url(nonce ‖ ciphertext)>` with a random 192-bit nonce. The
//! associated data names the purpose (token or sealed truth) and binds the seal to its game:
//! the kind, the preset, the game id and the seat. A seal from another game, seat or purpose,
//! or altered in any bit, fails authentication: nothing of it is used.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, Generate, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use thiserror::Error;

use crate::core::Rules;

mod file;

pub use file::KeyFile;

/// The keys a service seals with (the first) and opens with (any, by key id): a key can be
/// rotated by putting the new one first and keeping the old one until its tokens are done.
#[derive(Clone)]
pub struct Keys {
    keys: Vec<(String, XChaCha20Poly1305)>,
}

impl std::fmt::Debug for Keys {
    /// Key ids only: a key never reaches a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.keys.iter().map(|(id, _)| id.as_str()).collect();
        write!(f, "Keys({ids:?})")
    }
}

/// What a sealed state belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding<'a> {
    /// The kind of game (`banqi`).
    pub game: &'a str,
    /// The preset's name.
    pub preset: &'a str,
    /// The game's id, from its deal.
    pub game_id: &'a str,
    /// The seat a seat token speaks for (`player1` …); none for the game's own token.
    pub seat: Option<&'a str>,
}

/// What a seal is for: a token never opens as a sealed truth, nor the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Token,
    Truth,
    Ticket,
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    #[error(
        "a seal key is `id:key` with the key as 32 bytes in base64 (e.g. `2026a:$(head -c32 /dev/urandom | base64)`); keys are separated by commas, the first seals: {0}"
    )]
    Format(String),
    /// A key that is not random: all zeros, a counter, a short pattern repeated.
    #[error(
        "key {0:?} is not random enough to seal with (all zeros, a counter or a repeated pattern): make one with `head -c32 /dev/urandom | base64`"
    )]
    Weak(String),
    /// The key file beside the store cannot be read or written.
    #[error("the seal key file {path}: {message}")]
    File { path: String, message: String },
}

/// Why a token cannot be opened. Nothing of a token that fails is used.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    #[error("the token is not a sealed state of this service (expected v1.<key id>.<data>)")]
    Malformed,
    #[error("the token was sealed with key {0:?}, which this service does not have")]
    UnknownKey(String),
    #[error(
        "the token does not open: it was altered, or it belongs to another game, preset or deal"
    )]
    Rejected,
    /// A stream ticket past its time.
    #[error("the ticket expired: ask for another (POST /v1/stream-ticket) with the token")]
    Expired,
}

const NONCE: usize = 24;

impl Keys {
    /// Keys from `id:base64key[,id:base64key…]` (or one per line; a line starting with `#`
    /// is a comment); the first seals. A key that is not random ([`KeyError::Weak`]) is
    /// refused.
    pub fn parse(spec: &str) -> Result<Keys, KeyError> {
        let mut keys = Vec::new();
        for part in spec
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(|line| line.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (id, key) = part
                .split_once(':')
                .ok_or_else(|| KeyError::Format("a key without its id".into()))?;
            if id.is_empty()
                || id.len() > 32
                || !id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                return Err(KeyError::Format(format!(
                    "the key id {id:?} must be 1–32 letters, digits, - or _"
                )));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(key.trim())
                .or_else(|_| URL_SAFE_NO_PAD.decode(key.trim()))
                .map_err(|_| KeyError::Format(format!("key {id:?} is not base64")))?;
            let cipher = XChaCha20Poly1305::new_from_slice(&bytes).map_err(|_| {
                KeyError::Format(format!("key {id:?} has {} bytes, not 32", bytes.len()))
            })?;
            if looks_weak(&bytes) {
                return Err(KeyError::Weak(id.to_owned()));
            }
            if keys.iter().any(|(k, _)| k == id) {
                return Err(KeyError::Format(format!("key id {id:?} twice")));
            }
            keys.push((id.to_owned(), cipher));
        }
        if keys.is_empty() {
            return Err(KeyError::Format("no key".into()));
        }
        Ok(Keys { keys })
    }

    /// One fresh random key (id `ephemeral`): its tokens die with the process.
    pub fn random() -> Keys {
        let key = chacha20poly1305::Key::generate();
        Keys {
            keys: vec![("ephemeral".to_owned(), XChaCha20Poly1305::new(&key))],
        }
    }

    /// These keys, then those of `older` whose ids these do not have: they open what they
    /// sealed (a key file's games after a key was configured), and never seal.
    pub fn with_openers(mut self, older: Keys) -> Keys {
        for (id, cipher) in older.keys {
            if !self.keys.iter().any(|(k, _)| *k == id) {
                self.keys.push((id, cipher));
            }
        }
        self
    }

    /// The ids of every key, the sealing one first.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|(id, _)| id.as_str())
    }

    /// The id of the key that seals.
    pub fn current_id(&self) -> &str {
        &self.keys[0].0
    }

    /// A token for `binding`: the capability to speak for its seat (or, with no seat, for
    /// every seat) of its game.
    pub fn token(&self, binding: Binding) -> String {
        self.seal_bytes(Purpose::Token, binding, b"")
    }

    /// Whether `token` is this service's token for `binding`.
    pub fn check_token(&self, token: &str, binding: Binding) -> Result<(), TokenError> {
        self.open_bytes(Purpose::Token, token, binding).map(|_| ())
    }

    /// A stream ticket for `binding`'s game: `token` (a seat's or the game's) sealed with the
    /// moment it expires (Unix milliseconds). A browser's `EventSource` cannot send headers,
    /// so the ticket travels in a URL, where logs may keep it: it opens a stream of what the
    /// token's seat may see, only until it expires, and plays nothing; the token itself never
    /// travels in a URL.
    pub fn ticket(&self, binding: Binding, token: &str, expires_ms: i64) -> String {
        let mut plain = expires_ms.to_le_bytes().to_vec();
        plain.extend_from_slice(token.as_bytes());
        self.seal_bytes(Purpose::Ticket, binding, &plain)
    }

    /// The token and expiry a ticket for `binding` holds.
    pub fn open_ticket(&self, ticket: &str, binding: Binding) -> Result<(String, i64), TokenError> {
        let plain = self.open_bytes(Purpose::Ticket, ticket, binding)?;
        let (expires, token) = plain.split_at_checked(8).ok_or(TokenError::Rejected)?;
        let expires = i64::from_le_bytes(expires.try_into().map_err(|_| TokenError::Rejected)?);
        let token = String::from_utf8(token.to_vec()).map_err(|_| TokenError::Rejected)?;
        Ok((token, expires))
    }

    /// Seals `hidden` of game `G` for `binding` (at rest: the referee's ledger).
    pub fn seal<G: Rules>(&self, binding: Binding, hidden: &G::Hidden) -> String {
        let plain = serde_json::to_vec(&G::hidden_value(hidden)).expect("a value serialises");
        self.seal_bytes(Purpose::Truth, binding, &plain)
    }

    /// Opens the sealed truth of game `G` for `binding`.
    pub fn open<G: Rules>(&self, sealed: &str, binding: Binding) -> Result<G::Hidden, TokenError> {
        let plain = self.open_bytes(Purpose::Truth, sealed, binding)?;
        // An authentic seal holds what this service sealed: a failure here is a bug.
        let value: serde_json::Value =
            serde_json::from_slice(&plain).map_err(|_| TokenError::Rejected)?;
        G::parse_hidden(&value).map_err(|_| TokenError::Rejected)
    }

    fn seal_bytes(&self, purpose: Purpose, binding: Binding, plain: &[u8]) -> String {
        let (id, cipher) = &self.keys[0];
        let nonce = XNonce::generate();
        let aad = associated_data(purpose, id, binding);
        let sealed = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plain,
                    aad: &aad,
                },
            )
            .expect("a short message seals");
        let mut bytes = Vec::with_capacity(NONCE + sealed.len());
        bytes.extend_from_slice(&nonce);
        bytes.extend_from_slice(&sealed);
        format!("v1.{id}.{}", URL_SAFE_NO_PAD.encode(bytes))
    }

    fn open_bytes(
        &self,
        purpose: Purpose,
        token: &str,
        binding: Binding,
    ) -> Result<Vec<u8>, TokenError> {
        let mut parts = token.splitn(3, '.');
        let (Some("v1"), Some(id), Some(data)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(TokenError::Malformed);
        };
        let bytes = URL_SAFE_NO_PAD
            .decode(data)
            .map_err(|_| TokenError::Malformed)?;
        if bytes.len() < NONCE + 16 {
            return Err(TokenError::Malformed);
        }
        let cipher = self
            .keys
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, c)| c)
            .ok_or_else(|| TokenError::UnknownKey(id.chars().take(32).collect()))?;
        let nonce = XNonce::try_from(&bytes[..NONCE]).map_err(|_| TokenError::Malformed)?;
        let aad = associated_data(purpose, id, binding);
        cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &bytes[NONCE..],
                    aad: &aad,
                },
            )
            .map_err(|_| TokenError::Rejected)
    }
}

/// Whether 32 key bytes look made rather than drawn: few distinct bytes (all zeros, a short
/// pattern repeated), or few distinct steps between neighbours (a counter, an arithmetic run).
/// 32 random bytes have about 30 distinct values and 29 distinct steps; fewer than 16 of
/// either happens by chance with a probability far below 2^-100.
fn looks_weak(bytes: &[u8]) -> bool {
    let distinct = |values: &mut dyn Iterator<Item = u8>| {
        let mut seen = [false; 256];
        values
            .filter(|&v| !std::mem::replace(&mut seen[v as usize], true))
            .count()
    };
    let values = distinct(&mut bytes.iter().copied());
    let steps = distinct(&mut bytes.windows(2).map(|w| w[1].wrapping_sub(w[0])));
    values < 16 || steps < 16
}

fn associated_data(purpose: Purpose, key_id: &str, b: Binding) -> Vec<u8> {
    // NUL-separated: no field holds a NUL, so no two bindings give the same bytes (a seat
    // token's data has one field more: it never opens as the game's token, nor the reverse).
    let purpose = match purpose {
        Purpose::Token => "anqi-token-v2",
        Purpose::Truth => "anqi-truth-v2",
        Purpose::Ticket => "anqi-ticket-v1",
    };
    let mut ad = format!(
        "{purpose}\0{key_id}\0{}\0{}\0{}",
        b.game, b.preset, b.game_id
    );
    if let Some(seat) = b.seat {
        ad.push('\0');
        ad.push_str(seat);
    }
    ad.into_bytes()
}

/// A new game's id: 128 random bits in hex, from the operating system's generator (the one
/// the AEAD crate draws keys and nonces from), so that ids cannot be guessed or repeated.
pub fn new_game_id() -> String {
    random_bytes()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// 32 bytes from the operating system's generator: the seed of a random deal.
pub fn random_bytes() -> [u8; 32] {
    chacha20poly1305::Key::generate().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::banqi::{Banqi, Layout};
    use rand::SeedableRng;

    fn layout() -> Layout {
        Layout::shuffled(&mut rand::rngs::StdRng::seed_from_u64(3))
    }

    const BINDING: Binding = Binding {
        game: "banqi",
        preset: "tcga",
        game_id: "0123abcd",
        seat: None,
    };

    #[test]
    fn a_token_round_trips_and_hides_the_layout() {
        let keys = Keys::random();
        let token = keys.seal::<Banqi>(BINDING, &layout());
        assert!(token.starts_with("v1.ephemeral."));
        assert!(!token.contains(&layout().to_string()));
        assert_eq!(keys.open::<Banqi>(&token, BINDING), Ok(layout()));
        // Sealed twice, two different tokens (random nonces).
        assert_ne!(keys.seal::<Banqi>(BINDING, &layout()), token);
    }

    #[test]
    fn every_bit_flip_is_rejected() {
        let keys = Keys::random();
        let token = keys.seal::<Banqi>(BINDING, &layout());
        let data = token.rsplit('.').next().unwrap();
        let bytes = URL_SAFE_NO_PAD.decode(data).unwrap();
        for i in 0..bytes.len() * 8 {
            let mut flipped = bytes.clone();
            flipped[i / 8] ^= 1 << (i % 8);
            let altered = format!("v1.ephemeral.{}", URL_SAFE_NO_PAD.encode(&flipped));
            assert_eq!(
                keys.open::<Banqi>(&altered, BINDING),
                Err(TokenError::Rejected),
                "bit {i}"
            );
        }
        for cut in [0, 10, data.len() / 2, data.len() - 1] {
            let truncated = format!("v1.ephemeral.{}", &data[..cut]);
            assert!(
                keys.open::<Banqi>(&truncated, BINDING).is_err(),
                "cut at {cut}"
            );
        }
        for bad in [
            "",
            "v1",
            "v2.ephemeral.AAAA",
            "v1.ephemeral.!!!!",
            "v1.other.AAAA",
        ] {
            assert!(keys.open::<Banqi>(bad, BINDING).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_token_is_bound_to_its_game_preset_and_deal() {
        let keys = Keys::random();
        let token = keys.seal::<Banqi>(BINDING, &layout());
        for other in [
            Binding {
                game_id: "0123abce",
                ..BINDING
            },
            Binding {
                preset: "olympiad",
                ..BINDING
            },
            Binding {
                game: "three-kingdoms",
                ..BINDING
            },
            Binding {
                seat: Some("player1"),
                ..BINDING
            },
        ] {
            assert_eq!(keys.open::<Banqi>(&token, other), Err(TokenError::Rejected));
        }
        // Another service's key.
        assert!(matches!(
            Keys::random().open::<Banqi>(&token, BINDING),
            Err(TokenError::Rejected)
        ));
    }

    #[test]
    fn a_token_is_a_capability_for_its_seat_only() {
        let keys = Keys::random();
        let seat = |s| Binding {
            seat: Some(s),
            ..BINDING
        };
        let token = keys.token(seat("player1"));
        assert_eq!(keys.check_token(&token, seat("player1")), Ok(()));
        for other in [seat("player2"), BINDING] {
            assert_eq!(keys.check_token(&token, other), Err(TokenError::Rejected));
        }
        assert_eq!(
            keys.check_token(&keys.token(BINDING), seat("player1")),
            Err(TokenError::Rejected)
        );
        // A sealed truth is no token, and a token opens no truth.
        let sealed = keys.seal::<Banqi>(BINDING, &layout());
        assert_eq!(
            keys.check_token(&sealed, BINDING),
            Err(TokenError::Rejected)
        );
        assert_eq!(
            keys.open::<Banqi>(&keys.token(BINDING), BINDING),
            Err(TokenError::Rejected)
        );
    }

    #[test]
    fn keys_rotate() {
        let old = Keys::parse("k2025:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=").unwrap();
        let token = old.seal::<Banqi>(BINDING, &layout());
        let both = Keys::parse(
            "k2026:QbB1dHIkYeexfsYq/M9UQ7vyBdXxZS2TNpCphnsR/f8=,k2025:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=",
        )
        .unwrap();
        assert_eq!(both.current_id(), "k2026");
        assert_eq!(both.open::<Banqi>(&token, BINDING), Ok(layout()));
        assert!(
            both.seal::<Banqi>(BINDING, &layout())
                .starts_with("v1.k2026.")
        );
        let new_only = Keys::parse("k2026:QbB1dHIkYeexfsYq/M9UQ7vyBdXxZS2TNpCphnsR/f8=").unwrap();
        assert_eq!(
            new_only.open::<Banqi>(&token, BINDING),
            Err(TokenError::UnknownKey("k2025".into()))
        );
        for bad in [
            "",
            "nokey",
            "id:notbase64!",
            "id:AAAA",
            "bad id:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=",
        ] {
            assert!(Keys::parse(bad).is_err(), "{bad:?}");
        }
        assert!(!format!("{both:?}").contains("LP34"), "keys never print");
    }

    #[test]
    fn keys_that_are_not_random_are_refused() {
        use base64::engine::general_purpose::STANDARD;
        let weak = |bytes: Vec<u8>| Keys::parse(&format!("k:{}", STANDARD.encode(bytes)));
        for bytes in [
            vec![0u8; 32],
            vec![0xff; 32],
            (0..32).collect(),
            (0..32).rev().collect(),
            (0..32).map(|i| i * 7).collect(),
            b"passwordpasswordpasswordpassword".to_vec(),
            (0..32)
                .map(|i| [3, 141, 59, 26, 5, 35, 89, 79][i % 8])
                .collect(),
        ] {
            assert_eq!(
                weak(bytes.clone()).map(|_| ()),
                Err(KeyError::Weak("k".into())),
                "{bytes:?}"
            );
        }
        // Drawn keys pass: ten thousand of them.
        for _ in 0..10_000 {
            assert!(weak(random_bytes().to_vec()).is_ok());
        }
        // A key file's comments are skipped.
        let text = "# made by a test, with a comma, here\nk1:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=\n";
        assert_eq!(Keys::parse(text).unwrap().current_id(), "k1");
    }

    #[test]
    fn older_keys_open_and_never_seal() {
        let configured = Keys::parse("new:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=").unwrap();
        let file = Keys::random();
        let token = file.token(BINDING);
        let both = configured.with_openers(file);
        assert_eq!(both.ids().collect::<Vec<_>>(), ["new", "ephemeral"]);
        assert_eq!(both.check_token(&token, BINDING), Ok(()));
        assert!(both.token(BINDING).starts_with("v1.new."));
    }
}
