//! `--check FILE`: the list of `<hex>  <file>` lines that `digest` and `mac` print.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};

use crate::util::io_message;

/// One well-formed line of a check list.
pub struct Entry {
    /// 1-based line number.
    pub line: usize,
    /// The expected digest or tag.
    pub expected: Vec<u8>,
    /// The file; for vecHash2L the components (the name split at single spaces).
    pub names: Vec<OsString>,
    /// The name as written on the line.
    pub shown: Vec<u8>,
}

/// The whole list from `path` (`-`: standard input).
pub fn read_list(path: &OsStr) -> Result<Vec<u8>, String> {
    let mut text = Vec::new();
    let result = if path == "-" {
        io::stdin().lock().read_to_end(&mut text)
    } else {
        File::open(path).and_then(|mut f| f.read_to_end(&mut text))
    };
    result.map_err(|e| io_message(&e))?;
    Ok(text)
}

/// The lines of a check list, as sha256sum -c reads them: `<hex>  <name>` or `<hex> *<name>`
/// (binary marker); lines starting with `#` and empty lines are skipped, a trailing CR is
/// dropped. A malformed line (bad hex, wrong digest size, no name) is `Err(line number)`.
/// `vector`: the name is a space-separated list of vecHash2L components (at most `max`).
pub fn parse(
    text: &[u8],
    digest_len: usize,
    vector: bool,
    max: usize,
) -> Vec<Result<Entry, usize>> {
    let mut entries = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        entries.push(parse_line(line, digest_len, vector, max).ok_or(i + 1).map(
            |(expected, names, shown)| Entry {
                line: i + 1,
                expected,
                names,
                shown,
            },
        ));
    }
    entries
}

type Parsed = (Vec<u8>, Vec<OsString>, Vec<u8>);

fn parse_line(line: &[u8], digest_len: usize, vector: bool, max: usize) -> Option<Parsed> {
    let space = line.iter().position(|&b| b == b' ')?;
    let expected = hex::decode(&line[..space]).ok()?;
    if expected.len() != digest_len {
        return None;
    }
    let shown = match line[space + 1..].split_first() {
        Some((b' ' | b'*', name)) if !name.is_empty() => name,
        _ => return None,
    };
    let names = if vector {
        let parts: Vec<&[u8]> = shown.split(|&b| b == b' ').collect();
        if parts.len() > max || parts.iter().any(|p| p.is_empty()) {
            return None;
        }
        parts
    } else {
        vec![shown]
    };
    let names = names
        .into_iter()
        .map(os_string)
        .collect::<Option<Vec<_>>>()?;
    Some((expected, names, shown.to_vec()))
}

#[cfg(unix)]
fn os_string(bytes: &[u8]) -> Option<OsString> {
    use std::os::unix::ffi::OsStrExt;
    Some(OsStr::from_bytes(bytes).to_os_string())
}

#[cfg(not(unix))]
fn os_string(bytes: &[u8]) -> Option<OsString> {
    std::str::from_utf8(bytes).ok().map(OsString::from)
}

/// `1 computed checksum did NOT match`, `2 computed checksums did NOT match`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let text =
            b"# comment\n\n00ff  a b\r\n00ff *c\n00f  x\n00ff x\nzz00  x\n0011  \n00ff  d  e\n";
        let got = parse(text, 2, false, 255);
        let ok: Vec<_> = got.iter().filter_map(|e| e.as_ref().ok()).collect();
        assert_eq!(ok.len(), 3);
        assert_eq!((ok[0].line, &ok[0].shown[..]), (3, &b"a b"[..]));
        assert_eq!(ok[0].expected, [0, 255]);
        assert_eq!(ok[1].names, [OsString::from("c")]);
        assert_eq!(ok[2].names, [OsString::from("d  e")]);
        let bad: Vec<usize> = got
            .iter()
            .filter_map(|e| e.as_ref().err().copied())
            .collect();
        assert_eq!(bad, [5, 6, 7, 8]);
        let vec = parse(b"00ff  a b c\n00ff  a  b\n", 2, true, 255);
        assert_eq!(vec[0].as_ref().ok().unwrap().names.len(), 3);
        assert_eq!(vec[1].as_ref().err(), Some(&2));
        assert!(parse(b"00ff  a b c\n", 2, true, 2)[0].is_err());
    }
}
