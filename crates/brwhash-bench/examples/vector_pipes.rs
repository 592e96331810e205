//! Throughput of the vector instructions that carry-less hashing is made of, on this CPU:
//! the numbers behind the port-limit arguments of the Hash2L notes (issue 4). Each row runs
//! independent copies of an instruction mix in a loop (8 instructions or more per
//! iteration, each copy with its own destination registers) and prints core cycles per mix
//! (the TSC converted with the harness's dependent-add estimate of the core clock; minimum
//! of 7 runs). On AMD Zen 4, for example, a zmm carry-less product issues once per 2
//! cycles and also occupies the pipes that XORs use, while a zmm lane shuffle issues once
//! per cycle.
//!
//! ```text
//! cargo run --release -p brwhash-bench --example vector_pipes
//! ```
//!
//! Needs AVX-512F/VL and VPCLMULQDQ; elsewhere it says so and exits. Generated as a table
//! of asm strings: one `asm!` block per row, so the compiler cannot merge or reorder the
//! instructions.

#[cfg(target_arch = "x86_64")]
mod pipes {
    use std::arch::asm;
    use std::hint::black_box;

    use brwhash_bench::harness::{self, Settings};

    /// Loop iterations per run.
    const ITERS: u64 = 200_000;

    /// A row's function: `iters` times the asm lines (copies of its mix, with their own
    /// destination registers so that the copies are independent).
    macro_rules! row {
        ($name:ident, $($line:literal),+ $(,)?) => {
            row!(@ "avx512f,avx512vl,vpclmulqdq,pclmulqdq", $name, $($line),+);
        };
        (@ $features:literal, $name:ident, $($line:literal),+ $(,)?) => {
            #[target_feature(enable = $features)]
            unsafe fn $name(iters: u64, p: *mut u8) {
                for _ in 0..iters {
                    // SAFETY: register-only instructions, or loads and stores within the
                    // caller's 512-byte buffer at `p` (at most 192 bytes from it); every
                    // vector and mask register is declared clobbered.
                    unsafe {
                        asm!($($line),+, p = in(reg) p, clobber_abi("C"), options(nostack));
                    }
                }
            }
        };
    }

    /// The rows' memory operands.
    #[repr(C, align(64))]
    struct Buf([u8; 512]);

    /// Runs `f(ITERS, buffer)` 7 times; the fewest ticks per iteration.
    fn time(f: unsafe fn(u64, *mut u8), buf: &mut Buf) -> f64 {
        let mut best = f64::INFINITY;
        for _ in 0..7 {
            let t = harness::ticks();
            // SAFETY: every row's function reads and writes only `buf`'s first 192 bytes, and
            // `main` checked the CPU features the rows use.
            unsafe { f(black_box(ITERS), buf.0.as_mut_ptr()) };
            let dt = harness::ticks() - t;
            best = best.min(dt as f64 / ITERS as f64);
        }
        best
    }

    // vpxorq zmm
    row!(
        row0,
        "vpxorq zmm3, zmm24, zmm28",
        "vpxorq zmm4, zmm25, zmm28",
        "vpxorq zmm5, zmm26, zmm28",
        "vpxorq zmm6, zmm24, zmm28",
        "vpxorq zmm7, zmm25, zmm28",
        "vpxorq zmm8, zmm26, zmm28",
        "vpxorq zmm9, zmm24, zmm28",
        "vpxorq zmm10, zmm25, zmm28",
        "/* {p} */",
    );

    // vpternlogq zmm
    row!(
        row1,
        "vpternlogq zmm3, zmm24, zmm28, 0x96",
        "vpternlogq zmm4, zmm25, zmm28, 0x96",
        "vpternlogq zmm5, zmm26, zmm28, 0x96",
        "vpternlogq zmm6, zmm24, zmm28, 0x96",
        "vpternlogq zmm7, zmm25, zmm28, 0x96",
        "vpternlogq zmm8, zmm26, zmm28, 0x96",
        "vpternlogq zmm9, zmm24, zmm28, 0x96",
        "vpternlogq zmm10, zmm25, zmm28, 0x96",
        "/* {p} */",
    );

