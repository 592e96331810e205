#!/usr/bin/env python3
"""Check brwhash_ref.py against the known-answer vectors, the SPEC.md section 10 table and
a few identities of SPEC.md. Last line of output: "N passed, M failed"; exit 1 on failure.

Usage: python3 reference/check_kats.py [-v] [extra.json ...]
(extra JSON files in the kat.json schema, e.g. tests/vectors/extra.json, are checked too)
"""

import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import brwhash_ref as ref  # noqa: E402

VECTORS = pathlib.Path(__file__).parent.parent / "tests/vectors"

K16 = bytes(range(16)).hex()
K32 = bytes(range(32)).hex()

# SPEC.md section 10 table: (algorithm, mode, key hex, msg_len | component_lens, msg_fill, output)
SPEC_TABLE = [
    ("polyHash1271", "digest", K16, 1, None, "1e000102030405060708090a0b0c0d0e"),
    ("polyHash1305", "digest", K16, 16, None, "9218082329daf53b6c468af74d4db545"),
    ("BRWHash1305", "digest", K16, 1000, None, "5e05d0a5c0fbe9932b6202ec7e6794a4"),
    ("4-BRWHash1271", "digest", K16, 255, None, "2e7ff56d2b96cb1844ed69cb30b2a52e"),
    ("4-2LHash1271", "digest", K16, 1000, None, "3c613029029d0b45b31d6e1e7e097a18"),
    ("4-Hash1271", "digest", K16, 225, None, "09931e0adb8ab092e58edbabc878f01a"),
    ("4-Hash1271", "digest", K16, 226, None, "0d1fdf7bcff9c6ad458907abf387431c"),
    ("4-decBRWHash1305", "digest", K16, 1000, None, "39e08fa7d0afa860c3b0ea23d5f89a0c"),
    ("8-decBRWHash1271", "digest", K16, 4096, None, "a8931b3a79fc3cb310b610175266ee01"),
    ("Hash2L128", "digest", K16, 497, None, "34f5f05fd45bcaf2534adb7156663c47"),
    ("Hash2L256", "digest", K32, 33, None,
     "ca2c07e4930a6291b5ca59c0d72e2fb4711e770560fa0171463a3a2024de4c54"),
    ("vecHash2L128", "digest", K16, [5, 0, 600], None, "e721df2e1fee861efd2b81b5921626fa"),
    ("polyHash1305", "mac", K32, 1000, None, "ecaa2d79f8e517aadd3b498ccb0d7c62"),
    ("4-Hash1271", "mac", K32, 256, None, "ff88a3fde9074a618f54c52cc343da0e"),
    ("Hash2L128", "mac", K32, 17, None, "850a05a7cd8482a0db64516f01e9d668"),
    ("polyHash1271", "digest", "ff" * 16, 16, 0xff, "00ffffffffffffffffffffffffff7f20"),
    ("polyHash1271", "mac", "ff" * 32, 0, None, "ffffffffffffffffffffffffffffff3f"),
    ("Poly1305", "digest", "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     b"Cryptographic Forum Research Group", None, "a8061dc1305136c6c22b8baf0c0127a9"),
]


def message(n, fill=None):
    """SPEC 10 message rule."""
    return bytes([fill]) * n if fill is not None else bytes(i % 256 for i in range(n))


class Checker:
    def __init__(self, verbose=False):
        self.passed = self.failed = 0
        self.verbose = verbose

    def check(self, ok, what):
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"ok    {what}")
        else:
            self.failed += 1
            print(f"FAIL  {what}")

    def expect(self, what, fn, expected):
        try:
            got = fn()
        except Exception as e:  # a crash is a failure, not an abort
            self.check(False, f"{what}: raised {type(e).__name__}: {e}")
            return
        self.check(got == expected, what if got == expected
                   else f"{what}: got {got.hex()}, expected {expected.hex()}")


