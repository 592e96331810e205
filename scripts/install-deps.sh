#!/usr/bin/env bash
# System packages of the benchmark peers (crates/brwhash-bench): OpenSSL's headers and library
# (libssl-dev, for the `openssl` crate), intel-ipsec-mb (libipsec-mb-dev, linked by a small C
# shim), libsodium (libsodium-dev, linked directly) and pkg-config. Idempotent: apt-get runs only when one of them is missing. Needs root
# or sudo; on a system without apt-get or dpkg it only says what to install.
set -euo pipefail

packages=(libssl-dev libipsec-mb-dev libsodium-dev pkg-config)

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps.sh: no dpkg/apt-get here; install the equivalents of: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps.sh: missing ${missing[*]}; run as root (or install sudo)" >&2
  exit 1
fi
echo "install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
