"""Shared helpers of the brwhash Python tests: the repository's paths, the test vectors and
the way their messages are built (kat.json's message_rule / vector_rule)."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest

# bindings/python/tests/conftest.py -> the repository root.
REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO / "tests" / "vectors"
REFERENCE = REPO / "reference" / "brwhash_ref.py"


@functools.cache
def load_vectors(name: str) -> dict:
    """The parsed JSON of tests/vectors/<name>."""
    path = VECTORS / name
    if not path.is_file():
        raise FileNotFoundError(f"test vectors not found: {path}")
    with path.open() as f:
        return json.load(f)


def message(length: int, fill: int | None = None) -> bytes:
    """kat.json's message_rule: bytes(i % 256 for i in range(len)), or msg_fill repeated."""
    if fill is not None:
        return bytes([fill]) * length
    return bytes(i % 256 for i in range(length))


def vector_input(v: dict) -> bytes | list[bytes]:
    """The message of a vector, or for vecHash2L (component_lens) its list of components."""
    fill = v.get("msg_fill")
    if "component_lens" in v:
        return [message(n, fill) for n in v["component_lens"]]
    if "message" in v:  # poly1305_rfc8439.json
        return bytes.fromhex(v["message"])
    return message(v["msg_len"], fill)


def split_points(n: int) -> list[int]:
    """Interesting places to split an n-byte message in two updates."""
    pts = {0, 1, 15, 16, 17, 31, 32, 33, 64, 255, 256, 257, n // 3, n // 2, n - 1, n}
    return sorted(p for p in pts if 0 <= p <= n)


def find_cli() -> Path:
    """The brwhash CLI binary: $BRWHASH_CLI, else target/release/brwhash, else
    target/debug/brwhash of the repository (or of $CARGO_TARGET_DIR)."""
    env = os.environ.get("BRWHASH_CLI")
    if env:
        p = Path(env)
        if not (p.is_file() and os.access(p, os.X_OK)):
            raise FileNotFoundError(f"BRWHASH_CLI={env} is not an executable file")
        return p
    roots = [REPO / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        roots.insert(0, Path(os.environ["CARGO_TARGET_DIR"]))
    for root in roots:
        for profile in ("release", "debug"):
            p = root / profile / "brwhash"
            if p.is_file() and os.access(p, os.X_OK):
                return p
    raise FileNotFoundError(
        "the brwhash CLI was not found: set BRWHASH_CLI to its path, or build it with "
        "`cargo build --release -p brwhash-cli --locked` (looked in "
        + ", ".join(str(r / p / "brwhash") for r in roots for p in ("release", "debug"))
        + ")"
    )


@pytest.fixture(scope="session")
def cli() -> Path:
    """The CLI binary; the test FAILS (never skips) when it cannot be found."""
    try:
        return find_cli()
    except FileNotFoundError as e:
        pytest.fail(str(e))
