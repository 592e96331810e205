//! Helpers shared by the fuzz targets of `fuzz_targets/`: decoding a fuzz input into the
//! choices a target makes (algorithm, backend, key, message, vector, split points), and the
//! oracles more than one target needs.
//!
//! Every input decodes to something: reads past the end give zeros, so libFuzzer's
//! mutations never hit a "too short" dead end. Each target's input layout is documented at
//! the top of its file (the seed corpus under `fuzz/corpus/` is written in these layouts by
//! `fuzz/make_corpus.py`); `docs/fuzzing.md` says what each target checks.

use std::sync::OnceLock;

use brwhash::{Algorithm, Backend, Digest, Error, Prime};

/// Longest message a target hashes: an expanded message (a short seed stretched to a length
/// the input chooses) reaches every crossover of the SIMD backends (2048 bytes at most, 3968
/// for the VPCLMULQDQ GF(2^256) state) without libFuzzer inputs of that size.
pub const MAX_EXPANDED: usize = 1 << 14;

/// Most bytes all components of a vector may have together.
pub const MAX_VECTOR_BYTES: usize = 1 << 15;

/// The 65 algorithms in the order of `Algorithm::all` (computed once).
pub fn algorithms() -> &'static [Algorithm] {
    static ALL: OnceLock<Vec<Algorithm>> = OnceLock::new();
    ALL.get_or_init(Algorithm::all)
}

/// The algorithm an index byte names (modulo 65).
pub fn algorithm(index: u8) -> Algorithm {
    let all = algorithms();
    all[index as usize % all.len()]
}

/// The algorithms that have a MAC mode (all but Poly1305), by an index byte.
pub fn mac_algorithm(index: u8) -> Algorithm {
    let all = algorithms();
    let macs = all.len() - 1;
    let alg = all[1 + index as usize % macs];
    debug_assert!(alg.mac_key_len().is_some());
    alg
}

/// A backend choice: `None` (the library's own choice, `Key::new`) or one of
/// `Backend::ALL`, whether or not it can run here.
pub fn backend_choice(b: u8) -> Option<Backend> {
    let n = Backend::ALL.len();
    let i = b as usize % (n + 1);
    (i < n).then(|| Backend::ALL[i])
}

/// A cursor over the fuzz input. Reads past the end give zero bytes (or empty slices).
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Input<'a> {
        Input { data }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// Up to `n` bytes (fewer at the end of the input).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }

    /// Exactly `n` bytes, zero-padded past the end of the input.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = self.take(n).to_vec();
        v.resize(n, 0);
        v
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }

    /// A message: one mode byte, then either the rest of the input as it is (mode bit 7
    /// clear) or a two-byte length `n` (modulo [`MAX_EXPANDED`]) and the rest of the input
    /// stretched to `n` bytes by [`expand`] (mode bit 7 set).
    pub fn message(&mut self) -> Vec<u8> {
        if self.u8() & 0x80 == 0 {
            self.rest().to_vec()
        } else {
            let n = self.u16() as usize % MAX_EXPANDED;
            expand(self.rest(), n)
        }
    }

    /// A vecHash2L vector: a count byte (`1 + b % 16` below 0xf0; 240..=255 components from
    /// 0xf0 on), one two-byte length per component (modulo 4096), and the rest of the input
    /// stretched over all components by [`expand`]. At most [`MAX_VECTOR_BYTES`] in all.
    pub fn components(&mut self) -> Vec<Vec<u8>> {
        let b = self.u8();
        let count = if b < 0xf0 {
            1 + (b % 16) as usize
        } else {
            240 + (b - 0xf0) as usize
        };
        let mut budget = MAX_VECTOR_BYTES;
        let lens: Vec<usize> = (0..count)
            .map(|_| {
                let n = (self.u16() as usize % 4096).min(budget);
                budget -= n;
                n
            })
            .collect();
        let pool = expand(self.rest(), lens.iter().sum());
        let mut at = 0;
        lens.iter()
            .map(|&n| {
                let c = pool[at..at + n].to_vec();
                at += n;
                c
            })
            .collect()
    }

    /// `count` split points in `0..=len`, sorted (two bytes each).
    pub fn splits(&mut self, count: usize, len: usize) -> Vec<usize> {
        let mut points: Vec<usize> = (0..count)
            .map(|_| self.u16() as usize % (len + 1))
            .collect();
        points.sort_unstable();
        points
    }
}