    // vshufi64x2 zmm
    row!(
        row2,
        "vshufi64x2 zmm3, zmm24, zmm28, 0x44",
        "vshufi64x2 zmm4, zmm25, zmm28, 0x44",
        "vshufi64x2 zmm5, zmm26, zmm28, 0x44",
        "vshufi64x2 zmm6, zmm24, zmm28, 0x44",
        "vshufi64x2 zmm7, zmm25, zmm28, 0x44",
        "vshufi64x2 zmm8, zmm26, zmm28, 0x44",
        "vshufi64x2 zmm9, zmm24, zmm28, 0x44",
        "vshufi64x2 zmm10, zmm25, zmm28, 0x44",
        "/* {p} */",
    );

    // vpermt2q zmm
    row!(
        row3,
        "vpermt2q zmm3, zmm31, zmm24",
        "vpermt2q zmm4, zmm31, zmm25",
        "vpermt2q zmm5, zmm31, zmm26",
        "vpermt2q zmm6, zmm31, zmm24",
        "vpermt2q zmm7, zmm31, zmm25",
        "vpermt2q zmm8, zmm31, zmm26",
        "vpermt2q zmm9, zmm31, zmm24",
        "vpermt2q zmm10, zmm31, zmm25",
        "/* {p} */",
    );

    // vinserti64x4 zmm, m256
    row!(
        row4,
        "vinserti64x4 zmm3, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm4, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm5, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm6, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm7, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm8, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm9, zmm28, ymmword ptr [{p} + 32], 1",
        "vinserti64x4 zmm10, zmm28, ymmword ptr [{p} + 32], 1",
    );

    // vpunpcklqdq zmm
    row!(
        row5,
        "vpunpcklqdq zmm3, zmm24, zmm28",
        "vpunpcklqdq zmm4, zmm25, zmm28",
        "vpunpcklqdq zmm5, zmm26, zmm28",
        "vpunpcklqdq zmm6, zmm24, zmm28",
        "vpunpcklqdq zmm7, zmm25, zmm28",
        "vpunpcklqdq zmm8, zmm26, zmm28",
        "vpunpcklqdq zmm9, zmm24, zmm28",
        "vpunpcklqdq zmm10, zmm25, zmm28",
        "/* {p} */",
    );

    // vpslldq zmm
    row!(
        row6,
        "vpslldq zmm3, zmm24, 8",
        "vpslldq zmm4, zmm25, 8",
        "vpslldq zmm5, zmm26, 8",
        "vpslldq zmm6, zmm24, 8",
        "vpslldq zmm7, zmm25, 8",
        "vpslldq zmm8, zmm26, 8",
        "vpslldq zmm9, zmm24, 8",
        "vpslldq zmm10, zmm25, 8",
        "/* {p} */",
    );

    // vpclmulqdq xmm
    row!(
        row7,
        "vpclmulqdq xmm0, xmm24, xmm28, 0x10",
        "vpclmulqdq xmm1, xmm25, xmm28, 0x10",
        "vpclmulqdq xmm2, xmm26, xmm28, 0x10",
        "vpclmulqdq xmm3, xmm24, xmm28, 0x10",
        "vpclmulqdq xmm4, xmm25, xmm28, 0x10",
        "vpclmulqdq xmm5, xmm26, xmm28, 0x10",
        "vpclmulqdq xmm6, xmm24, xmm28, 0x10",
        "vpclmulqdq xmm7, xmm25, xmm28, 0x10",
        "/* {p} */",
    );

    // vpclmulqdq ymm
    row!(
        row8,
        "vpclmulqdq ymm0, ymm24, ymm28, 0x10",
        "vpclmulqdq ymm1, ymm25, ymm28, 0x10",
        "vpclmulqdq ymm2, ymm26, ymm28, 0x10",
        "vpclmulqdq ymm3, ymm24, ymm28, 0x10",
        "vpclmulqdq ymm4, ymm25, ymm28, 0x10",
        "vpclmulqdq ymm5, ymm26, ymm28, 0x10",
        "vpclmulqdq ymm6, ymm24, ymm28, 0x10",
        "vpclmulqdq ymm7, ymm25, ymm28, 0x10",
        "/* {p} */",
    );

