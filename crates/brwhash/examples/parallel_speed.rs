//! Multi-core speed-up of `Key::hash_parallel` on this machine (cargo feature `parallel`):
//! a 256 MiB message in memory, hashed on pools of 1 and 2 (or N) threads, and messages
//! below the threshold through `hash` and `hash_parallel`. Throughput is the median of
//! rounds that alternate the rows, so both see the same machine load.
//!
//! cargo run --release -p brwhash --features parallel --example parallel_speed [ALGS] [MiB] [THREADS]

use std::time::Instant;

use brwhash::{Algorithm, Key};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// XOR of the message's 64-byte lines, eight words wide (the compiler vectorizes it): as
/// fast as one thread reads memory, the ceiling of any hash of a message in memory.
fn read_all(bytes: &[u8]) -> u64 {
    let mut acc = [0u64; 8];
    for line in bytes.chunks_exact(64) {
        for (a, w) in acc.iter_mut().zip(line.chunks_exact(8)) {
            *a ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        }
    }
    acc.iter().fold(0, |a, b| a ^ b)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let algs = args
        .get(1)
        .map_or("Poly1305,4-decBRWHash1305,Hash2L128", String::as_str);
    let mib: usize = args.get(2).map_or(256, |s| s.parse().expect("MiB"));
    let threads: usize = args.get(3).map_or(2, |s| s.parse().expect("threads"));
    let msg: Vec<u8> = (0..mib << 20).map(|i| (i * 131 + 7) as u8).collect();
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("pool")
    };
    let (one, many) = (pool(1), pool(threads));
    println!("{mib} MiB in memory, GB/s (median of 7 alternating rounds of 4 messages); 1 thread vs {threads}");
    // The machine's ceiling: reading the message on 1 and on N threads.
    let read = |pool: &rayon::ThreadPool| {
        use rayon::prelude::*;
        pool.install(|| {
            let t = Instant::now();
            for _ in 0..4 {
                let x = msg
                    .par_chunks(1 << 20)
                    .map(read_all)
                    .reduce(|| 0, |a, b| a ^ b);
                std::hint::black_box(x);
            }
            4.0 * msg.len() as f64 / t.elapsed().as_secs_f64() / 1e9
        })
    };
    let (mut r1, mut rn) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        r1.push(read(&one));
        rn.push(read(&many));
    }
    let (a, b) = (median(r1), median(rn));
    println!(
        "{:<18} 1 thread {a:6.2}  {threads} threads {b:6.2}  speed-up {:.2}x",
        "(reading only)",
        b / a
    );
    for name in algs.split(',') {
        let alg: Algorithm = name.parse().expect("algorithm");
        let key = Key::new(alg, &vec![0x5a; alg.key_len()]).expect("key");
        let want = key.hash(&msg);
        let (mut t1, mut tn) = (Vec::new(), Vec::new());
        // Each sample: 4 messages in one `install` (threads awake), bytes / time.
        let sample = |pool: &rayon::ThreadPool| {
            pool.install(|| {
                let t = Instant::now();
                for _ in 0..4 {
                    assert_eq!(key.hash_parallel(&msg), want);
                }
                4.0 * msg.len() as f64 / t.elapsed().as_secs_f64() / 1e9
            })
        };
        for _ in 0..7 {
            t1.push(sample(&one));
            tn.push(sample(&many));
        }
        let (a, b) = (median(t1), median(tn));
        println!(
            "{name:<18} 1 thread {a:6.2}  {threads} threads {b:6.2}  speed-up {:.2}x",
            b / a
        );
        // Below the threshold (on the calling thread, the global pool): hash_parallel must
        // cost what hash costs.
        let small = &msg[..brwhash::PARALLEL_THRESHOLD - 1];
        let reps = 200;
        let (mut s, mut p) = (Vec::new(), Vec::new());
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(key.hash(std::hint::black_box(small)));
            }
            s.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(key.hash_parallel(std::hint::black_box(small)));
            }
            p.push(t.elapsed().as_secs_f64());
        }
        println!(
            "{:<18} below the threshold (1 MiB - 1): hash_parallel / hash time {:.3}",
            "",
            median(p) / median(s)
        );
    }
}
