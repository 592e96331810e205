//! First timing of the library: cycles per byte of chosen algorithms at chosen lengths,
//! one-shot (key powers per call), with a precomputed `Key`, and streamed in 4 KiB updates.
//!
//! ```text
//! cargo run --release -p brwhash --example timing [ALG,ALG,...] [LEN,LEN,...]
//! ```
//!
//! Cycles are TSC cycles (the `cpu MHz` of /proc/cpuinfo on this machine, constant-rate TSC),
//! like the peer table of IMPLEMENTATION-NOTES 12.2. Median of 11 rounds of about 20 ms each.
//! This is a quick look; the benchmark suite with peers in the same run is `brwhash bench`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use brwhash::{Algorithm, Key};

fn tsc_hz() -> Option<f64> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("cpu MHz"))?;
    let mhz: f64 = line.split(':').nth(1)?.trim().parse().ok()?;
    Some(mhz * 1e6)
}

/// Median seconds per call of `f`.
fn time(mut f: impl FnMut()) -> f64 {
    // Calibrate a batch to about 20 ms.
    let mut batch = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        if t.elapsed() > Duration::from_millis(20) {
            break;
        }
        batch *= 2;
    }
    let mut rounds: Vec<f64> = (0..11)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.elapsed().as_secs_f64() / batch as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[rounds.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let algs: Vec<Algorithm> = match args.first() {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => [
            "Poly1305",
            "polyHash1305",
            "4-decBRWHash1305",
            "4-Hash1271",
            "Hash2L128",
        ]
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?,
    };
    let lens: Vec<usize> = match args.get(1) {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => vec![64, 1024, 65536],
    };
    let hz = tsc_hz();
    println!(
        "{:<18} {:>8} {:>10} {:>12} {:>12} {:>12} {:>10}",
        "algorithm", "bytes", "backend", "c/B one-shot", "c/B key", "c/B stream", "GB/s key"
    );
    for alg in algs {
        let key_bytes: Vec<u8> = (0..alg.key_len() as u8)
            .map(|i| i.wrapping_mul(37) ^ 0x5c)
            .collect();
        let key = Key::new(alg, &key_bytes)?;
        for &n in &lens {
            let msg: Vec<u8> = (0..n).map(|i| i as u8).collect();
            let one_shot = time(|| {
                black_box(brwhash::hash(alg, black_box(&key_bytes), black_box(&msg)).ok());
            });
            let keyed = time(|| {
                black_box(key.hash(black_box(&msg)));
            });
            // Streaming: the same message in updates of 4 KiB.
            let streamed = time(|| {
                let mut h = brwhash::Hasher::new(&key);
                for piece in black_box(&msg).chunks(4096) {
                    h.update(piece).ok();
                }
                black_box(h.into_digest());
            });
            let cpb = |s: f64| match hz {
                Some(hz) => format!("{:.3}", s * hz / n as f64),
                None => format!("{:.3}ns", s * 1e9 / n as f64),
            };
            println!(
                "{:<18} {:>8} {:>10} {:>12} {:>12} {:>12} {:>10.3}",
                alg.to_string(),
                n,
                key.backend().name(),
                cpb(one_shot),
                cpb(keyed),
                cpb(streamed),
                n as f64 / keyed / 1e9
            );
        }
    }
    Ok(())
}