    // vpclmulqdq zmm
    row!(
        row9,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vpclmulqdq zmm1, zmm25, zmm28, 0x10",
        "vpclmulqdq zmm2, zmm26, zmm28, 0x10",
        "vpclmulqdq zmm3, zmm24, zmm28, 0x10",
        "vpclmulqdq zmm4, zmm25, zmm28, 0x10",
        "vpclmulqdq zmm5, zmm26, zmm28, 0x10",
        "vpclmulqdq zmm6, zmm24, zmm28, 0x10",
        "vpclmulqdq zmm7, zmm25, zmm28, 0x10",
        "/* {p} */",
    );

    // vpclmulqdq zmm + 1 vpxorq
    row!(
        row10,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vpxorq zmm4, zmm24, zmm28",
        "vpclmulqdq zmm2, zmm25, zmm28, 0x10",
        "vpxorq zmm6, zmm25, zmm28",
        "vpclmulqdq zmm4, zmm26, zmm28, 0x10",
        "vpxorq zmm8, zmm26, zmm28",
        "vpclmulqdq zmm6, zmm24, zmm28, 0x10",
        "vpxorq zmm10, zmm24, zmm28",
        "/* {p} */",
    );

    // vpclmulqdq zmm + 2 vpxorq
    row!(
        row11,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vpxorq zmm4, zmm24, zmm28",
        "vpxorq zmm8, zmm24, zmm28",
        "vpclmulqdq zmm3, zmm25, zmm28, 0x10",
        "vpxorq zmm7, zmm25, zmm28",
        "vpxorq zmm11, zmm25, zmm28",
        "vpclmulqdq zmm6, zmm26, zmm28, 0x10",
        "vpxorq zmm10, zmm26, zmm28",
        "vpxorq zmm14, zmm26, zmm28",
        "/* {p} */",
    );

    // vpclmulqdq zmm + 4 vpxorq
    row!(
        row12,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vpxorq zmm4, zmm24, zmm28",
        "vpxorq zmm8, zmm24, zmm28",
        "vpxorq zmm12, zmm24, zmm28",
        "vpxorq zmm16, zmm24, zmm28",
        "vpclmulqdq zmm5, zmm25, zmm28, 0x10",
        "vpxorq zmm9, zmm25, zmm28",
        "vpxorq zmm13, zmm25, zmm28",
        "vpxorq zmm17, zmm25, zmm28",
        "vpxorq zmm21, zmm25, zmm28",
        "/* {p} */",
    );

    // vpclmulqdq zmm + 2 vshufi64x2
    row!(
        row13,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vshufi64x2 zmm4, zmm24, zmm28, 0x44",
        "vshufi64x2 zmm8, zmm24, zmm28, 0x44",
        "vpclmulqdq zmm3, zmm25, zmm28, 0x10",
        "vshufi64x2 zmm7, zmm25, zmm28, 0x44",
        "vshufi64x2 zmm11, zmm25, zmm28, 0x44",
        "vpclmulqdq zmm6, zmm26, zmm28, 0x10",
        "vshufi64x2 zmm10, zmm26, zmm28, 0x44",
        "vshufi64x2 zmm14, zmm26, zmm28, 0x44",
        "/* {p} */",
    );

    // 2 vpclmulqdq + 3 vshufi64x2 + 3 vpxorq
    row!(
        row14,
        "vpclmulqdq zmm0, zmm24, zmm28, 0x10",
        "vshufi64x2 zmm4, zmm24, zmm28, 0x44",
        "vpxorq zmm8, zmm24, zmm28",
        "vshufi64x2 zmm12, zmm24, zmm28, 0x44",
        "vpxorq zmm16, zmm24, zmm28",
        "vpclmulqdq zmm20, zmm24, zmm28, 0x10",
        "vshufi64x2 zmm0, zmm24, zmm28, 0x44",
        "vpxorq zmm4, zmm24, zmm28",
        "/* {p} */",
    );

    // vmovdqu64 zmm load, aligned
    row!(
        row15,
        "vmovdqu64 zmm0, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm1, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm2, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm3, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm4, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm5, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm6, zmmword ptr [{p} + 64]",
        "vmovdqu64 zmm7, zmmword ptr [{p} + 64]",
    );

    // vmovdqu64 zmm load, across a line
    row!(
        row16,
        "vmovdqu64 zmm0, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm1, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm2, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm3, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm4, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm5, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm6, zmmword ptr [{p} + 16]",
        "vmovdqu64 zmm7, zmmword ptr [{p} + 16]",
    );

