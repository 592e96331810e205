#!/usr/bin/env bash
# The whole test suite, as README.md gives it and .ci/run calls it: formatting, lints, rustdoc,
# the Python reference against every vector, every Rust test (with the C library's known-answer
# program, compiled and run by crates/brwhash-ffi/tests/c.rs), a check of the release build's
# machine code (scripts/check-codegen.sh), and the Python package
# (pip install bindings/python into a virtualenv, then pytest), then a short fuzzing run of
# every fuzz target (scripts/fuzz.sh installs nightly Rust and cargo-fuzz if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh   # system libraries of the benchmark peers (libssl-dev, libipsec-mb-dev)

need() { command -v "$1" >/dev/null 2>&1 || { echo "test.sh: $1 is required but not installed" >&2; exit 1; }; }
need cargo
need python3

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== Python reference against tests/vectors"
python3 reference/check_kats.py tests/vectors/extra.json
echo "== rustdoc (warnings are errors; every example runs in cargo test)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --lib --no-deps --locked
echo "== cargo test (Rust; the C library against the vectors)"
cargo test --workspace --locked
echo "== codegen: no SIMD intrinsic compiled as a function call"
bash scripts/check-codegen.sh
echo "== Python package"
# The CLI agreement tests use the binary cargo test just built.
BRWHASH_CLI="${CARGO_TARGET_DIR:-$PWD/target}/debug/brwhash" bash bindings/python/test.sh
echo "== fuzzing (cargo-fuzz, AddressSanitizer; a short run: docs/fuzzing.md for long ones)"
# BRWHASH_FUZZ_SECONDS=0 skips it (for quick local runs; CI runs it).
if [[ ${BRWHASH_FUZZ_SECONDS:-30} != 0 ]]; then
  bash scripts/fuzz.sh "${BRWHASH_FUZZ_SECONDS:-30}"
fi
