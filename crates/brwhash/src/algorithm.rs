//! Algorithm names and parameters (SPEC.md sections 5.1 and 8).

use core::fmt;
use core::str::FromStr;

use crate::Error;

/// The prime of a prime-field function.
///
/// ```
/// use brwhash::{Algorithm, Prime};
/// assert_eq!(Algorithm::POLY1305.prime(), Some(Prime::P1305));
/// assert_eq!("4-Hash1271".parse::<Algorithm>().unwrap().prime(), Some(Prime::P1271));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prime {
    /// 2^127 - 1: 15-byte blocks, 126-bit key and digest.
    P1271,
    /// 2^130 - 5: 16-byte blocks, 128-bit key and digest.
    P1305,
}

/// The binary field of Hash2L and vecHash2L.
///
/// ```
/// use brwhash::{Algorithm, BinaryField};
/// assert_eq!(Algorithm::VECHASH2L256.binary_field(), Some(BinaryField::Gf256));
/// assert_eq!(Algorithm::POLY1305.binary_field(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinaryField {
    /// GF(2^128), 16-byte key and digest.
    Gf128,
    /// GF(2^256), 32-byte key and digest.
    Gf256,
}

/// A function family of SPEC.md section 5, with its parameter.
///
/// ```
/// use brwhash::{Algorithm, Family, Prime};
/// let alg = Algorithm::new(Family::DecBrwHash(4, Prime::P1305)).unwrap();
/// assert_eq!(alg.to_string(), "4-decBRWHash1305");
/// assert!(Algorithm::new(Family::DHash(6, Prime::P1271)).is_err()); // d = 2..5
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Poly1305 (RFC 8439).
    Poly1305,
    /// polyHash: x * Poly(x; pad1(M)).
    PolyHash(Prime),
    /// BRWHash: x * (x * BRW(x; pad2(M)) + L).
    BrwHash(Prime),
    /// t-BRWHash, t = 2..=5.
    TBrwHash(u8, Prime),
    /// d-2LHash, d = 2..=5.
    TwoLHash(u8, Prime),
    /// d-Hash, d = 2..=5: polyHash below 2^d blocks, d-2LHash from there.
    DHash(u8, Prime),
    /// c-decBRWHash, c = 1..=16.
    DecBrwHash(u8, Prime),
    /// Hash2L over GF(2^128) or GF(2^256).
    Hash2L(BinaryField),
    /// vecHash2L: a vector of 1..=255 byte strings.
    VecHash2L(BinaryField),
}

/// One of the 65 functions of SPEC.md. Parse it from its name (ASCII case-insensitive);
/// `Display` prints the canonical spelling.
///
/// ```
/// let alg: brwhash::Algorithm = "4-HASH1271".parse().unwrap();
/// assert_eq!(alg.to_string(), "4-Hash1271");
/// assert_eq!(alg.key_len(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Algorithm(Family);