    // vmovdqu64 zmm store
    row!(
        row17,
        "vmovdqu64 zmmword ptr [{p} + 128], zmm24",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm25",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm26",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm24",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm25",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm26",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm24",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm25",
    );

    // vmovdqu64 zmm store + vpclmulqdq zmm
    row!(
        row18,
        "vmovdqu64 zmmword ptr [{p} + 128], zmm24",
        "vpclmulqdq zmm1, zmm24, zmm28, 0x10",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm25",
        "vpclmulqdq zmm3, zmm25, zmm28, 0x10",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm26",
        "vpclmulqdq zmm5, zmm26, zmm28, 0x10",
        "vmovdqu64 zmmword ptr [{p} + 128], zmm24",
        "vpclmulqdq zmm7, zmm24, zmm28, 0x10",
    );

    /// (mix, function, copies of the mix per iteration, kind).
    type Row = (&'static str, unsafe fn(u64, *mut u8), u32, &'static str);
    const ROWS: &[Row] = &[
        ("vpxorq zmm", row0, 8, "xor"),
        ("vpternlogq zmm", row1, 8, "xor"),
        ("vshufi64x2 zmm", row2, 8, "lane shuffle"),
        ("vpermt2q zmm", row3, 8, "lane shuffle"),
        ("vinserti64x4 zmm, m256", row4, 8, "lane shuffle"),
        ("vpunpcklqdq zmm", row5, 8, "in-lane shuffle"),
        ("vpslldq zmm", row6, 8, "in-lane shuffle"),
        ("vpclmulqdq xmm", row7, 8, "carry-less product"),
        ("vpclmulqdq ymm", row8, 8, "carry-less product"),
        ("vpclmulqdq zmm", row9, 8, "carry-less product"),
        ("vpclmulqdq zmm + 1 vpxorq", row10, 4, "mix"),
        ("vpclmulqdq zmm + 2 vpxorq", row11, 3, "mix"),
        ("vpclmulqdq zmm + 4 vpxorq", row12, 2, "mix"),
        ("vpclmulqdq zmm + 2 vshufi64x2", row13, 3, "mix"),
        ("2 vpclmulqdq + 3 vshufi64x2 + 3 vpxorq", row14, 1, "mix"),
        ("vmovdqu64 zmm load, aligned", row15, 8, "load"),
        ("vmovdqu64 zmm load, across a line", row16, 8, "load"),
        ("vmovdqu64 zmm store", row17, 8, "store"),
        ("vmovdqu64 zmm store + vpclmulqdq zmm", row18, 4, "mix"),
    ];

    // vpmadd52luq zmm: 8 independent accumulators
    row!(
        @ "avx512f,avx512vl,avx512ifma",
        ifma0,
        "vpmadd52luq zmm3, zmm24, zmm28",
        "vpmadd52luq zmm4, zmm25, zmm28",
        "vpmadd52luq zmm5, zmm26, zmm28",
        "vpmadd52luq zmm6, zmm24, zmm29",
        "vpmadd52luq zmm7, zmm25, zmm29",
        "vpmadd52luq zmm8, zmm26, zmm29",
        "vpmadd52luq zmm9, zmm24, zmm30",
        "vpmadd52luq zmm10, zmm25, zmm30",
        "/* {p} */",
    );

    // vpmadd52luq ymm: 8 independent accumulators
    row!(
        @ "avx512f,avx512vl,avx512ifma",
        ifma1,
        "vpmadd52luq ymm3, ymm24, ymm28",
        "vpmadd52luq ymm4, ymm25, ymm28",
        "vpmadd52luq ymm5, ymm26, ymm28",
        "vpmadd52luq ymm6, ymm24, ymm29",
        "vpmadd52luq ymm7, ymm25, ymm29",
        "vpmadd52luq ymm8, ymm26, ymm29",
        "vpmadd52luq ymm9, ymm24, ymm30",
        "vpmadd52luq ymm10, ymm25, ymm30",
        "/* {p} */",
    );

    // vpmadd52luq zmm, one accumulator: the latency
    row!(
        @ "avx512f,avx512vl,avx512ifma",
        ifma2,
        "vpmadd52luq zmm3, zmm24, zmm28",
        "vpmadd52luq zmm3, zmm25, zmm28",
        "vpmadd52luq zmm3, zmm26, zmm28",
        "vpmadd52luq zmm3, zmm24, zmm29",
        "/* {p} */",
    );

