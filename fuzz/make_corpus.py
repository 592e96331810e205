#!/usr/bin/env python3
"""Writes the small seed corpus fuzz/corpus/<target>/ from known-answer vectors of
tests/vectors/*.json, in the input layouts of fuzz/src/lib.rs and fuzz_targets/*.rs
(documented at the top of each target). The seeds only steer libFuzzer to valid algorithms, keys
and interesting lengths: outputs are checked by the targets' oracles, not by the seeds.

Usage: python3 fuzz/make_corpus.py   (rewrites fuzz/corpus/; a few KB in all)
"""
import hashlib
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def algorithms():
    """The 65 names in the order of Algorithm::all()."""
    names = ["Poly1305", "polyHash1271", "polyHash1305", "BRWHash1271", "BRWHash1305"]
    for fam in ["BRWHash", "2LHash", "Hash"]:
        for p in ["1271", "1305"]:
            names += [f"{n}-{fam}{p}" for n in range(2, 6)]
    for p in ["1271", "1305"]:
        names += [f"{c}-decBRWHash{p}" for c in range(1, 17)]
    return names + ["Hash2L128", "Hash2L256", "vecHash2L128", "vecHash2L256"]


ALGS = algorithms()
INDEX = {a.lower(): i for i, a in enumerate(ALGS)}
BACKENDS = ["portable", "scalar", "avx2", "avx512", "ifma", "pclmul", "vpclmul"]


def key_len(alg):
    return 32 if alg in ("Poly1305",) or alg.endswith("256") else 16


def digest_len(alg):
    return 32 if alg.endswith("2L256") else 16


def u16(n):
    return struct.pack("<H", n)


def kat(alg, mode="digest", msg_len=None, vector=False):
    """The first vector of tests/vectors/{kat,extra}.json that fits."""
    for name in ["kat.json", "extra.json"]:
        for v in json.loads((ROOT / "tests" / "vectors" / name).read_text())["vectors"]:
            if v["algorithm"] != alg or v["mode"] != mode:
                continue
            if vector != ("component_lens" in v):
                continue
            if msg_len is not None and v.get("msg_len") != msg_len:
                continue
            return v
    raise SystemExit(f"no vector for {alg} {mode} {msg_len} vector={vector}")


def message(v, raw_max=48):
    """A message field: raw bytes for short KAT messages, else an expansion of a seed."""
    n = v["msg_len"]
    if n <= raw_max:
        fill = v.get("msg_fill")
        body = bytes([fill] * n) if fill is not None else bytes(i % 256 for i in range(n))
        return b"\x00" + body
    return b"\x80" + u16(n) + bytes(range(16))


def components(lens):
    """A vector field: count byte, lengths, a short pool."""
    assert 1 <= len(lens) <= 16
    return bytes([len(lens) - 1]) + b"".join(u16(n) for n in lens) + bytes(range(32))


def backends_seeds():
    out = {}
    for alg, n in [("Poly1305", 17), ("polyHash1271", 255), ("4-decBRWHash1305", 1000),
                   ("3-2LHash1271", 4096), ("Hash2L256", 33), ("4-Hash1271", 496)]:
        v = kat(alg, msg_len=n)
        body = bytes([INDEX[alg.lower()], 7]) + bytes.fromhex(v["key"])
        out[f"{alg}-{n}"] = body + message(v)
    v = kat("vecHash2L128", vector=True)
    out["vecHash2L128-vector"] = (bytes([INDEX["vechash2l128"], 0]) + bytes.fromhex(v["key"])
                                  + b"\x01" + components([16, 511, 1]))
    return out


def streaming_seeds():
    out = {}
    for alg, b, n, splits in [("Poly1305", 4, 1000, [1, 300, 511]),
                              ("8-decBRWHash1271", 3, 4096, [15, 2000]),
                              ("Hash2L128", 6, 2000, [31, 496, 1984]),
                              ("5-Hash1305", 1, 497, [])]:
        v = kat(alg)  # its key; the message is a stretched seed of n bytes
        head = bytes([INDEX[alg.lower()], b]) + bytes.fromhex(v["key"])
        head += bytes([len(splits), 1]) + b"".join(u16(s) for s in splits)
        out[f"{alg}-{n}"] = head + b"\x80" + u16(n) + bytes(range(16))
    v = kat("vecHash2L256", vector=True)
    head = bytes([INDEX["vechash2l256"], 6]) + bytes.fromhex(v["key"]) + bytes([2, 1]) + u16(7) + u16(40)
    out["vecHash2L256-vector"] = head + components([0, 100, 2000])
    return out


