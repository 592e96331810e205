#!/usr/bin/env bash
# The SIMD code compiles whole inside its `#[target_feature]` entry points. A helper the
# compiler does not inline there (a non-`inline(always)` function, or `for_each`, which calls
# `Iterator::fold`) is compiled without the features, and every intrinsic in it becomes a
# function call: 4-decBRWHash1305 at 1 KiB went from 0.30 to 7 TSC cycles/byte that way, with
# every test passing. This check builds the C library (brwhash alone, release profile) and
# fails if any function in it calls a `core::arch` intrinsic, except CPU feature detection.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v objdump >/dev/null 2>&1 || { echo "check-codegen.sh: objdump (binutils) is required" >&2; exit 1; }
cargo build --release --locked -p brwhash-ffi
lib="${CARGO_TARGET_DIR:-$PWD/target}/release/libbrwhash_ffi.so"
calls=$(objdump -d --no-show-raw-insn -C "$lib" |
  awk '/^[0-9a-f]+ <.*>:$/ { fn = $0 }
       /call.*core::core_arch::/ && !/_xgetbv|__cpuid/ { print fn " calls " $NF }' | sort | uniq -c)
if [[ -n $calls ]]; then
  echo "check-codegen.sh: intrinsics compiled as calls (a helper outside its target features):" >&2
  echo "$calls" | head -40 >&2
  exit 1
fi
echo "check-codegen.sh: no intrinsic is called as a function in $lib"
