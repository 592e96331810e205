//! One-thread throughput of `Key::hash` on a message in memory (larger than every cache)
//! against the same code on a message in the L2 cache: where the ratio is well below 1 the
//! kernel waits for memory, not for its multipliers (see `backend::PREFETCH_AHEAD`).
//!
//! cargo run --release -p brwhash --example memory_speed [NAME-FILTER] [MiB]
//!
//! Every algorithm whose name contains the filter (default: all), on its default backend;
//! GB/s, the median of 5 alternating rounds.

use std::time::Instant;

use brwhash::{Algorithm, Key};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let filter = args.get(1).map_or("", String::as_str);
    let mib: usize = args.get(2).map_or(128, |s| s.parse().expect("MiB"));
    let msg: Vec<u8> = (0..mib << 20).map(|i| (i * 131 + 7) as u8).collect();
    // 256 KiB: in this machine's 2 MiB L2 after the first pass.
    let small = &msg[..256 << 10];
    let reps = msg.len() / small.len();
    println!("{mib} MiB in memory vs 256 KiB in cache, one thread, GB/s (median of 5 rounds)");
    println!(
        "{:<22} {:<9} {:>7} {:>7} {:>7}",
        "algorithm", "backend", "memory", "cache", "ratio"
    );
    for alg in Algorithm::all() {
        let name = alg.to_string();
        if !name.contains(filter) {
            continue;
        }
        let key = Key::new(alg, &vec![0x5a; alg.key_len()]).expect("key");
        let (mut mem, mut cache) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            let t = Instant::now();
            std::hint::black_box(key.hash(std::hint::black_box(&msg)));
            mem.push(msg.len() as f64 / t.elapsed().as_secs_f64() / 1e9);
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(key.hash(std::hint::black_box(small)));
            }
            cache.push((reps * small.len()) as f64 / t.elapsed().as_secs_f64() / 1e9);
        }
        let (m, c) = (median(mem), median(cache));
        println!(
            "{name:<22} {:<9} {m:7.2} {c:7.2} {:7.2}",
            key.backend().to_string(),
            m / c
        );
    }
}
