//! Command-line syntax and help texts (clap derive).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};

const ABOUT: &str =
    "Keyed almost-XOR-universal hashes (Poly1305, polyHash, BRW hashes, decBRWHash, \
                     Hash2L): digests, one-time MACs and their verification";

const LONG_ABOUT: &str = "\
Keyed almost-XOR-universal (AXU) hashes built on Horner and Bernstein-Rabin-Winograd (BRW)
polynomials: digests, one-time MACs and their verification.

These are NOT cryptographic hash functions like SHA-256: a digest is only meaningful under a
secret, uniformly random key, and a MAC key (tau || s) must never authenticate two different
messages.";

const AFTER_HELP: &str = "\
ALGORITHMS (65 names, matched ignoring ASCII case; `brwhash list` prints every name with its
key, digest and MAC key sizes). <p> is 1271 (arithmetic modulo 2^127 - 1) or 1305 (2^130 - 5):
  Poly1305                        RFC 8439 one-time authenticator; key r || s (32 bytes)
  polyHash<p>                     Horner polynomial hash; 16-byte key
  BRWHash<p>                      Bernstein-Rabin-Winograd polynomial hash (about half the
                                  multiplications of Horner); 16-byte key
  <t>-BRWHash<p>      t = 2..5    BRW over a prefix of a multiple of 2^t blocks, Horner after
  <d>-2LHash<p>       d = 2..5    two levels: BRW over super-blocks of 2^d - 1 blocks, Horner
                                  over the super-block values
  <d>-Hash<p>         d = 2..5    polyHash below 2^d blocks, d-2LHash from there on
                                  (4-Hash1271 is the recommended sequential hash)
  <c>-decBRWHash<p>   c = 1..16   c interleaved BRW streams (SIMD friendly; 4-decBRWHash1305)
  Hash2L128, Hash2L256            two-level BRW/Horner hash over GF(2^128) / GF(2^256);
                                  16- / 32-byte key and digest
  vecHash2L128, vecHash2L256      Hash2L of a vector of 1..255 byte strings: the FILE
                                  arguments are the components of ONE vector

KEYS: give exactly one of --key HEX or --key-file PATH. A key on the command line is visible
to other users of the machine (ps, /proc) and stays in your shell history: prefer --key-file.
A key file holds either the raw key bytes or hex text. The rule: if the file's size equals the
expected key size in bytes it is taken as raw bytes; otherwise surrounding whitespace (such
as a trailing newline) is trimmed and the rest is decoded as hex (no inner whitespace). A file
of exactly the key size that holds only hex digits is still raw, with a warning.

BACKENDS: the library picks the fastest code path this CPU and build support. The
BRWHASH_BACKEND environment variable or --backend NAME forces one (`brwhash list` prints
them); a forced backend that cannot run here is an error, never a silent fallback.

EXIT STATUS: 0 success; 1 `verify` found a mismatch; 2 an error (bad arguments, an
unreadable file; the other files are still processed).";

const FILES_HELP: &str = "Files to read; `-` or none means standard input. For vecHash2L \
                          the files are the components of one vector (1..255)";

/// The top-level command line.
#[derive(Debug, Parser)]
#[command(
    name = "brwhash",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = AFTER_HELP,
    after_help = "`brwhash --help` explains the algorithms, key files and exit status; \
                  `brwhash list` prints every algorithm and backend."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the digest of each FILE under a hash key, like sha256sum
    #[command(
        long_about = "\
Print the digest of each FILE under a hash key (tau; for Poly1305 r || s, so its digest is
the Poly1305 tag), one line per file, like sha256sum and b3sum:

    <hex digest>  <file>

with two spaces; standard input is printed as `-`. For vecHash2L128 / vecHash2L256 the FILEs
are the components of ONE vector (1..255 of them) and exactly one line is printed, naming
the components in order, separated by single spaces:

    <hex digest>  <file1> <file2> ...",
        after_long_help = AFTER_HELP
    )]
    Digest(HashArgs),

    /// Print the one-time MAC tag of each FILE (key tau || s)
    #[command(
        long_about = "\
Print the one-time MAC tag (SPEC section 7) of each FILE. The key is tau || s: the hash key
followed by s, which has the digest's size (32 bytes in all for most algorithms, 64 for
Hash2L256 / vecHash2L256; `brwhash list` shows the sizes). The tag is the digest plus s
(prime fields) or the digest XOR s (binary fields). The output format is that of `digest`.

A one-time key MUST NOT authenticate two different messages: derive a fresh, uniformly
random tau || s for every message. Poly1305 has no MAC mode: its key already is r || s, so
use `brwhash digest --alg Poly1305` (or `brwhash verify --alg Poly1305`).",
        after_long_help = AFTER_HELP
    )]
    Mac(HashArgs),

    /// Check a one-time MAC tag (for Poly1305: its tag) against each FILE
    #[command(
        long_about = "\
Recompute the tag of each FILE and compare it with --tag in constant time, printing
`<file>: OK` or `<file>: FAILED` (like sha256sum -c; an unreadable file prints
`<file>: FAILED open or read`). For vecHash2L one line checks the whole vector:
`<file1> <file2> ...: OK`.

The key is the MAC key tau || s of `brwhash mac`; for Poly1305 it is the Poly1305 key r || s
(32 bytes) and the tag is the Poly1305 tag. The tag must have the full digest size (16 or 32
bytes); truncated tags are not supported. Exit status: 0 when every tag matches, 1 when one
does not, 2 on an error.",
        after_long_help = AFTER_HELP
    )]
    Verify(VerifyArgs),

    /// List the algorithms with their key and digest sizes, and the backends
    #[command(long_about = "\
List every algorithm with its key, digest and MAC key sizes in bytes (`-`: Poly1305 has no
MAC mode), then every backend: whether this CPU supports it, whether this build has code for
it (`yes`, `no`, or how many of the 65 algorithms), and for how many algorithms it is the
default choice here. The backend names are those of --backend and BRWHASH_BACKEND.")]
    List,
}

/// Options of `digest` and `mac`.
#[derive(Debug, Args)]
pub struct HashArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    #[arg(value_name = "FILE", help = FILES_HELP)]
    pub files: Vec<OsString>,
}

/// Options of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The expected tag, in hex (16 bytes, or 32 for the 256-bit functions)
    #[arg(long, value_name = "HEX")]
    pub tag: String,

    #[arg(value_name = "FILE", help = FILES_HELP)]
    pub files: Vec<OsString>,
}

/// Algorithm, key and backend: shared by `digest`, `mac` and `verify`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("keysource").required(true).args(["key", "key_file"])))]
pub struct CommonArgs {
    /// Algorithm name, e.g. 4-Hash1271, Poly1305, 4-decBRWHash1305 (`brwhash list` prints all)
    #[arg(long, value_name = "NAME")]
    pub alg: String,

    /// The key in hex (case-insensitive, no whitespace). Visible to other users: prefer --key-file
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,

    /// A file holding the key: raw bytes if its size is exactly the key size, else hex text
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,

    /// Force a backend (see `brwhash list`); an error if it cannot run here. Overrides
    /// BRWHASH_BACKEND
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
}
