"""Every vector of tests/vectors (kat.json, extra.json, poly1305_rfc8439.json) through the
one-shot functions, Hasher and Mac, streaming at several split points and chunk sizes."""

from __future__ import annotations

import pytest

import brwhash
from conftest import load_vectors, split_points, vector_input

FILES = ["kat.json", "extra.json"]


def _groups() -> list[tuple[str, str]]:
    """(file, algorithm) pairs: one test per algorithm of each file."""
    out = []
    for f in FILES:
        algs = dict.fromkeys(v["algorithm"] for v in load_vectors(f)["vectors"])
        out.extend((f, a) for a in algs)
    return out


GROUPS = _groups()


def test_vector_files_cover_every_algorithm():
    algs = {
        brwhash.canonical_name(v["algorithm"]) for f in FILES for v in load_vectors(f)["vectors"]
    }
    assert algs == set(brwhash.algorithms())
    counts = {f: len(load_vectors(f)["vectors"]) for f in FILES}
    assert counts["kat.json"] > 1000 and counts["extra.json"] > 7000, counts


def _feed(h: brwhash.Hasher, data, pieces: list[int]) -> None:
    """Update h with data cut at the given lengths (the rest in one last piece)."""
    pos = 0
    for n in pieces:
        h.update(data[pos : pos + n])
        pos += n
    h.update(data[pos:])


def _chunked(h: brwhash.Hasher, data: bytes, size: int) -> None:
    for i in range(0, len(data), size):
        h.update(data[i : i + size])


def _stream_vector(h: brwhash.Hasher, comps: list[bytes], size: int | None) -> None:
    for i, c in enumerate(comps):
        if i:
            h.next_component()
        if size is None:
            h.update(c)
        else:
            _chunked(h, c, size)


def check_scalar(v: dict, where: str) -> None:
    alg, mode = v["algorithm"], v["mode"]
    key = bytes.fromhex(v["key"])
    want = bytes.fromhex(v["output"])
    msg = vector_input(v)
    assert isinstance(msg, bytes)
    n = len(msg)
    if mode == "digest":
        assert brwhash.digest(alg, key, msg) == want, where
        assert brwhash.hexdigest(alg, key, msg) == v["output"], where
        assert brwhash.Hasher(alg, key, msg).digest() == want, where
        make = lambda: brwhash.Hasher(alg, key)  # noqa: E731
    else:
        assert brwhash.mac(alg, key, msg) == want, where
        m = brwhash.Mac(alg, key)
        assert m.tag(msg) == want, where
        assert m.hextag(msg) == v["output"], where
        assert m.verify(msg, want), where
        bad = bytes([want[0] ^ 1]) + want[1:]
        assert not m.verify(msg, bad), where
        assert not m.verify(msg, want[:-1]), where
        assert m.hasher(msg).digest() == want, where
        assert m.hasher(msg).verify(want), where
        make = m.hasher
    for p in split_points(n):
        h = make()
        _feed(h, msg, [p])
        assert h.digest() == want, f"{where} split at {p}"
    # Three pieces, and fixed-size chunks (small chunks only for short messages: speed).
    h = make()
    _feed(h, msg, [n // 4, n // 3])
    assert h.digest() == want, f"{where} split at {n // 4}, {n // 4 + n // 3}"
    for size in (7, 64, 1000) if n <= 2048 else (1000, 4096):
        h = make()
        _chunked(h, msg, size)
        assert h.hexdigest() == v["output"], f"{where} chunks of {size}"


def check_vector(v: dict, where: str) -> None:
    alg, mode = v["algorithm"], v["mode"]
    key = bytes.fromhex(v["key"])
    want = bytes.fromhex(v["output"])
    comps = vector_input(v)
    assert isinstance(comps, list)
    if mode == "digest":
        assert brwhash.digest_vector(alg, key, comps) == want, where
        assert brwhash.digest_vector(alg, key, tuple(comps)) == want, where
        if len(comps) == 1:
            assert brwhash.digest(alg, key, comps[0]) == want, where
        make = lambda: brwhash.Hasher(alg, key)  # noqa: E731
    else:
        assert brwhash.mac_vector(alg, key, comps) == want, where
        m = brwhash.Mac(alg, key)
        assert m.tag_vector(comps) == want, where
        assert m.verify_vector(comps, want), where
        assert not m.verify_vector(comps, bytes(len(want))) or want == bytes(len(want)), where
        if len(comps) == 1:
            assert brwhash.mac(alg, key, comps[0]) == want, where
            assert m.tag(comps[0]) == want, where
        make = m.hasher
    for size in (None, 1, 16, 100):
        h = make()
        _stream_vector(h, comps, size)
        assert h.digest() == want, f"{where} streamed in chunks of {size}"
        if mode == "mac":
            assert h.verify(want), where


@pytest.mark.parametrize("fname,alg", GROUPS, ids=[f"{f}:{a}" for f, a in GROUPS])
def test_vectors(fname: str, alg: str):
    vectors = [v for v in load_vectors(fname)["vectors"] if v["algorithm"] == alg]
    assert vectors
    for i, v in enumerate(vectors):
        where = f"{fname} {alg} #{i} ({v.get('description', '')} {v['mode']})"
        if "component_lens" in v:
            check_vector(v, where)
        else:
            check_scalar(v, where)


def test_poly1305_rfc8439():
    vectors = load_vectors("poly1305_rfc8439.json")["vectors"]
    assert len(vectors) >= 12
    for v in vectors:
        key = bytes.fromhex(v["key"])
        msg = bytes.fromhex(v["message"])
        tag = bytes.fromhex(v["tag"])
        assert brwhash.digest("Poly1305", key, msg) == tag, v["name"]
        assert brwhash.digest("poly1305", bytearray(key), memoryview(msg)) == tag, v["name"]
        for p in split_points(len(msg)):
            h = brwhash.Hasher("Poly1305", key, msg[:p])
            h.update(msg[p:])
            assert h.digest() == tag, f"{v['name']} split at {p}"
            assert h.verify(tag), v["name"]
            assert not h.verify(tag[:15]), v["name"]
