//! Pairing: the extension and the Bridge prove to each other that they hold the same
//! per-install token, without sending it. Each side sends a fresh nonce; the other answers
//! with HMAC-SHA256(token, "<role>:<nonce>") in hex. The extension refuses a Bridge that
//! cannot answer (a process squatting the port), the Bridge refuses an extension that
//! cannot (any other extension or program). The token reaches the extension once, pasted
//! into its options page (`pcc pair` prints it).
//!
//! Owns: the proof. Must never: send or log the token, or compare secrets in variable time.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// HMAC-SHA256(token, "<role>:<nonce>") as lowercase hex.
pub fn proof(token: &str, role: &str, nonce: &str) -> String {
    hmac_hex(token, &format!("{role}:{nonce}"))
}

fn hmac_hex(key: &str, data: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key.as_bytes()) else { return String::new() };
    mac.update(data.as_bytes());
    mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `given` is the proof of `role` for `nonce` (constant time).
pub fn verify(token: &str, role: &str, nonce: &str, given: &str) -> bool {
    same(given, &proof(token, role, nonce))
}

/// Constant-time equality of two secrets' texts.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_are_hmac_sha256_and_bound_to_role_and_nonce() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        assert_eq!(hmac_hex("Jefe", "what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assert_eq!(proof("k", "bridge", "n"), hmac_hex("k", "bridge:n"));
        let p = proof("token", "bridge", "n1");
        assert!(verify("token", "bridge", "n1", &p));
        assert!(!verify("token", "extension", "n1", &p), "a proof is bound to its role");
        assert!(!verify("token", "bridge", "n2", &p), "and to its nonce");
        assert!(!verify("other", "bridge", "n1", &p), "and to the token");
    }
}
