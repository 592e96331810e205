//! Small helpers: error text, stdout lines, exit status.

use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;

/// An I/O error's text without the `(os error N)` suffix, as sha256sum prints it.
pub fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .map(str::to_string)
            .unwrap_or(text),
        None => text,
    }
}

/// One line on stderr, prefixed `brwhash: `. A failing stderr is ignored (nowhere to report).
pub fn error_line(msg: impl Display) {
    let _ = writeln!(io::stderr().lock(), "brwhash: {msg}");
}

/// Why processing stopped early.
#[derive(Debug)]
pub enum Stop {
    /// An argument error, reported before any input is read: exit status 2.
    Usage(String),
    /// Standard output was closed (e.g. `| head`): stop quietly.
    BrokenPipe,
    /// Another error writing standard output.
    Write(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::BrokenPipe
        } else {
            Stop::Write(e)
        }
    }
}

impl From<String> for Stop {
    fn from(msg: String) -> Stop {
        Stop::Usage(msg)
    }
}

impl From<brwhash::Error> for Stop {
    fn from(e: brwhash::Error) -> Stop {
        Stop::Usage(e.to_string())
    }
}

/// Standard output plus what happened so far, which decides the exit status.
pub struct Report {
    out: io::StdoutLock<'static>,
    /// An input could not be processed (exit status 2).
    pub error: bool,
    /// `verify` found a tag that does not match (exit status 1).
    pub mismatch: bool,
}

impl Report {
    pub fn new() -> Report {
        Report {
            out: io::stdout().lock(),
            error: false,
            mismatch: false,
        }
    }

    /// Writes the concatenation of `parts` and a newline to stdout.
    pub fn line(&mut self, parts: &[&[u8]]) -> Result<(), Stop> {
        for part in parts {
            self.out.write_all(part)?;
        }
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// Reports a failed input on stderr; processing goes on with the next one.
    pub fn fail(&mut self, msg: impl Display) {
        error_line(msg);
        self.error = true;
    }

    pub fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush()?;
        Ok(())
    }

    /// 2 after an error, else 1 after a mismatch, else 0.
    pub fn code(&self) -> ExitCode {
        if self.error {
            ExitCode::from(2)
        } else if self.mismatch {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
