"""The package and the `brwhash` CLI (crates/brwhash-cli) agree on random inputs.

The CLI is found through $BRWHASH_CLI, else <repo>/target/{release,debug}/brwhash; when it is
missing these tests FAIL with a message saying how to build it (they never skip)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

import brwhash


def run_cli(cli: Path, *args: str) -> list[str]:
    r = subprocess.run(
        [str(cli), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, f"{cli} {' '.join(args)} exited {r.returncode}: {r.stderr}"
    return r.stdout.splitlines()


def write_files(tmp: Path, rng: random.Random, lengths: list[int]) -> list[tuple[Path, bytes]]:
    out = []
    for i, n in enumerate(lengths):
        data = rng.randbytes(n)
        p = tmp / f"m{i}.bin"
        p.write_bytes(data)
        out.append((p, data))
    return out


def test_cli_is_found(cli: Path):
    lines = run_cli(cli, "list")
    for alg in brwhash.algorithms():
        assert any(alg in line for line in lines), alg


@pytest.mark.parametrize("mode", ["digest", "mac"])
def test_cli_agrees_on_every_algorithm(cli: Path, tmp_path: Path, mode: str):
    rng = random.Random(f"cli {mode}")
    for alg in brwhash.algorithms():
        if mode == "mac" and alg == "Poly1305":
            continue
        size = brwhash.key_size(alg) if mode == "digest" else brwhash.mac_key_size(alg)
        key = rng.randbytes(size)
        lengths = [0, 1, 17, rng.randrange(1, 600), rng.randrange(600, 9000)]
        files = write_files(tmp_path, rng, lengths)
        lines = run_cli(cli, mode, "--alg", alg, "--key", key.hex(), *[str(p) for p, _ in files])
        if brwhash.is_vector(alg):
            # The files are the components of one vector: one line.
            comps = [d for _, d in files]
            want = (brwhash.digest_vector if mode == "digest" else brwhash.mac_vector)(
                alg, key, comps
            )
            assert lines == [f"{want.hex()}  {' '.join(str(p) for p, _ in files)}"], alg
        else:
            fn = brwhash.digest if mode == "digest" else brwhash.mac
            want = [f"{fn(alg, key, d).hex()}  {p}" for p, d in files]
            assert lines == want, alg


@pytest.mark.parametrize("alg", ["Poly1305", "4-Hash1271", "4-decBRWHash1305", "Hash2L256"])
def test_cli_agrees_on_each_backend(cli: Path, tmp_path: Path, alg: str):
    rng = random.Random(f"cli backend {alg}")
    key = rng.randbytes(brwhash.key_size(alg))
    files = write_files(tmp_path, rng, [5, 300, 5000, 70000])
    for backend in brwhash.backends(alg):
        lines = run_cli(
            cli, "digest", "--alg", alg, "--key", key.hex(), "--backend", backend,
            *[str(p) for p, _ in files],
        )
        want = [f"{brwhash.digest(alg, key, d, backend=backend).hex()}  {p}" for p, d in files]
        assert lines == want, (alg, backend)


def test_cli_verify_accepts_package_tags(cli: Path, tmp_path: Path):
    rng = random.Random("cli verify")
    (p, data), = write_files(tmp_path, rng, [1234])
    key = rng.randbytes(brwhash.mac_key_size("4-Hash1271"))
    tag = brwhash.Mac("4-Hash1271", key).tag(data)
    lines = run_cli(cli, "verify", "--alg", "4-Hash1271", "--key", key.hex(), "--tag", tag.hex(), str(p))
    assert lines == [f"{p}: OK"]