def mac_seeds():
    out = {}
    for alg, n in [("polyHash1305", 1000), ("4-Hash1271", 256), ("Hash2L128", 17),
                   ("16-decBRWHash1305", None)]:
        v = kat(alg, mode="mac", msg_len=n)
        idx = INDEX[alg.lower()] - 1  # the MAC target skips Poly1305
        # key mode: the KAT key as it is (0), or as the seed of a pseudo-random key (1)
        body = bytes([idx, 7, n is None]) + bytes.fromhex(v["key"]) + b"\x00" + u16(5)
        out[f"{alg}-mac-{v['msg_len']}"] = body + message(v)
    k = bytes(range(64))
    out["vecHash2L256-mac-vector"] = (bytes([INDEX["vechash2l256"] - 1, 7, 0]) + k + b"\x01" + u16(9)
                                      + components([3, 0, 64]))
    return out


def parse_seeds():
    out = {}
    for i, s in enumerate(["4-HASH1271", "16-decBRWHash1305", "6-2LHash1271", "04-Hash1271",
                           "vecHash2L256", "AVX512", "vpclmul"]):
        out[f"name-{i}"] = s.encode()
    # Structured: algorithm, family, parameter, key length, count, g, backend, key, message.
    out["keys"] = (bytes([INDEX["hash2l256"], 3, 17, 32]) + u16(255) + struct.pack("<I", 8)
                   + bytes([0]) + bytes(range(32)) + b"message")
    out["mac-key"] = (bytes([INDEX["polyhash1271"], 0x81, 6, 32]) + u16(256) + struct.pack("<I", 1)
                      + bytes([1]) + b"\xff" * 32 + b"tag?")
    return out


def c_abi_seeds():
    out = {}
    for op, alg, b in [(0, "Poly1305", 4), (1, "3-BRWHash1305", 0), (2, "vecHash2L128", 6),
                       (3, "4-decBRWHash1271", 3), (3, "vecHash2L256", 5)]:
        mac_stream = op == 3 and alg != "4-decBRWHash1271"
        kl = key_len(alg) + (digest_len(alg) if op == 1 or mac_stream else 0)
        body = bytes([op, 1, INDEX[alg.lower()]]) + struct.pack("<I", 0x0f0f0f0f)
        body += bytes([1, b]) + struct.pack("<I", 0) if b else b"\x00"
        # key: the operation's length (mode 0), or the MAC-mode length for a MAC stream (1)
        body += bytes([1 if mac_stream else 0]) + bytes(range(kl))
        body += b"\x00\x00"                          # output: digest_len bytes
        # streaming flags: 0x20 explicit backend, 0x10 MAC mode, 0x80 component breaks
        flags = {(3, True): 0xb0, (3, False): 0x20}.get((op, mac_stream), 0)
        body += bytes([flags, 2]) + u16(100) + u16(700) + u16(3)
        if op == 2:
            body += bytes([3]) + u16(16) + u16(0) + u16(40) + struct.pack("<I", 2) + bytes(range(24))
        else:
            body += b"\x80" + u16(1500) + bytes(range(16))
        out[f"op{op}-{alg}"] = body
    # A NULL algorithm pointer and a raw invalid name.
    out["null-name"] = bytes([0, 0, 0, 0, 0, 0, 0, 0]) + b"abc"
    out["raw-name"] = bytes([0, 7, 9]) + "4-Hash1271\xff".encode("latin-1")[:9] + bytes(8)
    return out


def main():
    seeds = {
        "backends": backends_seeds(),
        "streaming": streaming_seeds(),
        "mac": mac_seeds(),
        "parse": parse_seeds(),
        "c_abi": c_abi_seeds(),
    }
    total = 0
    for target, files in seeds.items():
        d = CORPUS / target
        d.mkdir(parents=True, exist_ok=True)
        for old in d.iterdir():
            old.unlink()
        for name, body in files.items():
            # Content-addressed names, as libFuzzer writes them, with a readable prefix.
            digest = hashlib.sha1(body).hexdigest()[:12]
            (d / f"{name}-{digest}").write_bytes(body)
            total += len(body)
    print(f"wrote {sum(len(f) for f in seeds.values())} seeds, {total} bytes, under {CORPUS}")


if __name__ == "__main__":
    main()
