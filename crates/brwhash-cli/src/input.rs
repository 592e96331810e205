//! Reading and hashing one input: regular files hashed on all cores with the `parallel`
//! feature (positioned reads by every thread, or a memory map with `--mmap`), everything else
//! streamed; the progress bar on a terminal.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;

use brwhash::{Digest, Hasher, Key, Mac};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use memmap2::{Advice, Mmap};

use crate::util::io_message;

/// Read buffer for streamed inputs: they are never read whole. 512 KiB, not 64: one thread
/// read 1 GiB from the page cache 5% faster (Hash2L128 0.191 -> 0.179 s, Poly1305 0.214 ->
/// 0.205 s, medians of 9 alternating runs), and the buffer still fits in L2.
const CHUNK: usize = 512 * 1024;

/// Bytes of a page.
const PAGE: usize = 4096;

/// The [`CHUNK`]-byte read buffer, from a page boundary: a file read front to back is copied
/// from the page cache whole page onto whole page. (A buffer 16 bytes past a page, as large
/// heap blocks are, made the kernel's copy up to 36% slower: see `brwhash::parallel`.)
struct ReadBuf {
    bytes: Vec<u8>,
    at: usize,
}

impl ReadBuf {
    fn new() -> ReadBuf {
        let bytes = vec![0u8; CHUNK + PAGE];
        let at = (PAGE - bytes.as_ptr() as usize % PAGE) % PAGE;
        ReadBuf { bytes, at }
    }

    fn get(&mut self) -> &mut [u8] {
        &mut self.bytes[self.at..self.at + CHUNK]
    }
}

/// Inputs of at least this many bytes get a progress bar (when standard error is a terminal).
pub const PROGRESS_MIN: u64 = 256 << 20;

/// A mapped input with a progress bar goes through a [`Hasher`] in pieces of this size.
const PIECE: usize = 64 << 20;

/// A hash key or a MAC key.
pub enum Keyed {
    Digest(Key),
    Mac(Mac),
}

impl Keyed {
    /// A streaming computation that finishes with the digest, or with the tag in MAC mode.
    pub fn stream(&self) -> Hasher<'_> {
        match self {
            Keyed::Digest(key) => Hasher::new(key),
            Keyed::Mac(mac) => mac.hasher(),
        }
    }

    /// The key (of the MAC key's hash, in MAC mode).
    pub fn key(&self) -> &Key {
        match self {
            Keyed::Digest(key) => key,
            Keyed::Mac(mac) => mac.key(),
        }
    }

    /// The digest (or tag) of a whole message on this thread.
    fn whole(&self, msg: &[u8]) -> Digest {
        match self {
            Keyed::Digest(key) => key.hash(msg),
            Keyed::Mac(mac) => mac.tag(msg),
        }
    }

    /// The digest (or tag) of a whole message on rayon's current pool (byte-identical).
    #[cfg(feature = "parallel")]
    fn whole_parallel(&self, msg: &[u8]) -> Digest {
        match self {
            Keyed::Digest(key) => key.hash_parallel(msg),
            Keyed::Mac(mac) => mac.tag_parallel(msg),
        }
    }
}

/// The components of a vector whose reading failed: their positions and the messages.
#[cfg(all(feature = "parallel", unix))]
pub type FailedComponents = Vec<(usize, String)>;

/// How regular files are read when several threads hash them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Every thread reads its own pieces (pread): the default.
    ReadAt,
    /// A memory map (`--mmap`).
    Map,
    /// Front to back on one thread (`--no-mmap`).
    Stream,
}

/// How inputs are read: `--threads`, `--mmap` / `--no-mmap`, `--no-progress`.
pub struct Reader<'k> {
    keyed: &'k Keyed,
    /// Memory-map regular files: `--mmap`, and more than one thread.
    mmap: bool,
    /// Positioned reads on all threads: the default with more than one thread.
    #[cfg(all(feature = "parallel", unix))]
    read_at: bool,
    /// Standard error is a terminal and progress was not turned off.
    progress: bool,
    /// `--threads N` with N > 1 (None: rayon's global pool, one thread per CPU by default).
    #[cfg(feature = "parallel")]
    pool: Option<rayon::ThreadPool>,
    /// `--threads 1`: every input on this thread.
    #[cfg(feature = "parallel")]
    sequential: bool,
    buf: ReadBuf,
}

