//! Reading keys and tags: `--key HEX`, `--key-file PATH`, `--tag HEX`.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use zeroize::Zeroizing;

use crate::util::io_message;

/// Key files larger than this are refused without being read whole (the longest key is 64
/// bytes, 128 hex digits).
const MAX_KEY_FILE: u64 = 64 * 1024;

/// Hex, case-insensitive, no whitespace or prefix; `what` names the option in errors.
/// Decoded in constant time (`base16ct`: no branch or lookup on a digit, as keys are secret);
/// only text that is not hex is decoded again, by `hex`, to say where it goes wrong.
pub fn decode_hex(text: &[u8], what: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    decode_ct(text).ok_or_else(|| format!("{what}: not valid hex: {}", why_not_hex(text)))
}

fn decode_ct(text: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
    base16ct::mixed::decode_vec(text).ok().map(Zeroizing::new)
}

/// What is wrong with text that is not hex (for the error message).
fn why_not_hex(text: &[u8]) -> String {
    match hex::decode(text) {
        Ok(mut wiped) => {
            zeroize::Zeroize::zeroize(&mut wiped);
            "not hex".to_string()
        }
        Err(e) => hex_error(&e),
    }
}

fn hex_error(e: &hex::FromHexError) -> String {
    match e {
        hex::FromHexError::InvalidHexCharacter { c, index } => {
            format!("invalid character {c:?} at position {index}")
        }
        hex::FromHexError::OddLength => "odd number of hex digits".to_string(),
        other => other.to_string(),
    }
}

/// The key in `path`: raw bytes when the file has exactly `expected` bytes, otherwise hex
/// text with surrounding ASCII whitespace trimmed.
pub fn read_key_file(path: &Path, expected: usize) -> Result<Zeroizing<Vec<u8>>, String> {
    let name = path.display();
    let file = File::open(path).map_err(|e| format!("key file {name}: {}", io_message(&e)))?;
    let mut bytes = Zeroizing::new(Vec::new());
    file.take(MAX_KEY_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("key file {name}: {}", io_message(&e)))?;
    if bytes.len() as u64 > MAX_KEY_FILE {
        return Err(format!(
            "key file {name}: too large for a key (more than {MAX_KEY_FILE} bytes)"
        ));
    }
    if bytes.len() == expected {
        // By the rule this is a raw key; all-hex-digit content is almost surely hex text of a
        // key of half the size (a random raw key is all hex digits with chance < 2^-100).
        // (In constant time, like every look at key bytes.)
        if decode_ct(&bytes).is_some() {
            crate::util::error_line(format_args!(
                "warning: key file {name} has exactly {expected} bytes, so it is used as a raw \
                 key, but it looks like the hex text of a {}-byte key",
                expected / 2
            ));
        }
        return Ok(bytes);
    }
    let text = bytes.trim_ascii();
    decode_ct(text).ok_or_else(|| {
        format!(
            "key file {name}: has {} bytes, so it is not a raw {expected}-byte key, and it is \
             not hex text either ({})",
            bytes.len(),
            why_not_hex(text)
        )
    })
}