impl Algorithm {
    /// Poly1305 (RFC 8439).
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("poly1305".parse::<Algorithm>().unwrap(), Algorithm::POLY1305);
    /// assert_eq!(Algorithm::POLY1305.to_string(), "Poly1305");
    /// ```
    pub const POLY1305: Algorithm = Algorithm(Family::Poly1305);
    /// polyHash1271.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("polyhash1271".parse::<Algorithm>().unwrap(), Algorithm::POLYHASH1271);
    /// assert_eq!(Algorithm::POLYHASH1271.to_string(), "polyHash1271");
    /// ```
    pub const POLYHASH1271: Algorithm = Algorithm(Family::PolyHash(Prime::P1271));
    /// polyHash1305.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("polyhash1305".parse::<Algorithm>().unwrap(), Algorithm::POLYHASH1305);
    /// assert_eq!(Algorithm::POLYHASH1305.to_string(), "polyHash1305");
    /// ```
    pub const POLYHASH1305: Algorithm = Algorithm(Family::PolyHash(Prime::P1305));
    /// BRWHash1271.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("brwhash1271".parse::<Algorithm>().unwrap(), Algorithm::BRWHASH1271);
    /// assert_eq!(Algorithm::BRWHASH1271.to_string(), "BRWHash1271");
    /// ```
    pub const BRWHASH1271: Algorithm = Algorithm(Family::BrwHash(Prime::P1271));
    /// BRWHash1305.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("brwhash1305".parse::<Algorithm>().unwrap(), Algorithm::BRWHASH1305);
    /// assert_eq!(Algorithm::BRWHASH1305.to_string(), "BRWHash1305");
    /// ```
    pub const BRWHASH1305: Algorithm = Algorithm(Family::BrwHash(Prime::P1305));
    /// Hash2L128.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("hash2l128".parse::<Algorithm>().unwrap(), Algorithm::HASH2L128);
    /// assert_eq!(Algorithm::HASH2L128.to_string(), "Hash2L128");
    /// ```
    pub const HASH2L128: Algorithm = Algorithm(Family::Hash2L(BinaryField::Gf128));
    /// Hash2L256.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("hash2l256".parse::<Algorithm>().unwrap(), Algorithm::HASH2L256);
    /// assert_eq!(Algorithm::HASH2L256.to_string(), "Hash2L256");
    /// ```
    pub const HASH2L256: Algorithm = Algorithm(Family::Hash2L(BinaryField::Gf256));
    /// vecHash2L128.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("vechash2l128".parse::<Algorithm>().unwrap(), Algorithm::VECHASH2L128);
    /// assert_eq!(Algorithm::VECHASH2L128.to_string(), "vecHash2L128");
    /// ```
    pub const VECHASH2L128: Algorithm = Algorithm(Family::VecHash2L(BinaryField::Gf128));
    /// vecHash2L256.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!("vechash2l256".parse::<Algorithm>().unwrap(), Algorithm::VECHASH2L256);
    /// assert_eq!(Algorithm::VECHASH2L256.to_string(), "vecHash2L256");
    /// ```
    pub const VECHASH2L256: Algorithm = Algorithm(Family::VecHash2L(BinaryField::Gf256));

    /// The algorithm of a family, checking the parameter range of SPEC.md section 8.
    ///
    /// ```
    /// use brwhash::{Algorithm, Family, Prime};
    /// assert_eq!(Algorithm::new(Family::TBrwHash(4, Prime::P1305)).unwrap().to_string(), "4-BRWHash1305");
    /// assert!(Algorithm::new(Family::DecBrwHash(17, Prime::P1305)).is_err()); // c = 1..16
    /// ```
    pub fn new(family: Family) -> Result<Algorithm, Error> {
        let (param, range, ok): (u8, &'static str, fn(u8) -> bool) = match family {
            Family::TBrwHash(t, _) => (t, "t = 2..5", |v| (2..=5).contains(&v)),
            Family::TwoLHash(d, _) | Family::DHash(d, _) => {
                (d, "d = 2..5", |v| (2..=5).contains(&v))
            }
            Family::DecBrwHash(c, _) => (c, "c = 1..16", |v| (1..=16).contains(&v)),
            _ => (0, "", |_| true),
        };
        if ok(param) {
            Ok(Algorithm(family))
        } else {
            Err(Error::ParameterOutOfRange {
                name: format!("{family:?}"),
                range,
            })
        }
    }

    /// The position of this algorithm in [`Algorithm::all`].
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// for (i, alg) in Algorithm::all().into_iter().enumerate() {
    ///     assert_eq!(alg.index(), i);
    /// }
    /// ```
    pub fn index(self) -> usize {
        let p = |p: Prime| p as usize;
        match self.0 {
            Family::Poly1305 => 0,
            Family::PolyHash(q) => 1 + p(q),
            Family::BrwHash(q) => 3 + p(q),
            Family::TBrwHash(t, q) => 5 + 4 * p(q) + (t as usize - 2),
            Family::TwoLHash(d, q) => 13 + 4 * p(q) + (d as usize - 2),
            Family::DHash(d, q) => 21 + 4 * p(q) + (d as usize - 2),
            Family::DecBrwHash(c, q) => 29 + 16 * p(q) + (c as usize - 1),
            Family::Hash2L(f) => 61 + f as usize,
            Family::VecHash2L(f) => 63 + f as usize,
        }
    }