impl<'k> Reader<'k> {
    /// `threads`: `--threads` (None: one per CPU). Without the `parallel` feature everything
    /// runs on this thread whatever it says.
    pub fn new(
        keyed: &'k Keyed,
        threads: Option<usize>,
        access: Access,
        progress: bool,
    ) -> Result<Reader<'k>, String> {
        #[cfg(not(feature = "parallel"))]
        let _ = threads;
        #[cfg(feature = "parallel")]
        let pool = match threads {
            Some(n) if n > 1 => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| format!("--threads {n}: cannot start the threads: {e}"))?,
            ),
            _ => None,
        };
        // Several threads: each reads its own pieces (no page faults, no copy of the file in
        // memory). One thread reads front to back, which is the fastest there. Measured (1 GiB
        // in the page cache, wall time): read front to back 0.11-0.18 s; mapped on 1 thread
        // 0.19-0.30 s and on 2 threads 0.14-0.18 s (the kernel's page faults cost about
        // 0.1-0.15 s of system time per GiB).
        #[cfg(feature = "parallel")]
        let parallel = match &pool {
            Some(_) => true,
            None => threads.is_none() && rayon::current_num_threads() > 1,
        };
        #[cfg(not(feature = "parallel"))]
        let parallel = false;
        Ok(Reader {
            keyed,
            mmap: parallel && access == Access::Map,
            #[cfg(all(feature = "parallel", unix))]
            read_at: parallel && access == Access::ReadAt,
            progress: progress && io::stderr().is_terminal(),
            #[cfg(feature = "parallel")]
            pool,
            #[cfg(feature = "parallel")]
            sequential: threads == Some(1),
            buf: ReadBuf::new(),
        })
    }

    /// A streaming computation of the key's digest (or tag).
    pub fn stream(&self) -> Hasher<'k> {
        self.keyed.stream()
    }

    /// The algorithm is vecHash2L: inputs are components of one vector.
    pub fn is_vector(&self) -> bool {
        self.keyed.key().algorithm().is_vector()
    }

    /// The digest (or tag) of the file `name` (`-`: standard input) and its length in bytes.
    /// The error is the message without the file name.
    pub fn digest(&mut self, name: &OsStr) -> Result<(Digest, u64), String> {
        let mut stream = self.keyed.stream();
        if name == "-" {
            let n = feed(&mut stream, &mut io::stdin().lock(), self.buf.get(), None)?;
            return Ok((stream.finalize(), n));
        }
        let (mut file, size) = open(name)?;
        let bar = self.bar(name, size);
        #[cfg(all(feature = "parallel", unix))]
        if let Some(n) = size.filter(|&n| self.read_at && n > 0) {
            return Ok((self.hash_read_at(&file, n, bar)?, n));
        }
        if let Some(map) = self.map(&file, size) {
            let digest = self.hash_mapped(&map, bar.as_ref())?;
            return Ok((digest, map.len() as u64));
        }
        let n = feed(&mut stream, &mut file, self.buf.get(), bar.as_ref());
        finish(bar);
        Ok((stream.finalize(), n?))
    }

    /// Appends the file `name` (`-`: standard input) to `stream`: one vecHash2L component
    /// (mapped files go in whole, on this thread). Returns its length in bytes.
    pub fn absorb(&mut self, stream: &mut Hasher<'_>, name: &OsStr) -> Result<u64, String> {
        if name == "-" {
            return feed(stream, &mut io::stdin().lock(), self.buf.get(), None);
        }
        let (mut file, size) = open(name)?;
        let bar = self.bar(name, size);
        let result = match self.map(&file, size) {
            Some(map) => pieces(stream, &map, bar.as_ref()).map(|()| map.len() as u64),
            None => feed(stream, &mut file, self.buf.get(), bar.as_ref()),
        };
        finish(bar);
        result
    }

    /// The digest (or tag) of the vecHash2L vector whose components are the files `names`
    /// and its length in bytes, on the thread pool with every thread reading its own pieces
    /// (components side by side, long ones split). None when that does not apply: one
    /// thread, `--mmap` / `--no-mmap`, standard input, or a component that cannot be opened
    /// or is not a regular file; the caller streams the components then (and reports what
    /// fails). The error: each component whose reading failed, with the message.
    #[cfg(all(feature = "parallel", unix))]
    pub fn digest_vector(
        &self,
        names: &[std::ffi::OsString],
    ) -> Option<Result<(Digest, u64), FailedComponents>> {
        use std::os::unix::fs::FileExt;
        use std::sync::OnceLock;
        if !self.read_at || !self.is_vector() || names.iter().any(|n| n == "-") {
            return None;
        }
        let mut files = Vec::with_capacity(names.len());
        for name in names {
            match open(name).ok()? {
                (file, Some(size)) => files.push((file, size)),
                (_, None) => return None,
            }
        }
        let total = files.iter().map(|(_, n)| n).sum::<u64>();
        let shown = names.join(OsStr::new(" "));
        let bar = self.bar(&shown, Some(total));
        // Each component's first read error, kept by component for the report.
        let errors: Vec<OnceLock<String>> = names.iter().map(|_| OnceLock::new()).collect();
        let readers: Vec<_> = files
            .iter()
            .zip(&errors)
            .map(|((file, _), error)| {
                let bar = &bar;
                move |offset: u64, buf: &mut [u8]| {
                    file.read_exact_at(buf, offset).inspect_err(|e| {
                        let _ = error.set(io_message(e));
                    })?;
                    if let Some(bar) = bar {
                        bar.inc(buf.len() as u64);
                    }
                    Ok(())
                }
            })
            .collect();
        let components: Vec<(u64, brwhash::ReadAt<'_>)> = files
            .iter()
            .zip(&readers)
            .map(|((_, size), read)| (*size, read as brwhash::ReadAt<'_>))
            .collect();
        let keyed = self.keyed;
        let run = || match keyed {
            Keyed::Digest(key) => key.hash_vector_parallel_read_at(&components),
            Keyed::Mac(mac) => mac.tag_vector_parallel_read_at(&components),
        };
        let result = match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        finish(bar);
        Some(match result {
            Ok(digest) => Ok((digest, total)),
            Err(e) => {
                let mut failed: Vec<(usize, String)> = errors
                    .into_iter()
                    .enumerate()
                    .filter_map(|(i, error)| error.into_inner().map(|msg| (i, msg)))
                    .collect();
                // Not a read error (a component longer than the limit): on the first one.
                if failed.is_empty() {
                    failed.push((0, io_message(&e)));
                }
                Err(failed)
            }
        })
    }

    /// The map of a regular, non-empty file, unless `--no-mmap`; None (read it instead) when
    /// mapping fails.
    fn map(&self, file: &File, size: Option<u64>) -> Option<Mmap> {
        match size {
            Some(n) if self.mmap && n > 0 && usize::try_from(n).is_ok() => map_file(file),
            _ => None,
        }
    }

    /// A regular file of `len` bytes on the thread pool, every thread reading its own pieces.
    #[cfg(all(feature = "parallel", unix))]
    fn hash_read_at(
        &self,
        file: &File,
        len: u64,
        bar: Option<ProgressBar>,
    ) -> Result<Digest, String> {
        use std::os::unix::fs::FileExt;
        // Every thread reads a piece just before hashing it: the bytes read are the progress.
        let read = |offset: u64, buf: &mut [u8]| {
            file.read_exact_at(buf, offset)?;
            if let Some(bar) = &bar {
                bar.inc(buf.len() as u64);
            }
            Ok(())
        };
        let keyed = self.keyed;
        let run = || match keyed {
            Keyed::Digest(key) => key.hash_parallel_read_at(len, &read),
            Keyed::Mac(mac) => mac.tag_parallel_read_at(len, &read),
        };
        let result = match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        finish(bar);
        result.map_err(|e| io_message(&e))
    }

    /// A mapped input: on the thread pool, or on this thread with `--threads 1`.
    fn hash_mapped(&self, map: &[u8], bar: Option<&ProgressBar>) -> Result<Digest, String> {
        #[cfg(feature = "parallel")]
        if !self.sequential {
            // A mapped file is hashed in place, with no hook to count bytes: the bar spins.
            if let Some(bar) = bar {
                bar.set_style(spinner_style());
                bar.enable_steady_tick(std::time::Duration::from_millis(120));
            }
            let keyed = self.keyed;
            let digest = match &self.pool {
                Some(pool) => pool.install(|| keyed.whole_parallel(map)),
                None => keyed.whole_parallel(map),
            };
            finish(bar.cloned());
            return Ok(digest);
        }
        match bar {
            None => Ok(self.keyed.whole(map)),
            Some(bar) => {
                let mut stream = self.keyed.stream();
                let result = pieces(&mut stream, map, Some(bar));
                finish(Some(bar.clone()));
                result.map(|()| stream.finalize())
            }
        }
    }

    /// A progress bar on standard error for a regular file of at least [`PROGRESS_MIN`] bytes
    /// when standard error is a terminal; None otherwise.
    fn bar(&self, name: &OsStr, size: Option<u64>) -> Option<ProgressBar> {
        let size = size.filter(|&n| self.progress && n >= PROGRESS_MIN)?;
        let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr())
            .with_style(bar_style())
            .with_message(Path::new(name).display().to_string());
        bar.tick();
        Some(bar)
    }
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{msg:.bold} [{bar:30}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} \
         eta {eta}",
    )
    .expect("valid template")
    .progress_chars("=> ")
}

