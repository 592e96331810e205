#!/usr/bin/env bash
# The whole test suite, as README.md gives it and .ci/run calls it:
# formatting, lints, the Python reference against every vector, and every Rust test.
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
echo "== cargo test"
cargo test --workspace --locked
