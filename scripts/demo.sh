#!/usr/bin/env bash
# The main job: build the release CLI and show what brwhash does on a sample file, then a
# first timing of the library on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh   # system libraries of the benchmark peers (libssl-dev, libipsec-mb-dev)
cargo build --release --locked -p brwhash-cli -p brwhash --examples --bins
bin=target/release/brwhash
echo "== digests of samples/message.txt (key samples/demo.key)"
for alg in Poly1305 polyHash1305 4-Hash1271 4-decBRWHash1305 BRWHash1271 Hash2L128; do
  if [ "$alg" = Poly1305 ]; then key=samples/demo-mac.key; else key=samples/demo.key; fi
  printf '%-18s ' "$alg"
  "$bin" digest --alg "$alg" --key-file "$key" samples/message.txt
done
echo "== one-time MAC and verification (4-Hash1271, key samples/demo-mac.key)"
tag=$("$bin" mac --alg 4-Hash1271 --key-file samples/demo-mac.key samples/message.txt | cut -d' ' -f1)
echo "tag $tag"
"$bin" verify --alg 4-Hash1271 --key-file samples/demo-mac.key --tag "$tag" samples/message.txt
echo "== first timing (TSC cycles/byte; one-shot and precomputed key)"
target/release/examples/timing