#[cfg(feature = "parallel")]
fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {msg:.bold} {binary_total_bytes} on all threads, {elapsed}",
    )
    .expect("valid template")
}

fn finish(bar: Option<ProgressBar>) {
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// Opens `name`; the size is that of a regular file (None for devices, FIFOs, directories).
fn open(name: &OsStr) -> Result<(File, Option<u64>), String> {
    let file = File::open(name).map_err(|e| io_message(&e))?;
    let meta = file.metadata().map_err(|e| io_message(&e))?;
    let size = meta.is_file().then_some(meta.len());
    Ok((file, size))
}

/// Maps `file` read-only, or None if the system refuses (the caller then reads it).
#[allow(unsafe_code)]
fn map_file(file: &File) -> Option<Mmap> {
    // SAFETY: `Mmap::map` is unsafe because the mapped bytes are shared with the file: if
    // another process truncates the file while it is mapped, touching the lost pages raises
    // SIGBUS (the process dies), and if it writes to the file the hash may see a torn mix of
    // old and new contents, bytes that are not frozen as a `&[u8]` promises. The map is only
    // ever read, by the hash functions, which are correct for any byte values, and it is
    // dropped before the next input. This is the trade-off b3sum makes; `brwhash --help`
    // (INPUT) tells users to pass --no-mmap for files that may change while being hashed.
    let map = unsafe { Mmap::map(file) }.ok()?;
    // The hashes read front to back (each thread over its own range): ask for read-ahead.
    // Only a hint; failure changes nothing.
    let _ = map.advise(Advice::Sequential);
    Some(map)
}

/// `map` into `stream` in [`PIECE`]-byte pieces, advancing `bar`.
fn pieces(stream: &mut Hasher<'_>, map: &[u8], bar: Option<&ProgressBar>) -> Result<(), String> {
    for piece in map.chunks(PIECE) {
        stream.update(piece).map_err(|e| e.to_string())?;
        if let Some(bar) = bar {
            bar.inc(piece.len() as u64);
        }
    }
    Ok(())
}

/// Streams `reader` into `stream` in [`CHUNK`]-byte reads; returns the byte count.
fn feed(
    stream: &mut Hasher<'_>,
    reader: &mut impl Read,
    buf: &mut [u8],
    bar: Option<&ProgressBar>,
) -> Result<u64, String> {
    let mut total = 0u64;
    loop {
        match reader.read(buf) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                stream.update(&buf[..n]).map_err(|e| e.to_string())?;
                total += n as u64;
                if let Some(bar) = bar {
                    bar.inc(n as u64);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_message(&e)),
        }
    }
}
