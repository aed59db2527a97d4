//! SHA-256 digests as they appear in headers, manifests and messages.

use sha2::{Digest as _, Sha256};
use std::fmt;
use std::str::FromStr;

/// A SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }

    /// The digest a hasher has accumulated.
    pub fn from_hasher(h: Sha256) -> Digest {
        Digest(h.finalize().into())
    }

    /// Lower-case hexadecimal, 64 characters.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.hex())
    }
}

impl FromStr for Digest {
    type Err = String;

    /// Parses 64 hexadecimal digits.
    fn from_str(s: &str) -> Result<Digest, String> {
        let s = s.trim();
        if s.len() != 64 || !s.is_ascii() {
            return Err(format!("a SHA-256 digest is 64 hex digits, got {s:?}"));
        }
        let mut d = [0u8; 32];
        for (i, byte) in d.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)
                .map_err(|_| format!("not a hex digest: {s:?}"))?;
        }
        Ok(Digest(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_value_and_round_trip() {
        let d = Digest::of(b"abc");
        assert_eq!(
            d.hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(d.hex().parse::<Digest>().unwrap(), d);
        assert!("xyz".parse::<Digest>().is_err());
    }
}
