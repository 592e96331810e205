"""The Python API: input types, errors, Hasher/Mac behaviour, backends, threads."""

from __future__ import annotations

import array
import os
import subprocess
import sys
import threading
import time

import pytest

import brwhash

ALG = "4-Hash1271"
KEY = bytes(range(16))
DATA = bytes(range(256)) * 20  # 5120 bytes: past the GIL-release threshold
VEC = "vecHash2L128"


# ---------------------------------------------------------------------------- metadata


def test_algorithms_and_sizes():
    algs = brwhash.algorithms()
    assert len(algs) == 65 and len(set(algs)) == 65
    assert algs[0] == "Poly1305" and "4-decBRWHash1305" in algs and algs[-1] == "vecHash2L256"
    assert brwhash.key_size("Poly1305") == 32 and brwhash.digest_size("Poly1305") == 16
    assert brwhash.mac_key_size("Poly1305") is None
    assert brwhash.key_size("4-Hash1271") == 16 and brwhash.mac_key_size("4-Hash1271") == 32
    assert brwhash.key_size("Hash2L256") == 32 and brwhash.digest_size("Hash2L256") == 32
    assert brwhash.mac_key_size("vecHash2L256") == 64
    assert brwhash.is_vector("VECHASH2L128") and not brwhash.is_vector("Hash2L128")
    assert brwhash.canonical_name("4-hash1271") == "4-Hash1271"
    assert brwhash.canonical_name("POLYHASH1305") == "polyHash1305"
    for a in algs:
        assert brwhash.canonical_name(a.lower()) == a


def test_backends():
    all_names = {"portable", "scalar", "avx2", "avx512", "ifma", "pclmul", "vpclmul"}
    here = brwhash.backends()
    assert "portable" in here and set(here) <= all_names
    for a in brwhash.algorithms():
        per_alg = brwhash.backends(a)
        assert "portable" in per_alg and set(per_alg) <= set(here), a
        assert brwhash.default_backend(a) in per_alg


def test_version_and_docstrings():
    assert isinstance(brwhash.__version__, str) and brwhash.__version__
    assert brwhash.__doc__ and "hashlib" in brwhash.__doc__
    objs = [
        brwhash.digest, brwhash.hexdigest, brwhash.digest_vector, brwhash.mac,
        brwhash.mac_vector, brwhash.algorithms, brwhash.backends, brwhash.default_backend,
        brwhash.canonical_name, brwhash.key_size, brwhash.digest_size, brwhash.mac_key_size,
        brwhash.is_vector, brwhash.new, brwhash.Hasher, brwhash.Mac,
    ]
    for name in ["update", "digest", "hexdigest", "copy", "next_component", "verify"]:
        objs.append(getattr(brwhash.Hasher, name))
    for name in ["name", "digest_size", "key_size", "backend", "mode"]:
        objs.append(getattr(brwhash.Hasher, name))
    for name in ["tag", "hextag", "verify", "tag_vector", "verify_vector", "hasher"]:
        objs.append(getattr(brwhash.Mac, name))
    for o in objs:
        assert o.__doc__ and len(o.__doc__.strip()) > 10, o


def test_module_docstring_examples():
    import doctest

    result = doctest.testmod(brwhash)
    assert result.attempted > 5 and result.failed == 0, result


def test_typing_files_are_installed():
    pkg = os.path.dirname(brwhash.__file__)
    assert os.path.isfile(os.path.join(pkg, "py.typed"))
    stub = open(os.path.join(pkg, "_brwhash.pyi")).read()
    for name in brwhash.__all__:
        if name != "new":
            assert name in stub, name


# ---------------------------------------------------------------------------- inputs