    // vpmadd52luq zmm + vpsrlq zmm + vpaddq zmm
    row!(
        @ "avx512f,avx512vl,avx512ifma",
        ifma3,
        "vpmadd52luq zmm3, zmm24, zmm28",
        "vpsrlq zmm11, zmm24, 44",
        "vpaddq zmm12, zmm25, zmm28",
        "vpmadd52luq zmm4, zmm25, zmm28",
        "vpsrlq zmm13, zmm25, 44",
        "vpaddq zmm14, zmm26, zmm28",
        "vpmadd52luq zmm5, zmm26, zmm28",
        "vpsrlq zmm15, zmm26, 44",
        "vpaddq zmm16, zmm24, zmm28",
        "vpmadd52luq zmm6, zmm24, zmm29",
        "vpsrlq zmm17, zmm24, 44",
        "vpaddq zmm18, zmm25, zmm29",
        "/* {p} */",
    );

    // vpmadd52luq zmm + vpermq zmm
    row!(
        @ "avx512f,avx512vl,avx512ifma",
        ifma4,
        "vpmadd52luq zmm3, zmm24, zmm28",
        "vpermq zmm11, zmm31, zmm24",
        "vpmadd52luq zmm4, zmm25, zmm28",
        "vpermq zmm12, zmm31, zmm25",
        "vpmadd52luq zmm5, zmm26, zmm28",
        "vpermq zmm13, zmm31, zmm26",
        "vpmadd52luq zmm6, zmm24, zmm29",
        "vpermq zmm14, zmm31, zmm24",
        "/* {p} */",
    );

    const IFMA_ROWS: &[Row] = &[
        ("vpmadd52luq zmm", ifma0, 8, "multiply-add"),
        ("vpmadd52luq ymm", ifma1, 8, "multiply-add"),
        ("vpmadd52luq zmm, dependent", ifma2, 4, "latency"),
        ("vpmadd52luq zmm + vpsrlq + vpaddq", ifma3, 4, "mix"),
        ("vpmadd52luq zmm + vpermq zmm", ifma4, 4, "mix"),
    ];

    pub fn main() {
        let features = ["avx512f", "avx512vl", "vpclmulqdq", "pclmulqdq"];
        let missing: Vec<&str> = features.iter().copied().filter(|f| !detected(f)).collect();
        if !missing.is_empty() {
            println!(
                "vector_pipes: this CPU lacks {}; nothing to measure",
                missing.join(", ")
            );
            return;
        }
        let clock = harness::calibrate(&Settings::quick());
        println!("Clock: {}", clock.describe());
        println!();
        println!("| mix (independent copies, 8 or more instructions per iteration) | kind | core cycles per mix |");
        println!("|---|---|---:|");
        // 64-byte aligned: the rows address `p + 16` (across a cache line), `p + 64` and
        // `p + 128`.
        let mut buf = Box::new(Buf([0; 512]));
        for (name, f, copies, kind) in ROWS {
            let t = time(*f, &mut buf);
            // Ticks per iteration -> core cycles per copy of the mix.
            println!(
                "| {name} | {kind} | {:.2} |",
                t * clock.core_per_tick / f64::from(*copies)
            );
        }
        if !detected("avx512ifma") {
            println!();
            println!("vector_pipes: this CPU lacks avx512ifma; no multiply-add rows");
            return;
        }
        for (name, f, copies, kind) in IFMA_ROWS {
            let t = time(*f, &mut buf);
            println!(
                "| {name} | {kind} | {:.2} |",
                t * clock.core_per_tick / f64::from(*copies)
            );
        }
    }

    fn detected(f: &str) -> bool {
        match f {
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "vpclmulqdq" => std::arch::is_x86_feature_detected!("vpclmulqdq"),
            "pclmulqdq" => std::arch::is_x86_feature_detected!("pclmulqdq"),
            "avx512ifma" => std::arch::is_x86_feature_detected!("avx512ifma"),
            _ => false,
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    pipes::main();
    #[cfg(not(target_arch = "x86_64"))]
    println!("vector_pipes: x86-64 only");
}