    /// The family and parameter.
    ///
    /// ```
    /// use brwhash::{Algorithm, Family, Prime};
    /// let alg: Algorithm = "3-2LHash1271".parse().unwrap();
    /// assert_eq!(alg.family(), Family::TwoLHash(3, Prime::P1271));
    /// ```
    pub fn family(self) -> Family {
        self.0
    }

    /// Every one of the 65 canonical algorithms, in the order of SPEC.md section 5.1.
    ///
    /// ```
    /// let names: Vec<String> = brwhash::Algorithm::all().iter().map(|a| a.to_string()).collect();
    /// assert_eq!(names.len(), 65);
    /// assert_eq!(names[0], "Poly1305");
    /// assert!(names.contains(&"4-Hash1271".to_string()));
    /// ```
    pub fn all() -> Vec<Algorithm> {
        let mut v = vec![Algorithm::POLY1305];
        for p in [Prime::P1271, Prime::P1305] {
            v.push(Algorithm(Family::PolyHash(p)));
        }
        for p in [Prime::P1271, Prime::P1305] {
            v.push(Algorithm(Family::BrwHash(p)));
        }
        for make in [Family::TBrwHash, Family::TwoLHash, Family::DHash] {
            for p in [Prime::P1271, Prime::P1305] {
                v.extend((2..=5).map(|n| Algorithm(make(n, p))));
            }
        }
        for p in [Prime::P1271, Prime::P1305] {
            v.extend((1..=16).map(|c| Algorithm(Family::DecBrwHash(c, p))));
        }
        v.extend([
            Algorithm::HASH2L128,
            Algorithm::HASH2L256,
            Algorithm::VECHASH2L128,
            Algorithm::VECHASH2L256,
        ]);
        v
    }

    /// The prime of a prime-field function (Poly1305 is over 2^130 - 5).
    ///
    /// ```
    /// use brwhash::{Algorithm, Prime};
    /// assert_eq!(Algorithm::BRWHASH1271.prime(), Some(Prime::P1271));
    /// assert_eq!(Algorithm::HASH2L128.prime(), None);
    /// ```
    pub fn prime(self) -> Option<Prime> {
        match self.0 {
            Family::Poly1305 => Some(Prime::P1305),
            Family::PolyHash(p)
            | Family::BrwHash(p)
            | Family::TBrwHash(_, p)
            | Family::TwoLHash(_, p)
            | Family::DHash(_, p)
            | Family::DecBrwHash(_, p) => Some(p),
            Family::Hash2L(_) | Family::VecHash2L(_) => None,
        }
    }

    /// The binary field of Hash2L and vecHash2L.
    ///
    /// ```
    /// use brwhash::{Algorithm, BinaryField};
    /// assert_eq!(Algorithm::HASH2L128.binary_field(), Some(BinaryField::Gf128));
    /// ```
    pub fn binary_field(self) -> Option<BinaryField> {
        match self.0 {
            Family::Hash2L(f) | Family::VecHash2L(f) => Some(f),
            _ => None,
        }
    }

    /// Whether the input is a vector of components (vecHash2L).
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert!(Algorithm::VECHASH2L128.is_vector());
    /// assert!(!Algorithm::HASH2L128.is_vector());
    /// ```
    pub fn is_vector(self) -> bool {
        matches!(self.0, Family::VecHash2L(_))
    }