def test_buffer_types_give_the_same_digest():
    want = brwhash.digest(ALG, KEY, DATA)
    inputs = [
        bytearray(DATA),
        memoryview(DATA),
        memoryview(bytearray(DATA)),
        memoryview(b"xyz" + DATA + b"abc")[3:-3],  # contiguous slice
        array.array("B", DATA),
        array.array("b", DATA),  # signed bytes: raw bytes
        array.array("I", DATA),  # 4-byte items: raw bytes in memory order
        memoryview(DATA).cast("B", (len(DATA) // 16, 16)),  # 2-D, C-contiguous
    ]
    for x in inputs:
        assert brwhash.digest(ALG, KEY, x) == want, type(x)
        assert brwhash.Hasher(ALG, KEY, x).digest() == want, type(x)
        h = brwhash.Hasher(ALG, KEY)
        h.update(x)
        assert h.digest() == want, type(x)
    # Keys take the same types.
    for k in [bytearray(KEY), memoryview(KEY), array.array("B", KEY), array.array("Q", KEY)]:
        assert brwhash.digest(ALG, k, DATA) == want, type(k)
        assert brwhash.Hasher(ALG, k, DATA).digest() == want, type(k)
    mkey = bytes(range(32))
    tag = brwhash.mac(ALG, mkey, DATA)
    assert brwhash.Mac(ALG, bytearray(mkey)).tag(memoryview(DATA)) == tag
    assert brwhash.Mac(ALG, mkey).verify(bytearray(DATA), bytearray(tag))
    assert brwhash.Mac(ALG, mkey).verify(DATA, memoryview(tag))


def test_bytes_subclass_and_empty_inputs():
    class B(bytes):
        pass

    assert brwhash.digest(ALG, B(KEY), B(DATA)) == brwhash.digest(ALG, KEY, DATA)
    for empty in [b"", bytearray(), memoryview(b""), array.array("B")]:
        assert brwhash.digest(ALG, KEY, empty) == brwhash.digest(ALG, KEY, b"")


def test_str_is_a_type_error():
    with pytest.raises(TypeError, match="must be encoded before hashing"):
        brwhash.digest(ALG, KEY, "text")
    with pytest.raises(TypeError, match="must be encoded"):
        brwhash.hexdigest(ALG, KEY, "text")
    with pytest.raises(TypeError, match="must be encoded"):
        brwhash.mac(ALG, bytes(32), "text")
    with pytest.raises(TypeError, match="must be encoded"):
        brwhash.Hasher(ALG, KEY, "text")
    h = brwhash.Hasher(ALG, KEY)
    with pytest.raises(TypeError, match="must be encoded"):
        h.update("text")
    with pytest.raises(TypeError, match="key"):
        brwhash.digest(ALG, "0123456789abcdef", b"")
    with pytest.raises(TypeError, match="key"):
        brwhash.Mac(ALG, "k" * 32)
    m = brwhash.Mac(ALG, bytes(32))
    with pytest.raises(TypeError, match="tag"):
        m.verify(b"x", m.tag(b"x").hex())
    with pytest.raises(TypeError):
        m.tag("x")
    with pytest.raises(TypeError, match="components"):
        brwhash.digest_vector(VEC, KEY, [b"a", "b"])
    with pytest.raises(TypeError, match="components"):
        brwhash.digest_vector(VEC, KEY, "ab")
    with pytest.raises(TypeError, match="components"):
        brwhash.digest_vector(VEC, KEY, b"ab")  # bytes is not a vector of components


def test_other_bad_types():
    for bad in [None, 5, 1.5, [1, 2], object()]:
        with pytest.raises(TypeError, match="bytes-like object is required"):
            brwhash.digest(ALG, KEY, bad)
    with pytest.raises(TypeError):
        brwhash.digest(16, KEY, b"")  # algorithm name must be a str
    with pytest.raises(TypeError):
        brwhash.digest_vector(VEC, KEY, 5)
    with pytest.raises(TypeError):
        brwhash.digest(ALG, KEY, b"", backend=3)


def test_non_contiguous_buffer_is_a_type_error():
    strided = memoryview(DATA)[::2]
    with pytest.raises(TypeError, match="not C-contiguous"):
        brwhash.digest(ALG, KEY, strided)
    with pytest.raises(TypeError, match="not C-contiguous"):
        brwhash.Hasher(ALG, KEY).update(strided)
    with pytest.raises(TypeError, match="not C-contiguous"):
        brwhash.digest(ALG, memoryview(KEY * 2)[::2], b"")
    # A copy is fine.
    assert brwhash.digest(ALG, KEY, bytes(strided)) == brwhash.digest(ALG, KEY, DATA[::2])


# ---------------------------------------------------------------------------- errors


def test_value_errors():
    cases = [
        (lambda: brwhash.digest("nope", KEY, b""), "unknown algorithm"),
        (lambda: brwhash.digest("6-Hash1271", KEY, b""), "out of range"),
        (lambda: brwhash.digest("17-decBRWHash1305", KEY, b""), "out of range"),
        (lambda: brwhash.key_size("nope"), "unknown algorithm"),
        (lambda: brwhash.Hasher("nope", KEY), "unknown algorithm"),
        (lambda: brwhash.digest(ALG, KEY[:15], b""), "needs a 16-byte key, got 15"),
        (lambda: brwhash.digest(ALG, KEY + b"\0", b""), "needs a 16-byte key, got 17"),
        (lambda: brwhash.digest("Poly1305", KEY, b""), "needs a 32-byte key"),
        (lambda: brwhash.Hasher(ALG, b""), "needs a 16-byte key, got 0"),
        (lambda: brwhash.mac(ALG, KEY, b""), r"\(mac\) needs a 32-byte key, got 16"),
        (lambda: brwhash.Mac(ALG, KEY), r"\(mac\) needs a 32-byte key"),
        (lambda: brwhash.mac("Poly1305", bytes(32), b""), "no MAC mode"),
        (lambda: brwhash.Mac("Poly1305", bytes(32)), "no MAC mode"),
        (lambda: brwhash.digest(ALG, KEY, b"", backend="quantum"), "unknown backend"),
        (lambda: brwhash.Hasher(ALG, KEY, backend="quantum"), "unknown backend"),
        (lambda: brwhash.digest_vector(VEC, KEY, []), "1 to 255 components, got 0"),
        (lambda: brwhash.digest_vector(VEC, KEY, [b""] * 256), "1 to 255 components, got 256"),
        (lambda: brwhash.mac_vector(VEC, bytes(32), [b""] * 256), "1 to 255 components"),
        (lambda: brwhash.Mac(VEC, bytes(32)).tag_vector([]), "1 to 255 components"),
        (lambda: brwhash.digest_vector(ALG, KEY, [b"a"]), "only vecHash2L takes components"),
        (lambda: brwhash.Hasher(ALG, KEY).next_component(), "only vecHash2L"),
        (lambda: brwhash.backends("nope"), "unknown algorithm"),
    ]
    for fn, msg in cases:
        with pytest.raises(ValueError, match=msg):
            fn()


def test_too_many_components_streaming():
    h = brwhash.Hasher(VEC, KEY)
    for _ in range(254):
        h.next_component()
    before = h.digest()
    with pytest.raises(ValueError, match="255 components, got 256"):
        h.next_component()
    assert h.digest() == before == brwhash.digest_vector(VEC, KEY, [b""] * 255)
    assert not brwhash.Mac(VEC, bytes(32)).verify_vector([b""] * 256, bytes(16))


def test_unavailable_backend_is_a_value_error():
    names = ["portable", "scalar", "avx2", "avx512", "ifma", "pclmul", "vpclmul"]
    checked = 0
    for alg in brwhash.algorithms():
        ok = set(brwhash.backends(alg))
        for b in names:
            if b in ok:
                continue
            checked += 1
            with pytest.raises(ValueError, match=f"backend {b} is not available"):
                brwhash.digest(alg, bytes(brwhash.key_size(alg)), b"x", backend=b)
            with pytest.raises(ValueError, match="not available"):
                brwhash.Hasher(alg, bytes(brwhash.key_size(alg)), backend=b)
            if alg != "Poly1305":
                with pytest.raises(ValueError, match="not available"):
                    brwhash.Mac(alg, bytes(brwhash.mac_key_size(alg)), backend=b)
                with pytest.raises(ValueError, match="not available"):
                    brwhash.mac(alg, bytes(brwhash.mac_key_size(alg)), b"x", backend=b)
    # Binary-field code never runs on the prime-field SIMD backends and vice versa.
    assert checked > 0


def test_no_panic_on_odd_calls():
    h = brwhash.Hasher(ALG, KEY)
    assert h.digest() == h.digest() == brwhash.digest(ALG, KEY, b"")
    h.update(b"")
    assert h.digest() == brwhash.digest(ALG, KEY, b"")


# ---------------------------------------------------------------------------- Hasher


def test_hasher_like_hashlib():
    h = brwhash.Hasher(ALG, KEY)
    assert h.update(b"some ") is None
    h.update(b"data")
    assert h.digest() == brwhash.digest(ALG, KEY, b"some data")
    assert h.hexdigest() == brwhash.hexdigest(ALG, KEY, b"some data") == h.digest().hex()
    h.update(b"!")  # digest() does not end the hasher
    assert h.digest() == brwhash.digest(ALG, KEY, b"some data!")
    assert brwhash.new(ALG, KEY, b"some data").digest() == brwhash.digest(ALG, KEY, b"some data")
    assert h.name == "4-Hash1271"
    assert brwhash.Hasher("4-hash1271", KEY).name == "4-Hash1271"
    assert h.digest_size == 16 and h.key_size == 16 and h.mode == "digest"
    assert h.backend in brwhash.backends(ALG)
    assert h.backend == brwhash.default_backend(ALG)
    assert "4-Hash1271" in repr(h) and KEY.hex() not in repr(h)
    h256 = brwhash.Hasher("Hash2L256", bytes(32))
    assert h256.digest_size == 32 == len(h256.digest()) and h256.key_size == 32


def test_hasher_copy_is_independent():
    h = brwhash.Hasher(ALG, KEY, b"prefix ")
    c = h.copy()
    assert isinstance(c, brwhash.Hasher) and c is not h
    h.update(b"one")
    c.update(b"two")
    assert h.digest() == brwhash.digest(ALG, KEY, b"prefix one")
    assert c.digest() == brwhash.digest(ALG, KEY, b"prefix two")
    # Copies of large SIMD states, and of copies.
    big = brwhash.Hasher("4-decBRWHash1305", KEY, DATA * 3)
    c1 = big.copy()
    c2 = c1.copy()
    big.update(b"x")
    c2.update(b"y")
    assert c1.digest() == brwhash.digest("4-decBRWHash1305", KEY, DATA * 3)
    assert big.digest() == brwhash.digest("4-decBRWHash1305", KEY, DATA * 3 + b"x")
    assert c2.digest() == brwhash.digest("4-decBRWHash1305", KEY, DATA * 3 + b"y")
    # MAC mode survives copy.
    m = brwhash.Mac(ALG, bytes(range(32)))
    mh = m.hasher(b"abc")
    mc = mh.copy()
    assert mc.mode == "mac" and mc.digest() == m.tag(b"abc")
    mh.update(b"d")
    assert mc.digest() == m.tag(b"abc") and mh.digest() == m.tag(b"abcd")


def test_hasher_outlives_key_object_and_mac():
    key = bytearray(KEY)
    h = brwhash.Hasher(ALG, key)
    key[:] = bytes(16)  # the hasher does not depend on the caller's buffer
    h.update(b"abc")
    assert h.digest() == brwhash.digest(ALG, KEY, b"abc")
    m = brwhash.Mac(ALG, bytes(range(32)))
    mh = m.hasher()
    want = m.tag(b"abc")
    del m
    mh.update(b"abc")
    assert mh.digest() == want


def test_keyed_objects_cannot_be_pickled():
    import pickle

    for obj in [brwhash.Hasher(ALG, KEY), brwhash.Mac(ALG, bytes(32))]:
        with pytest.raises(TypeError):
            pickle.dumps(obj)


def test_hasher_verify():
    h = brwhash.Hasher("Poly1305", bytes(range(32)), DATA)
    tag = brwhash.digest("Poly1305", bytes(range(32)), DATA)
    assert h.verify(tag) and h.verify(bytearray(tag))
    assert not h.verify(tag[:-1]) and not h.verify(tag + b"\0") and not h.verify(b"")
    assert not h.verify(bytes([tag[0] ^ 0x80]) + tag[1:])


def test_vechash2l_streaming():
    comps = [b"first", b"", DATA, b"last"]
    want = brwhash.digest_vector(VEC, KEY, comps)
    h = brwhash.Hasher(VEC, KEY)
    for i, c in enumerate(comps):
        if i:
            assert h.next_component() is None
        h.update(c[:3])
        h.update(c[3:])
    assert h.digest() == want
    # A single message is the one-component vector.
    assert brwhash.digest(VEC, KEY, DATA) == brwhash.digest_vector(VEC, KEY, [DATA])
    assert brwhash.digest_vector(VEC, KEY, iter([b"a", b"b"])) == brwhash.digest_vector(
        VEC, KEY, (b"a", b"b")
    )
    assert brwhash.digest_vector(VEC, KEY, [bytearray(b"a"), memoryview(b"b")]) == (
        brwhash.digest_vector(VEC, KEY, [b"a", b"b"])
    )


# ---------------------------------------------------------------------------- Mac


def test_mac_tag_and_verify():
    mkey = bytes(range(100, 132))
    m = brwhash.Mac(ALG, mkey)
    tag = m.tag(DATA)
    assert tag == brwhash.mac(ALG, mkey, DATA) and len(tag) == m.digest_size == 16
    assert m.hextag(DATA) == tag.hex()
    assert m.verify(DATA, tag) is True
    assert m.verify(DATA + b"x", tag) is False
    assert m.verify(DATA, bytes([tag[0] ^ 1]) + tag[1:]) is False
    assert m.verify(DATA, tag[:-1]) is False  # wrong length
    assert m.verify(DATA, tag + b"\0") is False
    assert m.verify(DATA, b"") is False
    assert m.name == ALG and m.key_size == 32
    assert m.backend in brwhash.backends(ALG)
    assert mkey.hex() not in repr(m)
    # The tag is the digest under tau plus s (mod 2^126 for the 1271 functions).
    d = int.from_bytes(brwhash.digest(ALG, mkey[:16], DATA), "little")
    s = int.from_bytes(mkey[16:], "little")
    mask = (1 << 126) - 1
    assert int.from_bytes(tag, "little") == (d + (s & mask)) & mask


def test_mac_streaming():
    mkey = bytes(range(64))
    m = brwhash.Mac("Hash2L256", mkey)
    h = m.hasher()
    assert h.mode == "mac" and h.key_size == 64 and h.digest_size == 32
    for i in range(0, len(DATA), 777):
        h.update(DATA[i : i + 777])
    tag = m.tag(DATA)
    assert h.digest() == tag and h.verify(tag) and not h.verify(tag[:16])
    assert m.hasher(DATA).digest() == tag
    # vecHash2L in MAC mode.
    mv = brwhash.Mac(VEC, bytes(range(32)))
    hv = mv.hasher(b"a")
    hv.next_component()
    hv.update(b"b")
    t = mv.tag_vector([b"a", b"b"])
    assert hv.digest() == t == brwhash.mac_vector(VEC, bytes(range(32)), [b"a", b"b"])
    assert mv.verify_vector([b"a", b"b"], t) and not mv.verify_vector([b"a", b"c"], t)
    assert not mv.verify_vector([b"a", b"b"], t[:8])


# ---------------------------------------------------------------------------- backends


@pytest.mark.parametrize(
    "alg",
    ["Poly1305", "polyHash1271", "polyHash1305", "BRWHash1305", "3-BRWHash1271",
     "4-2LHash1305", "4-Hash1271", "4-decBRWHash1305", "8-decBRWHash1271",
     "Hash2L128", "Hash2L256", "vecHash2L256"],
)
def test_every_available_backend_gives_the_same_output(alg: str):
    key = bytes((7 * i + 3) % 256 for i in range(brwhash.key_size(alg)))
    lengths = [0, 1, 16, 100, 1000, 5000, 70000]
    want = {n: brwhash.digest(alg, key, DATA[:n] if n <= len(DATA) else DATA * 14) for n in lengths}
    bks = brwhash.backends(alg)
    assert len(bks) >= 1
    for b in bks:
        for n in lengths:
            msg = DATA[:n] if n <= len(DATA) else DATA * 14
            assert brwhash.digest(alg, key, msg, backend=b) == want[n], (alg, b, n)
            h = brwhash.Hasher(alg, key, backend=b)
            assert h.backend == b
            h.update(msg[: n // 3])
            h.update(msg[n // 3 :])
            assert h.digest() == want[n], (alg, b, n)
        if alg != "Poly1305":
            mkey = bytes(range(brwhash.mac_key_size(alg)))
            m = brwhash.Mac(alg, mkey, backend=b)
            assert m.backend == b
            assert m.tag(DATA) == brwhash.mac(alg, mkey, DATA) == brwhash.mac(
                alg, mkey, DATA, backend=b
            )
        if brwhash.is_vector(alg):
            comps = [DATA, b"x", DATA[:100]]
            assert brwhash.digest_vector(alg, key, comps, backend=b) == brwhash.digest_vector(
                alg, key, comps
            )


def _run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=e, timeout=60
    )


def test_brwhash_backend_environment_variable():
    r = _run_python(
        "import brwhash; print(brwhash.default_backend('4-Hash1271'),"
        " brwhash.Hasher('4-Hash1271', bytes(16)).backend)",
        BRWHASH_BACKEND="portable",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["portable", "portable"]
    r = _run_python(
        "import brwhash\n"
        "try:\n    brwhash.digest('4-Hash1271', bytes(16), b'')\n"
        "except ValueError as e:\n    print('ValueError', e)\n",
        BRWHASH_BACKEND="nonsense",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ValueError unknown backend"), r.stdout


# ---------------------------------------------------------------------------- threads


def test_threads_hash_large_data():
    big = os.urandom(4 << 20)
    algs = ["4-decBRWHash1305", "Poly1305", "Hash2L128", "4-Hash1271"]
    keys = {a: bytes(range(brwhash.key_size(a))) for a in algs}
    want = {a: brwhash.digest(a, keys[a], big) for a in algs}
    errors: list[str] = []

    def work(a: str) -> None:
        try:
            for _ in range(3):
                if brwhash.digest(a, keys[a], big) != want[a]:
                    errors.append(f"digest {a}")
                h = brwhash.Hasher(a, keys[a])
                for i in range(0, len(big), 1 << 20):
                    h.update(memoryview(big)[i : i + (1 << 20)])
                if h.digest() != want[a]:
                    errors.append(f"hasher {a}")
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(a,)) for a in algs * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_one_hasher_shared_by_threads():
    chunk = os.urandom(100_000)
    h = brwhash.Hasher("4-decBRWHash1305", KEY)

    def work() -> None:
        for _ in range(5):
            h.update(chunk)  # every order gives the same message: chunk * 20

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.digest() == brwhash.digest("4-decBRWHash1305", KEY, chunk * 20)


def _runs_beside(call) -> bool:
    """Whether another thread gets to run Python code while `call()` runs.

    With a switch interval far longer than the call, a thread that holds the GIL is never
    interrupted: the watcher runs during the call only if the call releases the GIL. No
    timing threshold is involved.
    """
    old = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    try:
        go, finished = threading.Event(), threading.Event()
        seen = []

        def watch() -> None:
            go.wait()
            seen.append(not finished.is_set())

        watcher = threading.Thread(target=watch)
        watcher.start()
        go.set()
        call()
        finished.set()
        watcher.join()
    finally:
        sys.setswitchinterval(old)
    return seen == [True]


def test_large_inputs_release_the_gil():
    """While one thread hashes a large input, another runs Python code."""
    assert brwhash.RELEASE_GIL_AT <= 4096
    data = bytes(64 << 20)
    # The control: pure Python code holds the GIL, and the method sees it.
    assert not _runs_beside(lambda: sum(range(3_000_000)))
    assert _runs_beside(lambda: brwhash.digest("polyHash1305", KEY, data, backend="portable"))
    # The portable backend: slow enough (tens of ms) that the other thread gets the GIL even
    # on a loaded machine (vpclmul's few ms lost that race once in CI).
    h = brwhash.Hasher("Hash2L128", KEY, backend="portable")
    assert _runs_beside(lambda: h.update(data))
    assert h.digest() == brwhash.digest("Hash2L128", KEY, data)


@pytest.mark.parametrize("alg", ["Poly1305", "4-decBRWHash1305", "Hash2L128", "vecHash2L256"])
def test_threads_option_gives_the_same_output(alg: str):
    data = bytes((i * 131 + 7) % 251 for i in range(2 * brwhash.PARALLEL_THRESHOLD + 12345))
    key = bytes(range(1, brwhash.key_size(alg) + 1))
    want = brwhash.digest(alg, key, data)
    for threads in (1, 2, 3, brwhash.AUTO):
        assert brwhash.digest(alg, key, data, threads=threads) == want, threads
        assert brwhash.hexdigest(alg, key, data, threads=threads) == want.hex(), threads
        for backend in brwhash.backends(alg):
            got = brwhash.digest(alg, key, data, backend=backend, threads=threads)
            assert got == want, (threads, backend)
    n = brwhash.mac_key_size(alg)
    if n is not None:
        mkey = bytes(range(2, n + 2))
        tag = brwhash.mac(alg, mkey, data)
        m = brwhash.Mac(alg, mkey)
        for threads in (1, 2, brwhash.AUTO):
            assert brwhash.mac(alg, mkey, data, threads=threads) == tag
            assert m.tag(data, threads=threads) == tag
            assert m.hextag(data, threads=threads) == tag.hex()
            assert m.verify(data, tag, threads=threads)
            assert not m.verify(data[:-1], tag, threads=threads)


@pytest.mark.parametrize("alg", ["vecHash2L128", "vecHash2L256"])
def test_threads_option_on_vectors(alg: str):
    big = bytes((i * 131 + 7) % 251 for i in range(brwhash.PARALLEL_THRESHOLD + 4321))
    parts = [b"head", big, b"", big[:1000]]
    key = bytes(range(1, brwhash.key_size(alg) + 1))
    want = brwhash.digest_vector(alg, key, parts)
    mkey = bytes(range(2, brwhash.mac_key_size(alg) + 2))
    tag = brwhash.mac_vector(alg, mkey, parts)
    m = brwhash.Mac(alg, mkey)
    for threads in (1, 2, 3, brwhash.AUTO):
        assert brwhash.digest_vector(alg, key, parts, threads=threads) == want, threads
        for backend in brwhash.backends(alg):
            got = brwhash.digest_vector(alg, key, parts, backend=backend, threads=threads)
            assert got == want, (threads, backend)
        assert brwhash.mac_vector(alg, mkey, parts, threads=threads) == tag
        assert m.tag_vector(parts, threads=threads) == tag
        assert m.verify_vector(parts, tag, threads=threads)
        assert not m.verify_vector(parts[:-1], tag, threads=threads)
        assert not m.verify_vector([], tag, threads=threads)
        with pytest.raises(ValueError):
            brwhash.digest_vector(alg, key, [], threads=threads)
        with pytest.raises(ValueError):
            brwhash.digest_vector("Hash2L128", key[:16], parts, threads=threads)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_threads_option_starts_a_pool():
    # A pool of n threads is started on first use and kept: the process gains n threads.
    data = bytes(2 * brwhash.PARALLEL_THRESHOLD)
    before = len(os.listdir("/proc/self/task"))
    brwhash.digest("polyHash1305", bytes(16), data, threads=7)
    assert len(os.listdir("/proc/self/task")) >= before + 7
    with pytest.raises(OverflowError):
        brwhash.digest("polyHash1305", bytes(16), data, threads=-1)
