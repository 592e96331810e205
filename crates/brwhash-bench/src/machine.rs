//! What the benchmark ran on: the CPU model and brwhash's backends here.

use brwhash::{Algorithm, Backend};

/// The machine and build a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// `model name` of /proc/cpuinfo (or the target architecture when it is unreadable).
    pub cpu: String,
    /// Logical CPUs (`std::thread::available_parallelism`).
    pub logical_cpus: usize,
    /// Backends whose instructions this CPU has.
    pub cpu_backends: Vec<Backend>,
    /// Backends this build of brwhash has code for (for at least one algorithm) and this CPU
    /// supports: those a `--backends all` run can measure.
    pub available_backends: Vec<Backend>,
    /// Versions of the peer libraries linked in.
    pub peer_versions: Vec<String>,
}

impl Machine {
    /// Looks at this machine.
    pub fn detect() -> Machine {
        let algs = Algorithm::all();
        Machine {
            cpu: cpu_model().unwrap_or_else(|| std::env::consts::ARCH.to_string()),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu_backends: Backend::ALL
                .into_iter()
                .filter(|b| b.cpu_supports())
                .collect(),
            available_backends: Backend::ALL
                .into_iter()
                .filter(|b| algs.iter().any(|&a| b.check(a).is_ok()))
                .collect(),
            peer_versions: crate::peers::versions(),
        }
    }
}

/// The first `model name` line of /proc/cpuinfo.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|s| !s.is_empty())
}
