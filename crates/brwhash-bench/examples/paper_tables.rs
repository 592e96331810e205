//! The comparison of [P1] (paper 001) Tables 7 and 8 on this machine: cycles per byte of
//! polyHash (g = 1, 4, 8), BRWHash, t-BRWHash (t = 4, 5) and d-2LHash (d = 4, 5) for both
//! primes at 50..500 blocks, on the scalar backend (the papers' sequential 64-bit code).
//!
//! ```text
//! cargo run --release -p brwhash-bench --example paper_tables [--quick]
//! ```
//!
//! Each cell is "pre / otf" like the paper's: key powers precomputed (a `Key`), and computed
//! per message (`brwhash::hash_with_backend`, which computes only the powers the length
//! needs). polyHash with g = 1 needs no powers, and g = 4 has no one-shot API, so those rows
//! give "pre" only. TSC cycles per byte; the header gives the TSC-to-core ratio. Rows are
//! measured interleaved (every round visits every row and length).

use std::hint::black_box;

use brwhash::{Algorithm, Backend, Key};
use brwhash_bench::harness::{self, Cell, Routine, Settings};

const BLOCKS: [usize; 10] = [50, 100, 150, 200, 250, 300, 350, 400, 450, 500];

/// A row: label, algorithm, Horner group g (None: the default), and whether it has an "otf".
struct Row {
    label: String,
    alg: Algorithm,
    g: Option<usize>,
    otf: bool,
}

fn rows(prime: &str) -> Vec<Row> {
    let alg = |name: String| -> Algorithm { name.parse().expect("a valid name") };
    let mut v = Vec::new();
    for g in [1, 4, 8] {
        v.push(Row {
            label: format!("polyHash{prime} g = {g}"),
            alg: alg(format!("polyHash{prime}")),
            g: (g != 8).then_some(g),
            otf: g == 8,
        });
    }
    // BRWHash, t-BRWHash (t = 4, 5) and d-2LHash (d = 4, 5), in [P1]'s order.
    let names = ["BRWHash", "4-BRWHash", "5-BRWHash", "4-2LHash", "5-2LHash"];
    for name in names {
        v.push(Row {
            label: format!("{name}{prime}"),
            alg: alg(format!("{name}{prime}")),
            g: None,
            otf: true,
        });
    }
    v
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let quick = std::env::args().any(|a| a == "--quick");
    let settings = if quick {
        Settings::quick()
    } else {
        Settings::full()
    };
    if !Backend::Scalar.cpu_supports() {
        return Err("this CPU lacks BMI2: the scalar backend cannot run here".into());
    }
    let clock = harness::calibrate(&settings);
    println!("# [P1] Tables 7 and 8 on this machine (scalar backend)\n");
    println!("Clock: {}\n", clock.describe());
    let key = brwhash_bench::pseudo_random_bytes(0x0070_6170_6572, 16);
    let msg = brwhash_bench::pseudo_random_bytes(0x0074_6162_6c65, 500 * 16);

    for (prime, block) in [("1271", 15usize), ("1305", 16)] {
        let table = rows(prime);
        let mut routines: Vec<Routine<'static>> = Vec::new();
        // Per row: (routine index of "pre", routine index of "otf").
        let mut index = Vec::new();
        for row in &table {
            let k = match row.g {
                Some(g) => Key::with_horner_group(row.alg, &key, Backend::Scalar, g)?,
                None => Key::with_backend(row.alg, &key, Backend::Scalar)?,
            };
            // Every row must give the portable result (the knob and the backend change no
            // output).
            let want = brwhash::hash_with_backend(row.alg, Backend::Portable, &key, &msg)?;
            if k.hash(&msg) != want {
                return Err(format!("{}: scalar result differs from portable", row.label).into());
            }
            routines.push(Box::new(move |m: &[u8]| {
                black_box(k.hash(black_box(m)));
            }));
            let pre = routines.len() - 1;
            let otf = row.otf.then(|| {
                let (alg, key) = (row.alg, key.clone());
                routines.push(Box::new(move |m: &[u8]| {
                    black_box(brwhash::hash_with_backend(alg, Backend::Scalar, &key, m).ok());
                }));
                routines.len() - 1
            });
            index.push((pre, otf));
        }
        let cells: Vec<Cell> = (0..routines.len())
            .flat_map(|row| {
                BLOCKS.iter().map(move |&b| Cell {
                    row,
                    len: b * block,
                })
            })
            .collect();
        let measured =
            harness::measure(&mut routines, &cells, &msg, &settings, &clock, &mut |_| {});
        let cpb = |routine: usize, col: usize| {
            let cell = routine * BLOCKS.len() + col;
            measured[cell].0 / (BLOCKS[col] * block) as f64
        };
        println!(
            "## 2^{}  (TSC cycles per byte, pre / otf)\n",
            if prime == "1271" {
                "127 - 1"
            } else {
                "130 - 5"
            }
        );
        print!("| function |");
        for b in BLOCKS {
            print!(" {b} |");
        }
        println!();
        println!("|---|{}", "---:|".repeat(BLOCKS.len()));
        for (row, &(pre, otf)) in table.iter().zip(&index) {
            print!("| {} |", row.label);
            for col in 0..BLOCKS.len() {
                match otf {
                    Some(o) => print!(" {:.2} / {:.2} |", cpb(pre, col), cpb(o, col)),
                    None => print!(" {:.2} |", cpb(pre, col)),
                }
            }
            println!();
        }
        println!();
    }
    Ok(())
}