def run_vector_file(ck, path):
    data = json.loads(path.read_text())
    for i, v in enumerate(data["vectors"]):
        fill = v.get("msg_fill")
        if "component_lens" in v:
            inp = [message(n, fill) for n in v["component_lens"]]
            size = f"components={v['component_lens'][:6]}{'...' if len(v['component_lens']) > 6 else ''}"
        else:
            inp = message(v["msg_len"], fill)
            size = f"N={v['msg_len']}"
        what = (f"{path.name}[{i}] {v['algorithm']} {v['mode']} {size}"
                f"{'' if fill is None else f' fill={fill:#x}'}")
        ck.expect(what, lambda: ref.compute(v["algorithm"], v["mode"], bytes.fromhex(v["key"]), inp),
                  bytes.fromhex(v["output"]))


def run_rfc(ck):
    data = json.loads((VECTORS / "poly1305_rfc8439.json").read_text())
    for v in data["vectors"]:
        ck.expect(f"rfc8439: {v['name']}",
                  lambda: ref.digest(v["algorithm"], bytes.fromhex(v["key"]),
                                     bytes.fromhex(v["message"])),
                  bytes.fromhex(v["tag"]))


def run_spec_table(ck):
    for alg, mode, key, size, fill, outp in SPEC_TABLE:
        if isinstance(size, list):
            inp = [message(n, fill) for n in size]
        elif isinstance(size, bytes):
            inp = size
        else:
            inp = message(size, fill)
        ck.expect(f"SPEC 10 table: {alg} {mode} {size if not isinstance(size, bytes) else size.decode()}",
                  lambda: ref.compute(alg, mode, bytes.fromhex(key), inp), bytes.fromhex(outp))