    /// Key bytes of the hash (for Poly1305: r || s).
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!(Algorithm::POLY1305.key_len(), 32); // r || s
    /// assert_eq!(Algorithm::POLYHASH1305.key_len(), 16);
    /// assert_eq!(Algorithm::HASH2L256.key_len(), 32);
    /// ```
    pub fn key_len(self) -> usize {
        match self.0 {
            Family::Poly1305 => 32,
            Family::Hash2L(BinaryField::Gf256) | Family::VecHash2L(BinaryField::Gf256) => 32,
            _ => 16,
        }
    }

    /// Digest (and tag) bytes.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!(Algorithm::POLY1305.digest_len(), 16);
    /// assert_eq!(Algorithm::VECHASH2L256.digest_len(), 32);
    /// ```
    pub fn digest_len(self) -> usize {
        match self.binary_field() {
            Some(BinaryField::Gf256) => 32,
            _ => 16,
        }
    }

    /// Key bytes of the MAC mode (tau || s), or `None` for Poly1305, which has none.
    ///
    /// ```
    /// use brwhash::Algorithm;
    /// assert_eq!(Algorithm::POLYHASH1271.mac_key_len(), Some(32)); // tau || s
    /// assert_eq!(Algorithm::HASH2L256.mac_key_len(), Some(64));
    /// assert_eq!(Algorithm::POLY1305.mac_key_len(), None);
    /// ```
    pub fn mac_key_len(self) -> Option<usize> {
        match self.0 {
            Family::Poly1305 => None,
            _ => Some(self.key_len() + self.digest_len()),
        }
    }
}

fn prime_suffix(p: Prime) -> &'static str {
    match p {
        Prime::P1271 => "1271",
        Prime::P1305 => "1305",
    }
}

