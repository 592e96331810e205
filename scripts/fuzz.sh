#!/usr/bin/env bash
# Coverage-guided fuzzing of brwhash with cargo-fuzz / libFuzzer (docs/fuzzing.md).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Default: 60 seconds for each of the targets backends, streaming, mac, parse, c_abi, one
# after the other. Installs what it needs (a nightly toolchain through rustup, cargo-fuzz),
# builds every target with AddressSanitizer, runs each from its committed seeds
# (fuzz/corpus/<target>, read only) plus a scratch corpus that grows across runs
# (fuzz/target/corpus/<target>, ignored by git), prints executions and exec/s per target
# from libFuzzer's final stats, and exits non-zero when any target crashed (the input is in
# fuzz/artifacts/<target>/; docs/fuzzing.md tells how to reproduce it).
#
# Environment: FUZZ_MAX_LEN (libFuzzer -max_len, default 8192; the targets stretch short
# inputs to messages of up to 16 KiB themselves), FUZZ_TIMEOUT (seconds one input may take,
# default 30), FUZZ_RSS_MB (default 4096), FUZZ_EXTRA_ARGS (more libFuzzer flags),
# FUZZ_SANITIZER (cargo fuzz --sanitizer, default address; `none` is faster).
set -euo pipefail

ALL_TARGETS=(backends streaming mac parse c_abi)
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
    echo "fuzz.sh: SECONDS_PER_TARGET must be a positive integer, got '$seconds'" >&2
    echo "usage: bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]  (targets: ${ALL_TARGETS[*]})" >&2
    exit 2
fi
shift $(($# > 0 ? 1 : 0))
targets=("$@")
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")
for t in "${targets[@]}"; do
    if [[ ! " ${ALL_TARGETS[*]} " =~ \ $t\  ]]; then
        echo "fuzz.sh: unknown target '$t' (targets: ${ALL_TARGETS[*]})" >&2
        exit 2
    fi
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/fuzz"
max_len=${FUZZ_MAX_LEN:-8192}
timeout=${FUZZ_TIMEOUT:-30}
rss_mb=${FUZZ_RSS_MB:-4096}
sanitizer=${FUZZ_SANITIZER:-address}
# The fuzz crate is its own workspace: its own target directory, never the root's.
export CARGO_TARGET_DIR="$root/fuzz/target"
# A forced backend would make Key::new fail for algorithms it lacks: the targets choose
# backends themselves.
unset BRWHASH_BACKEND

die() {
    echo "fuzz.sh: $*" >&2
    exit 1
}

# --- tools ---------------------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs)"
if ! cargo +nightly --version >/dev/null 2>&1; then
    command -v rustup >/dev/null || die "no nightly toolchain and no rustup to install one"
    echo "fuzz.sh: installing the nightly toolchain (rustup toolchain install nightly --profile minimal)"
    rustup toolchain install nightly --profile minimal || die "could not install nightly"
    cargo +nightly --version >/dev/null 2>&1 || die "cargo +nightly still does not run"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz (cargo install cargo-fuzz --locked)"
    cargo install cargo-fuzz --locked || die "could not install cargo-fuzz"
    cargo fuzz --version >/dev/null 2>&1 || die "cargo fuzz still does not run"
fi
echo "fuzz.sh: $(cargo +nightly --version), $(cargo fuzz --version)"

# --- build ---------------------------------------------------------------------------------
# All targets in one build: the library is compiled once (per-target builds would each
# recompile it whenever crates/ changed in between).
echo "fuzz.sh: building the fuzz targets (sanitizer: $sanitizer)"
build_args=(--sanitizer "$sanitizer")
cargo +nightly fuzz build "${build_args[@]}" || die "build of the fuzz targets failed"

# --- run -----------------------------------------------------------------------------------
logs="$CARGO_TARGET_DIR/fuzz-logs"
mkdir -p "$logs"
declare -a rows
failed=0
for t in "${targets[@]}"; do
    scratch="$CARGO_TARGET_DIR/corpus/$t"
    mkdir -p "$scratch" "artifacts/$t"
    log="$logs/$t.log"
    echo
    echo "fuzz.sh: === $t: ${seconds}s, -max_len=$max_len (log: $log) ==="
    # The scratch corpus comes first: libFuzzer writes new inputs only to the first
    # directory, so the committed seeds stay as they are.
    set +e
    # shellcheck disable=SC2086 # FUZZ_EXTRA_ARGS is a list of flags
    cargo +nightly fuzz run "${build_args[@]}" "$t" "$scratch" "corpus/$t" -- \
        -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" \
        -rss_limit_mb="$rss_mb" -print_final_stats=1 ${FUZZ_EXTRA_ARGS:-} \
        >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units:[[:space:]]*[0-9]*' "$log" | tail -1 | awk '{print $2}')
    speed=$(grep -o 'stat::average_exec_per_sec:[[:space:]]*[0-9]*' "$log" | tail -1 | awk '{print $2}')
    added=$(grep -o 'stat::new_units_added:[[:space:]]*[0-9]*' "$log" | tail -1 | awk '{print $2}')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    units=$(find "$scratch" -type f | wc -l)
    if ((rc == 0)); then
        result=ok
    else
        failed=1
        result="FAILED (exit $rc)"
        echo "fuzz.sh: $t FAILED; the end of its log:" >&2
        tail -n 60 "$log" >&2
        art=$(grep -o 'Test unit written to [^ ]*' "$log" | tail -1 | sed 's/Test unit written to //')
        if [[ -n $art ]]; then
            result="CRASH: $art"
            echo "fuzz.sh: reproduce with: cd fuzz && cargo +nightly fuzz run $t $art" >&2
        fi
    fi
    echo "fuzz.sh: $t: ${execs:-?} executions, ${speed:-?} exec/s, cov ${cov:-?}, +${added:-?} units, scratch corpus $units files: $result"
    rows+=("$(printf '%-10s %8s %12s %8s %6s %6s  %s' "$t" "${seconds}s" "${execs:-?}" "${speed:-?}" "${cov:-?}" "$units" "$result")")
done

echo
echo "fuzz.sh: summary (sanitizer $sanitizer, -max_len=$max_len)"
printf '%-10s %8s %12s %8s %6s %6s  %s\n' target time executions exec/s cov corpus result
printf '%s\n' "${rows[@]}"
if ((failed)); then
    echo "fuzz.sh: at least one target failed: see fuzz/artifacts/ and $logs" >&2
    exit 1
fi