/// `seed` stretched (or cut) to `n` bytes: byte i is `seed[i % s] + i / s` (wrapping), so a
/// long message is not one short period repeated; zeros when `seed` is empty.
pub fn expand(seed: &[u8], n: usize) -> Vec<u8> {
    if seed.is_empty() {
        return vec![0; n];
    }
    (0..n)
        .map(|i| seed[i % seed.len()].wrapping_add((i / seed.len()) as u8))
        .collect()
}

/// `msg` cut at the sorted `points` into consecutive pieces (some may be empty).
pub fn pieces<'m>(msg: &'m [u8], points: &[usize]) -> Vec<&'m [u8]> {
    let mut out = Vec::with_capacity(points.len() + 1);
    let mut at = 0;
    for &p in points {
        out.push(&msg[at..p]);
        at = p;
    }
    out.push(&msg[at..]);
    out
}

/// Components as the slices the API takes.
pub fn as_slices(parts: &[Vec<u8>]) -> Vec<&[u8]> {
    parts.iter().map(Vec::as_slice).collect()
}

/// The MAC tag of SPEC.md section 7 computed here from a digest and the key half s:
/// `(le(d) + le(s) % 2^mu) % 2^mu` for the primes, `d XOR s` for the binary fields.
pub fn spec_tag(alg: Algorithm, digest: &Digest, s: &[u8]) -> Vec<u8> {
    let d = digest.as_bytes();
    assert_eq!(d.len(), alg.digest_len(), "{alg}: digest length");
    assert_eq!(s.len(), alg.digest_len(), "{alg}: s length");
    match alg.prime() {
        Some(p) => {
            let mask = match p {
                Prime::P1271 => (1u128 << 126) - 1,
                Prime::P1305 => u128::MAX,
            };
            let dv = u128::from_le_bytes(d.try_into().expect("16-byte digest"));
            let sv = u128::from_le_bytes(s.try_into().expect("16-byte s"));
            (dv.wrapping_add(sv & mask) & mask).to_le_bytes().to_vec()
        }
        None => d.iter().zip(s).map(|(a, b)| a ^ b).collect(),
    }
}

/// `n` pseudo-random bytes determined by `seed` (SplitMix64 seeded with a hash of it): a key
/// the fuzzer cannot steer to a weak value. AXU bounds hold over uniformly random keys; a
/// chosen key can make different messages collide by the mathematics of the function (x = 0;
/// x = 2^k, whose multiples of a one-bit change are the bit that the 126-bit digest of 1271
/// drops; a block equal to x^2 in BRW's factor x^2 + M_2), so only collisions under keys
/// like these are findings.
pub fn pseudo_random_key(seed: &[u8], n: usize) -> Vec<u8> {
    let mut state = seed.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        out.extend_from_slice(&next().to_le_bytes());
    }
    out.truncate(n);
    out
}

/// What the C ABI returns for a library error (`brwhash-ffi`'s documented mapping).
pub fn ffi_code(e: &Error) -> i32 {
    use brwhash_ffi::*;
    match e {
        Error::KeyLength { .. } => BRWHASH_ERR_KEY_LENGTH,
        Error::UnknownAlgorithm(_) | Error::ParameterOutOfRange { .. } => {
            BRWHASH_ERR_UNKNOWN_ALGORITHM
        }
        Error::NoMacMode(_) => BRWHASH_ERR_NO_MAC_MODE,
        Error::MessageTooLong => BRWHASH_ERR_MESSAGE_TOO_LONG,
        Error::ComponentCount(_) => BRWHASH_ERR_COMPONENT_COUNT,
        Error::NotVector(_) => BRWHASH_ERR_NOT_VECTOR,
        Error::UnknownBackend(_) => BRWHASH_ERR_UNKNOWN_BACKEND,
        Error::BackendUnavailable { .. } => BRWHASH_ERR_BACKEND_UNAVAILABLE,
        _ => BRWHASH_ERR_OTHER,
    }
}
