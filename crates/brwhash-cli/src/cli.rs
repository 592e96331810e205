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
to other users of the machine (ps, /proc) and stays in your shell history: prefer --key-file
(--key prints a warning on stderr).
A key file holds either the raw key bytes or hex text. The rule: if the file's size equals the
expected key size in bytes it is taken as raw bytes; otherwise surrounding whitespace (such
as a trailing newline) is trimmed and the rest is decoded as hex (no inner whitespace). A file
of exactly the key size that holds only hex digits is still raw, with a warning.

BACKENDS: the library picks the fastest code path this CPU and build support. The
BRWHASH_BACKEND environment variable or --backend NAME forces one (`brwhash list` prints
them); a forced backend that cannot run here is an error, never a silent fallback.

INPUT: with the `parallel` build feature (on by default) and more than one thread, a regular
file is hashed on all cores (--threads N; files under 1 MiB stay on one thread): every thread
reads its own pieces of the file with positioned reads (pread) into a small buffer, so files
of any size (beyond 4 GiB, beyond RAM) work and nothing is mapped. --mmap memory-maps the file
instead (slower on Linux here: the page faults cost more than the copies; and as with b3sum, if
another process truncates a mapped file brwhash is killed by SIGBUS, and if it rewrites it the
digest can mix old and new contents; a file that changes under positioned reads gives a read
error or such a mix, never a crash). The components of a vecHash2L vector, when all are
regular files, are hashed side by side the same way (long ones split too); with --mmap they
are mapped and hashed one after another. Standard input, pipes, FIFOs, character devices, empty
files, every file with --threads 1 and with --no-mmap are read front to back in 512 KiB pieces
on one thread. A progress bar appears on standard error when it is a
terminal and a file has 256 MiB or more: a bar while one thread reads, a spinner while all
threads hash a mapped file (the library reports no progress then); --no-progress hides it.

CHECKING: `digest --check LIST` and `mac --check LIST` read lines `<hex>  <file>` as these
commands print them (`<hex> *<file>` is accepted too; lines starting with # and empty lines are
skipped; a file name may contain spaces; for vecHash2L the name is the components separated
by single spaces). LIST `-` is standard input. Each file is recomputed and compared in
constant time: `<file>: OK`, `<file>: FAILED`, or `<file>: FAILED open or read`, then warnings
on standard error like sha256sum's (`WARNING: 1 computed checksum did NOT match`). --quiet
leaves out the OK lines.

JSON: --json prints one object per input per line (JSON Lines), in input order, keys sorted:
  {\"algorithm\":\"4-Hash1271\",\"backend\":\"scalar\",\"bytes\":5,\"digest\":\"<hex>\",\"file\":\"a\"}
`mac` has \"tag\" instead of \"digest\"; vecHash2L adds \"components\"; verify and --check give
\"status\" (\"OK\", \"FAILED\", \"FAILED open or read\") and never the computed value, and --check
adds \"line\"; a failed input has \"error\" (its message is also on standard error); a malformed
--check line is {\"check_file\":..,\"line\":..,\"error\":..}. Names that are not UTF-8 are printed
with U+FFFD replacement characters.

EXIT STATUS: 0 success; 1 `verify` or --check found a mismatch (and no error); 2 an error (bad
arguments, an unreadable file, a malformed --check line; the other files are still
processed).";

const FILES_HELP: &str = "Files to read; `-` or none means standard input. For vecHash2L \
                          the files are the components of one vector (1..255). Regular files \
                          are hashed on all cores (see INPUT in --help)";

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

    /// Measure cycles/byte and GB/s of every algorithm, backend and peer (Markdown, JSON, SVG)
    #[command(long_about = BENCH_ABOUT)]
    Bench(BenchArgs),
}

const BENCH_ABOUT: &str = "\
Measure brwhash and its peers in the same run: TSC cycles per byte (with an estimate of core
cycles per byte) and GB/s for each message length, one-shot (brwhash::hash: key powers
computed per message, on the default backend) and with a precomputed key (Key::with_backend
once, key.hash per message) on every backend that can run each algorithm here.

Peers (built with the `bench-peers` feature, on by default), for the prime-field algorithms:
OpenSSL's Poly1305 (EVP_MAC, and EVP_DigestSign through the openssl crate; init + update +
final per message), OpenSSL's scalar Poly1305 (EVP_MAC of a private copy of libcrypto loaded with
OPENSSL_ia32cap hiding AVX, AVX2 and AVX-512),
intel-ipsec-mb's Poly1305 (one job per message), libsodium's crypto_onetimeauth_poly1305 and
RustCrypto poly1305 (new + compute_unpadded); for Hash2L128 / Hash2L256: intel-ipsec-mb GHASH and RustCrypto
ghash and polyval (key set up per message, and cached). Every peer is checked against a
reference before it is measured; a peer that disagrees is an error. The ratio tables divide
each brwhash row by the fastest peer of its kind at each length, measured in the same run,
round by round: the median of the rounds' ratios, and the lowest and highest round.