def run_identities(ck):
    rng = random.Random(20250101)
    rb = lambda n: bytes(rng.getrandbits(8) for _ in range(n))

    # SPEC 5.8: 1-decBRWHash == BRWHash on every input.
    for s in ("1271", "1305"):
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 1000] + \
                 [rng.randrange(0, 3000) for _ in range(20)]:
            K, M = rb(16), rb(n)
            ck.expect(f"identity: 1-decBRWHash{s} == BRWHash{s}, N={n}",
                      lambda: ref.digest(f"1-decBRWHash{s}", K, M), ref.digest(f"BRWHash{s}", K, M))

    # SPEC 3 / 5.9: empty-message digests are zero; Poly1305 tag of empty message is s.
    for name in ref.all_names():
        if ref.is_vector(name):
            continue
        for _ in range(3):
            K = rb(ref.key_bytes(name))
            expected = K[16:32] if name == "Poly1305" else bytes(ref.digest_bytes(name))
            ck.expect(f"identity: empty message {name}", lambda: ref.digest(name, K, b""), expected)
        K = b"\xff" * ref.key_bytes(name)
        expected = K[16:32] if name == "Poly1305" else bytes(ref.digest_bytes(name))
        ck.expect(f"identity: empty message {name}, key ff..", lambda: ref.digest(name, K, b""),
                  expected)

    # SPEC 5.10: vecHash2L((M)) == Hash2L(M) XOR x * x^(8B-8); vector of empties is not 0.
    for s, G in ref.BINARY.items():
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 496, 497, 527, 528, 1000] + \
                 [rng.randrange(0, 3000) for _ in range(10)]:
            K, M = rb(G.B), rb(n)
            x = ref.le(K)
            delta = G.mul(x, 1 << (8 * G.B - 8)).to_bytes(G.B, "little")
            h = ref.digest(f"Hash2L{s}", K, M)
            ck.expect(f"identity: vecHash2L{s}((M)) == Hash2L{s}(M) ^ x*x^(8B-8), N={n}",
                      lambda: ref.digest_vector(f"vecHash2L{s}", K, [M]),
                      bytes(a ^ b for a, b in zip(h, delta)))
        K = rb(G.B)
        for k in (1, 2, 255):
            ck.check(ref.digest_vector(f"vecHash2L{s}", K, [b""] * k) != bytes(G.B),
                     f"identity: vecHash2L{s} of {k} empty components is not zero")

    # SPEC 5.7: d-Hash is polyHash below 2^d blocks and d-2LHash from 2^d blocks on.
    for s, F in ref.PRIMES.items():
        for d in range(2, 6):
            sw = F.B * ((1 << d) - 1)
            for n in (sw - 1, sw, sw + 1, sw + F.B):
                K, M = rb(16), rb(n)
                other = f"polyHash{s}" if n <= sw else f"{d}-2LHash{s}"
                ck.expect(f"identity: {d}-Hash{s} == {other}, N={n}",
                          lambda: ref.digest(f"{d}-Hash{s}", K, M), ref.digest(other, K, M))

    # SPEC 5.3: polyHash1305 with the clamped key r, plus s, is Poly1305.
    for n in (0, 1, 16, 17, 64, 1000):
        K, M = rb(32), rb(n)
        r = (ref.le(K[:16]) & 0x0ffffffc0ffffffc0ffffffc0fffffff).to_bytes(16, "little")
        ck.expect(f"identity: Poly1305 == polyHash1305(clamped r) MAC, N={n}",
                  lambda: ref.digest("Poly1305", K, M), ref.mac("polyHash1305", r + K[16:], M))

    # SPEC 2: 1271 ignores the two top bits of K[15] (key and MAC s).
    for name in ("polyHash1271", "BRWHash1271", "4-Hash1271", "5-decBRWHash1271"):
        K, M = rb(32), rb(200)
        K2 = bytearray(K)
        K2[15] ^= 0xc0
        K2[31] ^= 0xc0
        ck.expect(f"identity: {name} MAC ignores top two key bits", lambda: ref.mac(name, bytes(K2), M),
                  ref.mac(name, K, M))

    # SPEC 5.1 / 8: names and errors.
    ck.check(len(ref.all_names()) == 65 and len(set(ref.all_names())) == 65, "65 distinct names")
    for given, canon in [("4-HASH1271", "4-Hash1271"), ("poly1305", "Poly1305"),
                         ("hash2l128", "Hash2L128"), ("16-DECbrwhash1305", "16-decBRWHash1305"),
                         ("VECHASH2L256", "vecHash2L256")]:
        ck.check(ref.parse_name(given) == canon, f"parse_name({given!r}) == {canon!r}")
    for bad in ["6-Hash1271", "1-BRWHash1305", "0-decBRWHash1271", "17-decBRWHash1305",
                "04-Hash1271", "4-Hash1271 ", " 4-Hash1271", "4-Hash1271\n", "4_Hash1271",
                "Hash2L", "polyHash", "4-Hash127", "", "1-2LHash1305", "6-2LHash1271",
                "6-BRWHash1271", "\u0664-Hash1271", "Hash2L128\x00"]:
        try:
            ref.parse_name(bad)
            ck.check(False, f"parse_name({bad!r}) must fail")
        except ValueError:
            ck.check(True, f"parse_name({bad!r}) fails")
    for what, fn in [
        ("mac Poly1305", lambda: ref.mac("Poly1305", bytes(32), b"")),
        ("key 15 bytes", lambda: ref.digest("polyHash1305", bytes(15), b"")),
        ("key 32 bytes for digest", lambda: ref.digest("BRWHash1271", bytes(32), b"")),
        ("mac key 16 bytes", lambda: ref.mac("BRWHash1271", bytes(16), b"")),
        ("Hash2L256 key 16", lambda: ref.digest("Hash2L256", bytes(16), b"")),
        ("Hash2L256 mac key 32", lambda: ref.mac("Hash2L256", bytes(32), b"")),
        ("vecHash2L 0 components", lambda: ref.digest_vector("vecHash2L128", bytes(16), [])),
        ("vecHash2L 256 components",
         lambda: ref.digest_vector("vecHash2L128", bytes(16), [b""] * 256)),
        ("digest on vecHash2L", lambda: ref.digest("vecHash2L128", bytes(16), b"abc")),
        ("digest_vector on Hash2L", lambda: ref.digest_vector("Hash2L128", bytes(16), [b""])),
        ("bad mode", lambda: ref.compute("Hash2L128", "tag", bytes(16), b"")),
    ]:
        try:
            fn()
            ck.check(False, f"error expected: {what}")
        except ValueError:
            ck.check(True, f"error raised: {what}")


def main():
    verbose = "-v" in sys.argv[1:]
    extra = [pathlib.Path(a) for a in sys.argv[1:] if a != "-v"]
    ck = Checker(verbose)
    run_vector_file(ck, VECTORS / "kat.json")
    run_rfc(ck)
    run_spec_table(ck)
    run_identities(ck)
    for path in extra:
        run_vector_file(ck, path)
    print(f"{ck.passed} passed, {ck.failed} failed")
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
