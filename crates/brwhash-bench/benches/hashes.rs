//! The criterion suite: every default algorithm of `brwhash bench` plus Hash2L128, on every
//! backend that can run here, one-shot and with a precomputed key, and the peers (Poly1305,
//! and GHASH / POLYVAL for Hash2L128), at a few lengths, with throughput in bytes.
//!
//! ```text
//! cargo bench -p brwhash-bench                      # all of it (a few minutes)
//! cargo bench -p brwhash-bench -- 'Poly1305'        # a filter on the benchmark ids
//! ```
//!
//! The same rows are checked before they are measured (`suite::prepare`): a peer that
//! disagrees with its reference stops the run.

use std::time::Duration;

use brwhash::Algorithm;
use brwhash_bench::suite::{self, Mode, Plan};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const LENGTHS: [usize; 3] = [64, 1024, 16384];

fn hashes(c: &mut Criterion) {
    let mut algorithms: Vec<Algorithm> = suite::DEFAULT_ALGORITHMS
        .iter()
        .map(|s| s.parse().expect("default algorithm names parse"))
        .collect();
    algorithms.push(Algorithm::HASH2L128);
    let plan = Plan {
        algorithms,
        lengths: LENGTHS.to_vec(),
        backends: None,
        modes: vec![Mode::OneShot, Mode::Key],
        peers: true,
        settings: brwhash_bench::harness::Settings::quick(),
        default_row: true,
        piece: suite::DEFAULT_PIECE,
        components: 1,
    };
    let prepared = match suite::prepare(&plan) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("brwhash-bench: {e}");
            std::process::exit(2);
        }
    };
    let max = LENGTHS.iter().copied().max().unwrap_or(0);
    let msg = brwhash_bench::pseudo_random_bytes(7, max);
    let mut routines = prepared.routines;
    for (info, routine) in prepared.rows.iter().zip(routines.iter_mut()) {
        let mut group = c.benchmark_group(info.algorithm.as_str());
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(800))
            .sample_size(20);
        let id = format!("{} [{}, {}]", info.implementation, info.backend, info.mode);
        for &len in &LENGTHS {
            group.throughput(Throughput::Bytes(len as u64));
            group.bench_with_input(BenchmarkId::new(id.as_str(), len), &msg[..len], |b, m| {
                b.iter(|| routine(m))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, hashes);
criterion_main!(benches);