fn field_suffix(f: BinaryField) -> &'static str {
    match f {
        BinaryField::Gf128 => "128",
        BinaryField::Gf256 => "256",
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Family::Poly1305 => write!(f, "Poly1305"),
            Family::PolyHash(p) => write!(f, "polyHash{}", prime_suffix(p)),
            Family::BrwHash(p) => write!(f, "BRWHash{}", prime_suffix(p)),
            Family::TBrwHash(t, p) => write!(f, "{t}-BRWHash{}", prime_suffix(p)),
            Family::TwoLHash(d, p) => write!(f, "{d}-2LHash{}", prime_suffix(p)),
            Family::DHash(d, p) => write!(f, "{d}-Hash{}", prime_suffix(p)),
            Family::DecBrwHash(c, p) => write!(f, "{c}-decBRWHash{}", prime_suffix(p)),
            Family::Hash2L(b) => write!(f, "Hash2L{}", field_suffix(b)),
            Family::VecHash2L(b) => write!(f, "vecHash2L{}", field_suffix(b)),
        }
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    /// Parses a canonical name, ignoring ASCII case; anything else (spaces, leading zeros,
    /// other separators) is an error. A known family with an out-of-range parameter gives
    /// [`Error::ParameterOutOfRange`].
    fn from_str(name: &str) -> Result<Algorithm, Error> {
        let lower = name.to_ascii_lowercase();
        let unknown = || Error::UnknownAlgorithm(name.to_string());
        let prime = |s: &str| match s {
            "1271" => Some(Prime::P1271),
            "1305" => Some(Prime::P1305),
            _ => None,
        };
        let simple = match lower.as_str() {
            "poly1305" => Some(Algorithm::POLY1305),
            "hash2l128" => Some(Algorithm::HASH2L128),
            "hash2l256" => Some(Algorithm::HASH2L256),
            "vechash2l128" => Some(Algorithm::VECHASH2L128),
            "vechash2l256" => Some(Algorithm::VECHASH2L256),
            _ => None,
        };
        if let Some(alg) = simple {
            return Ok(alg);
        }
        if let Some(p) = lower.strip_prefix("polyhash").and_then(prime) {
            return Ok(Algorithm(Family::PolyHash(p)));
        }
        if let Some(p) = lower.strip_prefix("brwhash").and_then(prime) {
            return Ok(Algorithm(Family::BrwHash(p)));
        }
        // "<n>-<family><prime>": n is decimal without leading zeros.
        let (num, rest) = lower.split_once('-').ok_or_else(unknown)?;
        let valid_num = !num.is_empty()
            && num.len() <= 3
            && num.bytes().all(|b| b.is_ascii_digit())
            && !(num.len() > 1 && num.starts_with('0'));
        if !valid_num || rest.len() < 4 {
            return Err(unknown());
        }
        // Not at a char boundary (a non-ASCII name): no algorithm, and no panic.
        let (fam, suffix) = rest.split_at_checked(rest.len() - 4).ok_or_else(unknown)?;
        let p = prime(suffix).ok_or_else(unknown)?;
        // Three digits at most, so a too-large parameter is "out of range", not "unknown".
        let n = num.parse::<u16>().map_err(|_| unknown())?.min(255) as u8;
        let family = match fam {
            "brwhash" => Family::TBrwHash(n, p),
            "2lhash" => Family::TwoLHash(n, p),
            "hash" => Family::DHash(n, p),
            "decbrwhash" => Family::DecBrwHash(n, p),
            _ => return Err(unknown()),
        };
        Algorithm::new(family).map_err(|e| match e {
            Error::ParameterOutOfRange { range, .. } => Error::ParameterOutOfRange {
                name: name.to_string(),
                range,
            },
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_five_names_round_trip() {
        let all = Algorithm::all();
        assert_eq!(all.len(), 65);
        for alg in &all {
            let name = alg.to_string();
            assert_eq!(name.parse::<Algorithm>().unwrap(), *alg);
            assert_eq!(
                name.to_ascii_uppercase().parse::<Algorithm>().unwrap(),
                *alg
            );
            assert_eq!(
                name.to_ascii_lowercase().parse::<Algorithm>().unwrap(),
                *alg
            );
        }
        for (i, alg) in all.iter().enumerate() {
            assert_eq!(alg.index(), i, "{alg}");
        }
        let mut names: Vec<String> = all.iter().map(|a| a.to_string()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 65);
    }

    #[test]
    fn canonical_spelling() {
        for (input, canon) in [
            ("4-HASH1271", "4-Hash1271"),
            ("poly1305", "Poly1305"),
            ("hash2l128", "Hash2L128"),
            ("16-DECBRWHASH1305", "16-decBRWHash1305"),
            ("3-brwhash1305", "3-BRWHash1305"),
            ("POLYHASH1271", "polyHash1271"),
        ] {
            assert_eq!(input.parse::<Algorithm>().unwrap().to_string(), canon);
        }
    }

    #[test]
    fn rejects_bad_names() {
        for bad in [
            "6-Hash1271",
            "1-BRWHash1305",
            "0-decBRWHash1271",
            "17-decBRWHash1305",
            "1-Hash1305",
            "6-2LHash1271",
        ] {
            assert!(
                matches!(
                    bad.parse::<Algorithm>(),
                    Err(Error::ParameterOutOfRange { .. })
                ),
                "{bad}"
            );
        }
        for bad in [
            "",
            "poly",
            " Poly1305",
            "Poly1305 ",
            "04-Hash1271",
            "4_Hash1271",
            "4-Hash1272",
            "-Hash1271",
            "4-",
            "+4-Hash1271",
            "4-Hash2L128",
            "decBRWHash1305",
            "999999-Hash1271",
            "Hash2L512",
            "4-hash1271x",
        ] {
            assert!(
                matches!(bad.parse::<Algorithm>(), Err(Error::UnknownAlgorithm(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(Algorithm::POLY1305.key_len(), 32);
        assert_eq!(Algorithm::POLY1305.mac_key_len(), None);
        assert_eq!(Algorithm::HASH2L256.mac_key_len(), Some(64));
        assert_eq!(Algorithm::HASH2L256.digest_len(), 32);
        assert_eq!(Algorithm::POLYHASH1271.mac_key_len(), Some(32));
    }
}
