#!/usr/bin/env python3
"""Generate extra known-answer vectors with brwhash_ref.py -> tests/vectors/extra.json.

Same schema as kat.json (algorithm, mode, key, msg_len [, msg_fill] | component_lens, output),
plus a short per-vector "description". Covers what kat.json lacks: every c-decBRWHash
(c = 1..16, both primes) at q = 2^a, 2^a +- 1 and every l mod c; lengths 0..100 for several
functions; Hash2L/vecHash2L final super-blocks of 1..31 blocks; d-Hash / d-2LHash / t-BRWHash /
BRWHash block-count boundaries; MAC mode for every name; pseudo-random, all-ff and edge keys.
Deterministic: pseudo-random keys are SHA-256 of a counter and are written out in hex.

Usage: python3 reference/gen_vectors.py [OUTPUT]   (default: tests/vectors/extra.json)
"""

import hashlib
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import brwhash_ref as ref  # noqa: E402

OUT = pathlib.Path(__file__).parent.parent / "tests/vectors/extra.json"

PRIMES = ("1271", "1305")


def message(n, fill=None):
    """SPEC 10 message rule."""
    return bytes([fill]) * n if fill is not None else bytes(i % 256 for i in range(n))


class Gen:
    def __init__(self):
        self.vectors = []
        self.seen = set()
        self.counter = 0

    def random_key(self, n):
        """Deterministic pseudo-random key: SHA-256("brwhash extra key <counter>/<i>")."""
        self.counter += 1
        stream = b"".join(hashlib.sha256(f"brwhash extra key {self.counter}/{i}".encode()).digest()
                          for i in range((n + 31) // 32))
        return stream[:n]

    def key(self, name, mode, kind="random"):
        n = ref.key_bytes(name) if mode == "digest" else ref.mac_key_bytes(name)
        if kind == "random":
            return self.random_key(n)
        if kind == "ff":
            return b"\xff" * n
        if kind == "counter":
            return bytes(range(n))
        if kind == "zero":
            return bytes(n)
        if kind == "one":                  # tau = 1 (and s = 1 in MAC mode)
            k = ref.key_bytes(name)
            return (b"\x01" + bytes(k - 1)) * (n // k)
        if kind == "top2":                 # only the top two bits of each half: tau = 0 for 1271
            k = ref.key_bytes(name)
            return (bytes(k - 1) + b"\xc0") * (n // k)
        raise ValueError(kind)

    def add(self, name, size, desc, mode="digest", key="random", fill=None):
        """size: msg_len (int) or component_lens (list) for vecHash2L."""
        name = ref.parse_name(name)
        if isinstance(key, str):
            key = self.key(name, mode, key)
        ident = (name, mode, key, json.dumps(size), fill)
        if ident in self.seen:
            return
        self.seen.add(ident)
        if isinstance(size, list):
            inp = [message(n, fill) for n in size]
        else:
            inp = message(size, fill)
        v = {"algorithm": name, "mode": mode, "key": key.hex()}
        v["component_lens" if isinstance(size, list) else "msg_len"] = size
        if fill is not None:
            v["msg_fill"] = fill
        v["output"] = ref.compute(name, mode, key, inp).hex()
        v["description"] = desc
        self.vectors.append(v)


def block_len(F, l, salt=7):
    """A byte length with exactly l blocks, the last one usually partial (varies with l)."""
    return 0 if l == 0 else F.B * l - (l * salt) % F.B


def gen_dec_brw(g):
    """Every c-decBRWHash, c = 1..16, both primes: q = 2^a, 2^a+-1 and all residues l mod c."""
    for s in PRIMES:
        F = ref.PRIMES[s]
        for c in range(1, 17):
            name = f"{c}-decBRWHash{s}"
            for q in (1, 2, 3, 4, 7, 8, 9):                        # every l with this q
                for l in range(c * (q - 1) + 1, c * q + 1):
                    n = block_len(F, l) if l % 2 else F.B * l
                    g.add(name, n, f"q={q} l={l} l%c={l % c}")
            for q in (15, 16, 17, 31, 32, 33, 63, 64, 65):
                for l in sorted({c * q, c * (q - 1) + 1, c * (q - 1) + max(c - 1, 1)}):
                    g.add(name, block_len(F, l), f"q={q} l={l} l%c={l % c}")
            g.add(name, 0, "empty")
            g.add(name, c * 16 * F.B, f"q=16 full blocks, key ff", key="ff", fill=0xff)


def gen_lengths(g):
    """Every length 0..100 for a selection of functions."""
    for name in ("Poly1305", "polyHash1271", "polyHash1305", "BRWHash1271", "BRWHash1305",
                 "2-BRWHash1271", "3-BRWHash1305", "2-2LHash1271", "3-2LHash1305",
                 "2-Hash1305", "3-decBRWHash1271", "6-decBRWHash1305", "Hash2L128",
                 "Hash2L256"):
        for n in range(101):
            g.add(name, n, "length sweep")


def gen_hash2l(g):
    """Hash2L / vecHash2L: final super-block of every size r = 1..31 (17 in particular)."""
    for s in ("128", "256"):
        B = ref.BINARY[s].B
        for r in range(1, 32):
            for sb in range(3):
                b = 31 * sb + r
                g.add(f"Hash2L{s}", B * b, f"{sb} full super-blocks + final of {r} blocks")
                if sb < 2:
                    g.add(f"Hash2L{s}", B * b - 1 - (r % (B - 1)),
                          f"{sb} full super-blocks + final of {r} blocks, partial last block")
        for sb in range(7):                                   # the 17-block case in depth
            for extra in (0, 1, B // 2, B - 1):
                n = B * (31 * sb + 17) - extra
                g.add(f"Hash2L{s}", n, "final super-block of 17 blocks")
                g.add(f"Hash2L{s}", n, f"final super-block of 17 blocks, MAC", mode="mac")
        for sb in (1, 2):
            g.add(f"Hash2L{s}", B * 31 * sb, f"exactly {sb} full super-blocks", key="ff",
                  fill=0xff)
        # vecHash2L: components whose final super-blocks have r blocks
        for r in range(1, 32):
            lens = [B * r, B * (31 + r) - 1, r]
            g.add(f"vecHash2L{s}", lens, f"components with final super-blocks of {r} blocks")
        g.add(f"vecHash2L{s}", [B * 17], "one component, final super-block of 17 blocks")
        g.add(f"vecHash2L{s}", [B * 48, 0, B * 17 + 3], "17-block final super-blocks, MAC",
              mode="mac")
        for k in (1, 2, 3, 16, 127, 128, 200, 254, 255):
            g.add(f"vecHash2L{s}", [0] * k, f"{k} empty components")
        for k in (2, 7, 255):
            lens = [(i * 37) % (3 * 31 * B + 5) for i in range(k)]
            g.add(f"vecHash2L{s}", lens, f"{k} components of varied lengths")
            g.add(f"vecHash2L{s}", lens, f"{k} components of varied lengths, MAC", mode="mac")
        g.add(f"vecHash2L{s}", [1, 100, 1000], "all ff", key="ff", fill=0xff)
        g.add(f"vecHash2L{s}", [1, 100, 1000], "all ff, MAC", mode="mac", key="ff", fill=0xff)


def gen_boundaries(g):
    """d-Hash switch points, d-2LHash super-block boundaries, t-BRWHash and BRWHash l = 2^a."""
    for s in PRIMES:
        F = ref.PRIMES[s]
        B = F.B
        for d in range(2, 6):
            sw = B * ((1 << d) - 1)                 # last polyHash length
            for n in (sw - 1, sw, sw + 1, sw + B - 1, sw + B, sw + B + 1):
                for key in ("random", "ff", "counter"):
                    g.add(f"{d}-Hash{s}", n, f"switch point {sw}/{sw + 1}, N={n}", key=key)
                g.add(f"{d}-Hash{s}", n, f"switch point, MAC, N={n}", mode="mac")
            g.add(f"{d}-Hash{s}", sw, "switch point, all ff", key="ff", fill=0xff)
            g.add(f"{d}-Hash{s}", sw + 1, "switch point, all ff", key="ff", fill=0xff)
            delta = (1 << d) - 1
            for k in (1, 2, 3, 5, 9):
                for n in (B * k * delta - 1, B * k * delta, B * k * delta + 1):
                    g.add(f"{d}-2LHash{s}", n, f"{k} super-blocks of {delta} blocks, N={n}")
        for t in range(2, 6):
            for k in (1, 2, 3, 5):
                for l in (k * (1 << t) - 1, k * (1 << t), k * (1 << t) + 1):
                    g.add(f"{t}-BRWHash{s}", block_len(F, l), f"l={l} around {k}*2^{t}")
                    g.add(f"{t}-BRWHash{s}", F.B * l, f"l={l} full blocks around {k}*2^{t}")
        for a in range(11):
            for l in ((1 << a) - 1, 1 << a, (1 << a) + 1):
                if l > 0:
                    g.add(f"BRWHash{s}", F.B * l, f"l={l} around 2^{a}")
                    g.add(f"BRWHash{s}", block_len(F, l), f"l={l} around 2^{a}, partial block")


def gen_all_names(g):
    """Every name: MAC mode, all-ff keys and messages, edge keys."""
    for name in ref.all_names():
        vec = ref.is_vector(name)
        sizes = [[0], [1], [17], [100, 5], [333], [1000, 0, 1]] if vec else [0, 1, 17, 100, 333, 1000]
        for size in sizes:
            g.add(name, size, "random key")
            if name != "Poly1305" and size not in (1, [1]):
                g.add(name, size, "MAC, random key", mode="mac")
        ff_sizes = [[16], [255, 1], [1000]] if vec else [1, 16, 100, 255, 1000]
        for size in ff_sizes:
            g.add(name, size, "all-ff key and message", key="ff", fill=0xff)
            if size in (16, 1000, [16], [1000]):
                g.add(name, size, "all-zero message", key="ff", fill=0x00)
            if name != "Poly1305":
                g.add(name, size, "MAC, all-ff key and message", mode="mac", key="ff", fill=0xff)
        size = [100] if vec else 100
        for kind in ("zero", "one", "top2"):
            g.add(name, size, f"edge key ({kind})", key=kind)
            if name != "Poly1305":
                g.add(name, size, f"MAC, edge key ({kind})", mode="mac", key=kind)


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    g = Gen()
    gen_dec_brw(g)
    gen_lengths(g)
    gen_hash2l(g)
    gen_boundaries(g)
    gen_all_names(g)
    header = {
        "description": "Extra known-answer tests generated by reference/gen_vectors.py from the "
                       "big-integer reference reference/brwhash_ref.py (which reproduces every "
                       "vector of kat.json and poly1305_rfc8439.json). Covers every "
                       "c-decBRWHash (c = 1..16) at q = 2^a, 2^a+-1 and every l mod c; length "
                       "sweeps 0..100; Hash2L final super-blocks of 1..31 blocks; d-Hash switch "
                       "points; block-count boundaries; MAC mode, all-ff and edge keys for every "
                       "name. Pseudo-random keys are SHA-256 outputs of a counter, written in hex.",
        "message_rule": "message = bytes(i % 256 for i in range(msg_len)); if msg_fill is "
                        "present, message = bytes([msg_fill]) * msg_len",
        "vector_rule": "vecHash2L: the input is a vector of len(component_lens) byte strings, "
                       "component i built from component_lens[i] with the message rule",
        "mode_rule": "digest = the function's plain output (for Poly1305 its tag); mac = "
                     "one-time-key MAC mode of SPEC.md section 7, key = tau || s",
        "hex_rule": "key and output are hex strings of bytes in memory order",
        "description_rule": "each vector's description is informative only",
    }
    lines = ["{"]
    for k, v in header.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "vectors": [')
    lines.append(",\n".join("    " + json.dumps(v) for v in g.vectors))
    lines.append("  ]")
    lines.append("}")
    out.write_text("\n".join(lines) + "\n")
    names = {v["algorithm"] for v in g.vectors}
    print(f"wrote {len(g.vectors)} vectors for {len(names)} names, "
          f"{out.stat().st_size} bytes -> {out}")


if __name__ == "__main__":
    main()
