#!/usr/bin/env bash
# Tests of the Python bindings, from a fresh machine:
#   1. a virtualenv (default <repo>/target/python-venv, reused when present; $BRWHASH_PY_VENV
#      overrides it; $PYTHON picks the interpreter that creates it, default python3 >= 3.11);
#   2. `pip install bindings/python pytest`: pip builds the Rust extension from source through
#      maturin (pyproject.toml) -- cargo's output is shown;
#   3. the brwhash CLI for the CLI agreement tests: $BRWHASH_CLI if set, else
#      `cargo build --release -p brwhash-cli --locked`;
#   4. pytest on bindings/python/tests (extra arguments go to pytest).
# Cargo honours $CARGO_TARGET_DIR if set (default: the workspace's target/). Any failure stops
# the script with a non-zero status.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${BRWHASH_PY_VENV:-$repo/target/python-venv}"
python="${PYTHON:-python3}"

die() { echo "bindings/python/test.sh: $*" >&2; exit 1; }
command -v "$python" >/dev/null 2>&1 || die "$python is required but not installed"
command -v cargo >/dev/null 2>&1 || die "cargo is required but not installed"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "Python >= 3.11 is required ($python is $("$python" --version 2>&1))"

if [ ! -x "$venv/bin/python" ]; then
  echo "== creating virtualenv $venv"
  "$python" -m venv "$venv" || die "could not create the virtualenv $venv (python3-venv missing?)"
fi
py="$venv/bin/python"

echo "== pip install bindings/python (builds the Rust extension from source with maturin)"
start=$(date +%s)
# A local directory is always rebuilt and reinstalled by pip; -v shows maturin's and cargo's
# output (the `Compiling ...` lines).
"$py" -m pip install -v "$here" pytest || die "pip install of bindings/python failed"
echo "== pip install done in $(($(date +%s) - start)) s"

if [ -z "${BRWHASH_CLI:-}" ]; then
  echo "== cargo build --release -p brwhash-cli --locked (for the CLI agreement tests)"
  # The CLI's default features link the benchmark peers' system libraries.
  bash "$repo/scripts/install-deps.sh"
  (cd "$repo" && cargo build --release -p brwhash-cli --locked) \
    || die "building the brwhash CLI failed"
  BRWHASH_CLI="${CARGO_TARGET_DIR:-$repo/target}/release/brwhash"
  [ -x "$BRWHASH_CLI" ] || die "the CLI was built but $BRWHASH_CLI is missing"
fi
export BRWHASH_CLI
echo "== CLI: $BRWHASH_CLI"

echo "== pytest bindings/python/tests"
cd "$here"
# The installed package is tested (not a source tree): run from the tests' directory with
# the package imported from the virtualenv.
"$py" -m pytest tests "$@"
