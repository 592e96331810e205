"""The package against the Python reference model reference/brwhash_ref.py (written from
SPEC.md with big integers) on random keys and lengths."""

from __future__ import annotations

import importlib.util
import random

import pytest

import brwhash
from conftest import REFERENCE


def _load_reference():
    if not REFERENCE.is_file():
        raise FileNotFoundError(f"reference model not found: {REFERENCE}")
    spec = importlib.util.spec_from_file_location("brwhash_ref", REFERENCE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ref = _load_reference()

# A sample of every family, both primes and both binary fields.
SAMPLE = [
    "Poly1305",
    "polyHash1271",
    "polyHash1305",
    "BRWHash1271",
    "BRWHash1305",
    "3-BRWHash1271",
    "5-BRWHash1305",
    "2-2LHash1305",
    "4-2LHash1271",
    "4-Hash1271",
    "3-Hash1305",
    "1-decBRWHash1271",
    "4-decBRWHash1305",
    "8-decBRWHash1271",
    "16-decBRWHash1305",
    "Hash2L128",
    "Hash2L256",
    "vecHash2L128",
    "vecHash2L256",
]

LENGTHS = [0, 1, 15, 16, 17, 30, 31, 32, 33, 63, 64, 65, 255, 256, 257, 496, 1000, 1024, 2047]


def test_reference_lists_the_same_algorithms():
    assert ref.all_names() == brwhash.algorithms()
    for name in brwhash.algorithms():
        assert ref.key_bytes(name) == brwhash.key_size(name)
        assert ref.digest_bytes(name) == brwhash.digest_size(name)
        mk = brwhash.mac_key_size(name)
        if mk is None:
            assert name == "Poly1305"
        else:
            assert ref.mac_key_bytes(name) == mk


@pytest.mark.parametrize("alg", SAMPLE)
def test_digest_matches_reference(alg: str):
    rng = random.Random(f"digest {alg}")
    lengths = LENGTHS + [rng.randrange(0, 5000) for _ in range(6)]
    for n in lengths:
        key = rng.randbytes(brwhash.key_size(alg))
        msg = rng.randbytes(n)
        if brwhash.is_vector(alg):
            want = ref.digest_vector(alg, key, [msg])
        else:
            want = ref.digest(alg, key, msg)
        assert brwhash.digest(alg, key, msg) == want, (alg, n)
        h = brwhash.Hasher(alg, key)
        cut = rng.randrange(0, n + 1)
        h.update(msg[:cut])
        h.update(msg[cut:])
        assert h.digest() == want, (alg, n, cut)


@pytest.mark.parametrize("alg", [a for a in SAMPLE if a != "Poly1305"])
def test_mac_matches_reference(alg: str):
    rng = random.Random(f"mac {alg}")
    for n in [0, 1, 16, 17, 100, 511, 1500] + [rng.randrange(0, 3000) for _ in range(3)]:
        key = rng.randbytes(brwhash.mac_key_size(alg))
        msg = rng.randbytes(n)
        want = ref.mac(alg, key, [msg] if brwhash.is_vector(alg) else msg)
        assert brwhash.mac(alg, key, msg) == want, (alg, n)
        m = brwhash.Mac(alg, key)
        assert m.tag(msg) == want, (alg, n)
        assert m.verify(msg, want)
        h = m.hasher()
        h.update(msg[: n // 2])
        h.update(msg[n // 2 :])
        assert h.digest() == want, (alg, n)


@pytest.mark.parametrize("alg", ["vecHash2L128", "vecHash2L256"])
def test_vector_matches_reference(alg: str):
    rng = random.Random(f"vector {alg}")
    for count in [1, 2, 3, 7, 31, 255]:
        comps = [rng.randbytes(rng.choice([0, 1, 16, 33, 100, 500])) for _ in range(count)]
        key = rng.randbytes(brwhash.key_size(alg))
        want = ref.digest_vector(alg, key, comps)
        assert brwhash.digest_vector(alg, key, comps) == want, (alg, count)
        h = brwhash.Hasher(alg, key)
        for i, c in enumerate(comps):
            if i:
                h.next_component()
            h.update(c)
        assert h.digest() == want, (alg, count)
        mkey = rng.randbytes(brwhash.mac_key_size(alg))
        tag = ref.mac(alg, mkey, comps)
        assert brwhash.mac_vector(alg, mkey, comps) == tag
        assert brwhash.Mac(alg, mkey).verify_vector(comps, tag)