Method: rdtsc (nanoseconds on targets without a TSC), a warm-up per cell, batches of about
0.2 ms, the median of 31 batches per round, 9 rounds that each visit every row and length in
order, the median of the rounds. The TSC-to-core-clock ratio is estimated from a chain of
dependent one-cycle additions and printed at the top with the CPU model and the backends.
The default run takes a few minutes; --quick takes seconds and gives rough numbers.

The table goes to standard output; progress goes to standard error.";

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Comma-separated algorithm names [default: Poly1305, polyHash1305, polyHash1271,
    /// 4-decBRWHash1305, 4-decBRWHash1271, 8-decBRWHash1305, 4-Hash1271, BRWHash1305, Hash2L128,
    /// Hash2L256, vecHash2L128, vecHash2L256]
    #[arg(long, value_name = "LIST")]
    pub alg: Option<String>,

    /// Comma-separated message lengths in bytes (a K or M suffix multiplies by 1024 or 1024^2)
    #[arg(
        long,
        value_name = "LIST",
        default_value = "64,256,512,1024,4096,8192,16384,65536,1048576"
    )]
    pub lengths: String,

    /// Comma-separated backend names, or `all`: every backend that can run each algorithm here;
    /// `default` in the list adds the dispatched default (no backend forced)
    #[arg(long, value_name = "LIST|all", default_value = "all")]
    pub backends: String,

    /// Which brwhash rows: one-shot (brwhash::hash), key (precomputed Key), or both
    #[arg(long, value_enum, default_value_t = BenchMode::All)]
    pub mode: BenchMode,

    /// Bytes per Hasher::update in the stream rows (a K or M suffix multiplies by 1024 or
    /// 1024^2)
    #[arg(long, value_name = "BYTES", default_value = "4096")]
    pub piece: String,

    /// vecHash2L rows: each message as N components of equal length (the last one takes the
    /// rest), 1..=255
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub components: usize,

    /// Leave out the peers (OpenSSL, intel-ipsec-mb, RustCrypto)
    #[arg(long)]
    pub no_peers: bool,

    /// Also write every measurement as JSON to FILE
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Also write an SVG plot (cycles/byte against length, log-log) to FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// Also write the report as Markdown to FILE
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,

    /// Short batches, few rounds: seconds instead of minutes, rough numbers (smoke tests)
    #[arg(long)]
    pub quick: bool,
}

/// `--mode` of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchMode {
    /// brwhash::hash(alg, key, msg): key powers per message
    #[value(name = "one-shot")]
    OneShot,
    /// Key::new once, key.hash(msg) per message
    Key,
    /// Key::new once, the message through Hasher::update in pieces (--piece, 4 KiB)
    Stream,
    /// Key::new and key.hash(msg) per message: a one-time key through the Key API
    #[value(name = "new-key")]
    NewKey,
    /// one-shot and key
    Both,
    /// one-shot, key and stream
    All,
}

/// Options of `digest` and `mac`.
#[derive(Debug, Args)]
pub struct HashArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    #[command(flatten)]
    pub check: CheckArgs,

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

/// `--check` of `digest` and `mac`.
#[derive(Debug, Args, Default)]
pub struct CheckArgs {
    /// Read `<hex>  <file>` lines (this command's output) from LIST (`-`: standard input),
    /// recompute each file and print `<file>: OK` or `<file>: FAILED`, like sha256sum -c
    /// (see CHECKING in --help)
    #[arg(short = 'c', long, value_name = "LIST", conflicts_with = "files")]
    pub check: Option<OsString>,

    /// With --check, print nothing for files that match (only failures and the summary); also
    /// no progress bar
    #[arg(short = 'q', long)]
    pub quiet: bool,
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

    /// Hash each large regular file on N threads [default: one per CPU, or RAYON_NUM_THREADS];
    /// 1: on the main thread only. Builds without the `parallel` feature always use one
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// Read files front to back with read() on one thread, instead of positioned reads on
    /// all threads (or a map with --mmap)
    #[arg(long)]
    pub no_mmap: bool,

    /// Memory-map regular files and hash the map on all threads, instead of positioned reads
    /// (slower on Linux here: page faults; a file truncated meanwhile kills brwhash with
    /// SIGBUS; see INPUT in --help)
    #[arg(long, conflicts_with = "no_mmap")]
    pub mmap: bool,

    /// Never show a progress bar (by default one appears on standard error, when it is a
    /// terminal, for files of 256 MiB or more)
    #[arg(long)]
    pub no_progress: bool,

    /// Print one JSON object per input (JSON Lines) instead of text: file, algorithm, backend,
    /// digest or tag, bytes; "status" for verify and --check; "error" for a failed input
    #[arg(long)]
    pub json: bool,
}
