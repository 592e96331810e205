#!/usr/bin/env bash
# Memory-safety and limits runs (issue 8), documented in docs/limits-and-sanitizers.md:
#
#   miri    Miri (nightly): a selection of the library's unit tests and the integration tests
#           kat_subset, unaligned and limits, with BRWHASH_BACKEND=portable; built with
#           BMI2/ADX/AVX2/PCLMULQDQ enabled, so the scalar, AVX2 and PCLMULQDQ backends run
#           in the interpreter too (against the portable one, in unaligned.rs).
#   asan    AddressSanitizer (nightly, -Zbuild-std) on every backend the CPU has: the
#           integration tests backends, streaming and unaligned.
#   limits  The #[ignore]d limits tests (every algorithm streamed past 4 GiB, the all-zero
#           message, a 4 GiB one-shot) in release mode.
#
# Usage: scripts/sanitizers.sh [miri] [asan] [limits]     (no argument: all three)
# Each step has its own CARGO_TARGET_DIR under target/ (target/miri, target/asan,
# target/limits-release) so they neither rebuild each other's artifacts nor wait on the
# lock of the main build. Any failure stops the script with a non-zero status and the name
# of the failing step; the time of every step is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

NIGHTLY=${BRWHASH_NIGHTLY:-nightly}
STEPS=("$@")
[ ${#STEPS[@]} -eq 0 ] && STEPS=(miri asan limits)
for s in "${STEPS[@]}"; do
    case $s in miri | asan | limits) ;; *)
        echo "sanitizers.sh: unknown step '$s' (expected miri, asan or limits)" >&2
        exit 2
        ;;
    esac
done

TIMES=()
CURRENT=setup
trap 'status=$?; if [ $status -ne 0 ]; then echo "sanitizers.sh: FAILED in step \"$CURRENT\" (exit status $status)" >&2; fi' EXIT

# run NAME COMMAND...: one timed step.
run() {
    local name=$1
    shift
    CURRENT=$name
    echo
    echo "== $name"
    local start=$SECONDS
    "$@"
    local took=$((SECONDS - start))
    TIMES+=("$(printf '%-58s %5d s' "$name" "$took")")
    echo "== $name: ok, ${took} s"
}

need() { command -v "$1" >/dev/null 2>&1 || { echo "sanitizers.sh: $1 is required but not installed" >&2; exit 1; }; }
need cargo
need rustup

wants() { local s; for s in "${STEPS[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

# The nightly toolchain with miri and rust-src (an installed nightly is used as it is: no
# update). BRWHASH_NIGHTLY=nightly-YYYY-MM-DD pins one.
install_nightly() {
    if ! rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1; then
        rustup toolchain install "$NIGHTLY" --profile minimal
    fi
    local components=(rust-src)
    wants miri && components+=(miri)
    rustup component add --toolchain "$NIGHTLY" "${components[@]}"
    rustup run "$NIGHTLY" rustc --version
}
if wants miri || wants asan; then
    run "install $NIGHTLY (rust-src$(wants miri && echo ', miri'))" install_nightly
fi

HOST=$(rustc -vV | sed -n 's/^host: //p')

# ---------------------------------------------------------------------------------------
# Miri: the portable code (fields, BRW/Horner evaluation, constructions, keys, hashers, MAC)
# and, through CPU features enabled at build time (Miri answers is_x86_feature_detected! with
# the static target features only), the scalar (BMI2/ADX), AVX2 and PCLMULQDQ backends, under
# the interpreter's UB checks (out-of-bounds and misaligned accesses, uninitialized reads,
# Stacked Borrows aliasing, data races, leaks). Miri has no AVX-512: those backends skip here
# (AddressSanitizer covers them). Isolation is off: the tests read tests/vectors/*.json.
# Unit tests are selected by name: the library's field and evaluation law tests run for
# minutes each under Miri (their code runs in the integration tests at Miri-sized inputs).
# ---------------------------------------------------------------------------------------
MIRI_FEATURES="-C target-feature=+bmi2,+adx,+avx2,+pclmulqdq,+sse4.1"
MIRI_UNIT_TESTS=(algorithm:: eval::stack:: field::tests::prime_reduction_edges key::tests::message_length_limit
    backend::x86::tests::ladder_avx2)
miri_setup() { cargo "+$NIGHTLY" miri setup; }
miri_unit() {
    BRWHASH_BACKEND=portable cargo "+$NIGHTLY" miri test -p brwhash --lib -- "${MIRI_UNIT_TESTS[@]}"
}
miri_integration() {
    BRWHASH_BACKEND=portable cargo "+$NIGHTLY" miri test -p brwhash \
        --test kat_subset --test unaligned --test limits
}
if wants miri; then
    export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}"
    CARGO_TARGET_DIR="$ROOT/target/miri" run "miri setup (std for the interpreter)" miri_setup
    CARGO_TARGET_DIR="$ROOT/target/miri" RUSTFLAGS="$MIRI_FEATURES" \
        run "miri: lib unit tests (${MIRI_UNIT_TESTS[*]})" miri_unit
    CARGO_TARGET_DIR="$ROOT/target/miri" RUSTFLAGS="$MIRI_FEATURES" \
        run "miri: tests kat_subset, unaligned, limits" miri_integration
fi

# ---------------------------------------------------------------------------------------
# AddressSanitizer: the SIMD backends' loads and stores (unsafe intrinsics on unaligned
# input, tails, stack states). -Zbuild-std instruments std too (the sanitizer is a target
# modifier: every crate must be built with it). Leak detection is on.
# ---------------------------------------------------------------------------------------
asan_tests() {
    RUSTFLAGS="-Zsanitizer=address" RUSTDOCFLAGS="-Zsanitizer=address" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:abort_on_error=0}" \
        cargo "+$NIGHTLY" test -Zbuild-std --target "$HOST" -p brwhash \
        --test backends --test streaming --test unaligned
}
if wants asan; then
    CARGO_TARGET_DIR="$ROOT/target/asan" run "asan: tests backends, streaming, unaligned (every backend here)" asan_tests
fi

# ---------------------------------------------------------------------------------------
# The limits tests too long for the default cargo test: every algorithm streamed past
# 4 GiB, the all-zero message of 4 GiB + 17, and a 4 GiB one-shot (4 GiB of RAM).
# ---------------------------------------------------------------------------------------
limits_release() {
    cargo test --release --locked -p brwhash --features parallel --test limits -- \
        --ignored --test-threads=2
}
if wants limits; then
    CARGO_TARGET_DIR="$ROOT/target/limits-release" run "limits: the #[ignore]d tests of tests/limits.rs, release" limits_release
fi

CURRENT=summary
echo
echo "== sanitizers.sh: all steps passed"
printf '%s\n' "${TIMES[@]}"
echo "total: ${SECONDS} s"
