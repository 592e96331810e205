#!/usr/bin/env python3
"""long_messages.py -- digests of very long periodic messages, by an algebraic shortcut.

The Rust limits tests (crates/brwhash/tests/limits.rs) stream messages of 2^29 - 1 .. 2^32 + 17
bytes through `Hasher`. brwhash_ref.py would need hours (and 4 GiB of RAM) for those, so this
script computes the same digests (SPEC.md sections 2-5) for a message whose bytes repeat with a
short period P: message[i] = pattern[i % P]. The default pattern is the SPEC 10 message rule,
bytes(i % 256 for i in range(N)), so a vector here is read exactly like a kat.json one.

The shortcut: with T = lcm(P, B) / B, block i (all but the last, possibly short, one) equals
block i % T. Hence
- Horner over the blocks is Horner over one period, times a geometric series in x^T
  (computed by doubling), plus the last few blocks;
- BRW(x; M_s..M_(s+l-1)) over whole blocks depends only on (s mod T, l), and the recursion of
  SPEC 4 meets only O(T * lg l) distinct such pairs (memoised);
- the derived sequences (d-2LHash super-block values, c-decBRWHash streams, Hash2L super-block
  digests) are periodic too, and go through the same two functions.
Everything else (length block L = 8N, out(), keys, clamps, d-Hash switch, decBRW's x^D,
vecHash2L's k byte) is taken as SPEC.md and brwhash_ref.py define it; field arithmetic and
helpers are imported from brwhash_ref.py.

`check` compares the shortcut with brwhash_ref.digest / digest_vector on every one of the 65
names for many short lengths and several patterns (so the shortcut is itself checked against
the executable definition); `generate` writes tests/vectors/limits.json.

Usage:
    python3 reference/long_messages.py check            # shortcut == brwhash_ref (small N)
    python3 reference/long_messages.py generate [OUT]   # default: tests/vectors/limits.json
    python3 reference/long_messages.py digest --alg NAME --key HEX --len N [--fill BYTE]
"""

import argparse
import json
import math
import pathlib
import re
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import brwhash_ref as R  # noqa: E402

sys.setrecursionlimit(10000)

OUT = pathlib.Path(__file__).parent.parent / "tests/vectors/limits.json"
COUNTER = bytes(range(256))          # SPEC 10 message rule: byte i is i % 256


def message(pattern, n):
    """The message itself (only for the short lengths of `check`)."""
    reps = -(-n // len(pattern))
    return (pattern * reps)[:n]


# ---------------------------------------------------------------------------
# Sequences: periodic on [0, reg_end) with period T, explicit values on [reg_end, n).
# ---------------------------------------------------------------------------

class Seq:
    def __init__(self, n, T, per, reg_end, irr):
        assert 0 <= reg_end <= n and T >= 1
        assert len(per) >= min(T, reg_end)
        assert set(irr) == set(range(reg_end, n)), "every irregular element must be explicit"
        self.n, self.T, self.per, self.reg_end, self.irr = n, T, per, reg_end, irr
        self.memo = {}                  # (s mod T, l) -> BRW over a regular range

    def get(self, i):
        assert 0 <= i < self.n
        return self.per[i % self.T] if i < self.reg_end else self.irr[i]


def block_seq(pattern, N, B, marker):
    """SPEC 3 blocks of the periodic message: pad1 (marker=True) or pad2 values."""
    P = len(pattern)
    span = P * B // math.gcd(P, B)                   # lcm(P, B) bytes = T blocks
    T = span // B
    period = message(pattern, span)
    full = N // B
    per = [R.le(period[k * B:(k + 1) * B]) + ((1 << (8 * B)) if marker else 0)
           for k in range(min(T, full))]
    irr = {}
    r = N % B
    if r:
        start = full * B
        part = bytes(pattern[(start + i) % P] for i in range(r))
        irr[full] = R.le(part) + ((1 << (8 * r)) if marker else 0)
    return Seq(full + (1 if r else 0), T, per, full, irr)


def derived(n, T, reg_end, f):
    """The sequence f(0), ..., f(n-1), where f is T-periodic on [0, reg_end)."""
    reg_end = min(reg_end, n)
    per = [f(i) for i in range(min(T, reg_end))]
    irr = {i: f(i) for i in range(reg_end, n)}
    return Seq(n, T, per, reg_end, irr)


def geom(F, z, q):
    """(sum_{j<q} z^j, z^q), by doubling."""
    if q == 0:
        return 0, 1
    if q % 2:
        g, zq = geom(F, z, q - 1)
        return F.add(F.mul(g, z), 1), F.mul(zq, z)
    g, zm = geom(F, z, q // 2)
    return F.add(g, F.mul(g, zm)), F.mul(zm, zm)


def horner(F, z, seq, acc=0):
    """acc * z^n + sum_i seq_i z^(n-1-i): SPEC 4 Poly continued from acc."""
    T, done = seq.T, 0
    q = seq.reg_end // T
    if q:
        h = 0
        for k in range(T):
            h = F.add(F.mul(h, z), seq.per[k])
        g, zTq = geom(F, F.power(z, T), q)
        acc = F.add(F.mul(acc, zTq), F.mul(h, g))
        done = q * T
    for i in range(done, seq.n):
        acc = F.add(F.mul(acc, z), seq.get(i))
    return acc


def brw(F, x, seq, s, l):
    """SPEC 4 BRW(x; seq_s .. seq_(s+l-1)), memoised on regular ranges."""
    if l == 0:
        return 0
    key = (s % seq.T, l) if s + l <= seq.reg_end else None
    if key is not None and key in seq.memo:
        return seq.memo[key]
    g = seq.get
    if l == 1:
        v = g(s)
    elif l == 2:
        v = F.add(F.mul(g(s), x), g(s + 1))
    elif l == 3:
        v = F.add(F.mul(F.add(x, g(s)), F.add(F.mul(x, x), g(s + 1))), g(s + 2))
    else:
        K = 1 << (l.bit_length() - 1)
        v = F.add(F.mul(brw(F, x, seq, s, K - 1), F.add(F.power(x, K), g(s + K - 1))),
                  brw(F, x, seq, s + K, l - K))
    if key is not None:
        seq.memo[key] = v
    return v


# ---------------------------------------------------------------------------
# SPEC 5: the functions of a periodic message of N bytes.
# ---------------------------------------------------------------------------

def _check_len(N):
    if not 0 <= N < R.MAX_MSG_BYTES:
        raise ValueError("message too long (N must be < 2^61 bytes)")


def poly1305(K, pattern, N):
    F = R.F1305
    r = R.le(K[0:16]) & 0x0ffffffc0ffffffc0ffffffc0fffffff
    s = R.le(K[16:32])
    h = r * horner(F, r, block_seq(pattern, N, 16, True)) % F.p
    return ((h + s) % (1 << 128)).to_bytes(16, "little")


def poly_hash(F, K, pattern, N):
    x = R.tau(F, K)
    return R.out(F, x * horner(F, x, block_seq(pattern, N, F.B, True)))


def brw_hash(F, K, pattern, N):
    x = R.tau(F, K)
    seq = block_seq(pattern, N, F.B, False)
    return R.out(F, x * (x * brw(F, x, seq, 0, seq.n) + 8 * N))


def _tail(F, x, acc, seq, start, L):
    """Horner in x of acc, blocks start.. of seq, then the length block L."""
    for i in range(start, seq.n):
        acc = F.add(F.mul(acc, x), seq.get(i))
    return F.add(F.mul(acc, x), L)


def t_brw_hash(t, F, K, pattern, N):
    x = R.tau(F, K)
    seq = block_seq(pattern, N, F.B, False)
    lp = seq.n - seq.n % (1 << t)
    return R.out(F, x * _tail(F, x, brw(F, x, seq, 0, lp), seq, lp, 8 * N))


def d_2l_hash(d, F, K, pattern, N):
    x = R.tau(F, K)
    seq = block_seq(pattern, N, F.B, False)
    delta = (1 << d) - 1
    nsb = seq.n // delta
    U = derived(nsb, seq.T // math.gcd(seq.T, delta), seq.reg_end // delta,
                lambda i: brw(F, x, seq, i * delta, delta))
    V = horner(F, F.power(x, 1 << d), U)
    return R.out(F, x * _tail(F, x, V, seq, nsb * delta, 8 * N))


def d_hash(d, F, K, pattern, N):
    l = -(-N // F.B)
    return poly_hash(F, K, pattern, N) if l < (1 << d) else d_2l_hash(d, F, K, pattern, N)


def c_dec_brw_hash(c, F, K, pattern, N):
    x = R.tau(F, K)
    blocks = block_seq(pattern, N, F.B, False)
    l = blocks.n
    q = -(-l // c)
    Q = []
    for j in range(c):                        # stream j + 1: blocks j, j + c, ...; then zeros
        def elem(i, j=j):
            b = j + i * c
            return blocks.get(b) if b < l else 0
        reg = max(0, -(-(blocks.reg_end - j) // c))
        stream = derived(q, blocks.T // math.gcd(blocks.T, c), reg, elem)
        Q.append(brw(F, x, stream, 0, q))
    L = 8 * N
    D = 1 if L == 0 else 1 << q.bit_length()
    Qc = R.poly(F, F.power(x, D), Q)
    return R.out(F, x * (x * Qc + L))


def sb_digests(G, x, pattern, N):
    """SPEC 5.9 super-block digests as a sequence (the empty message is one zero block)."""
    if N == 0:
        blocks = Seq(1, 1, [], 0, {0: 0})
    else:
        blocks = block_seq(pattern, N, G.B, False)
    n = blocks.n
    return derived(-(-n // 31), blocks.T // math.gcd(blocks.T, 31), blocks.reg_end // 31,
                   lambda s: brw(G, x, blocks, 31 * s, min(31, n - 31 * s)))


def hash2l(G, K, pattern, N):
    x = R.le(K)
    acc = horner(G, G.power(x, 32), sb_digests(G, x, pattern, N))
    return G.add(G.mul(G.mul(x, x), acc), G.mul(x, 8 * N)).to_bytes(G.B, "little")


def vechash2l(G, K, components):
    """components: list of (pattern, N)."""
    x = R.le(K)
    x32, k, acc = G.power(x, 32), len(components), 0
    for i, (pattern, N) in enumerate(components, 1):
        acc = horner(G, x32, sb_digests(G, x, pattern, N), acc)
        Li = 8 * N
        if i == k:
            Li ^= k << (8 * G.B - 8)
        acc = G.add(G.mul(x, acc), Li)
    return G.mul(x, acc).to_bytes(G.B, "little")


def digest(name, key, pattern, N, components=None):
    """The digest of the periodic message of N bytes (vecHash2L: of `components`, a list of
    (pattern, N), or of the one-component vector ((pattern, N)))."""
    name = R.parse_name(name)
    if len(key) != R.key_bytes(name):
        raise ValueError("wrong key length")
    for _, n in components or [(pattern, N)]:
        _check_len(n)
    if name == "Poly1305":
        return poly1305(key, pattern, N)
    m = re.fullmatch(r"(?:(\d+)-)?(polyHash|BRWHash|2LHash|Hash|decBRWHash)(1271|1305)", name)
    if m:
        n = int(m.group(1)) if m.group(1) else None
        fam, F = m.group(2), R.PRIMES[m.group(3)]
        if fam == "polyHash":
            return poly_hash(F, key, pattern, N)
        if fam == "BRWHash":
            return brw_hash(F, key, pattern, N) if n is None else t_brw_hash(n, F, key, pattern, N)
        if fam == "2LHash":
            return d_2l_hash(n, F, key, pattern, N)
        if fam == "Hash":
            return d_hash(n, F, key, pattern, N)
        return c_dec_brw_hash(n, F, key, pattern, N)
    G = R.BINARY[name[-3:]]
    if name.startswith("Hash2L"):
        return hash2l(G, key, pattern, N)
    return vechash2l(G, key, components or [(pattern, N)])


def kat_key(name):
    """SPEC 10 keys: 00 01 .. (key length)."""
    return bytes(range(R.key_bytes(name)))


# ---------------------------------------------------------------------------
# check: the shortcut against brwhash_ref on short messages.
# ---------------------------------------------------------------------------

def cmd_check(args):
    patterns = {
        "counter": COUNTER,                 # T = 256 (1271), 16 (1305), 16/8 (GF(2^128)/(2^256))
        "zeros": b"\x00",                   # T = 1 everywhere
        "ff": b"\xff",
        "7-byte": bytes([0x80, 0x01, 0xfe, 0x00, 0x7f, 0x55, 0xaa]),   # T = 7
        "48-byte": bytes((37 * i + 11) % 256 for i in range(48)),      # T = 16, 3, 3/3
    }
    lengths = sorted(set(
        list(range(0, 70)) + [89, 90, 91, 224, 225, 226, 239, 240, 241, 255, 256, 257, 465, 496,
                              497, 511, 512, 513, 961, 992, 993, 1023, 1024, 1025, 1500, 2047,
                              2048, 2049, 3839, 3840, 3841, 4095, 4096, 4097, 7679, 7680, 7681,
                              8191, 8192, 8193]))
    long_lengths = [11537, 16384 + 5, 40000 + 3]      # a few periods of the counter pattern
    failures = checked = 0
    t0 = time.time()
    keys = {}
    for name in R.all_names():
        keys[name] = [kat_key(name), bytes([0xff]) * R.key_bytes(name),
                      bytes((0x9d * i + 0x31) % 256 for i in range(R.key_bytes(name)))]
    for name in R.all_names():
        vector = R.is_vector(name)
        for pname, pat in patterns.items():
            lens = lengths + (long_lengths if pname in ("counter", "7-byte") else [])
            if args.quick:
                lens = lens[::7]
            for ki, key in enumerate(keys[name]):
                for N in lens if ki == 0 else lens[::5]:
                    msg = message(pat, N)
                    want = (R.digest_vector(name, key, [msg]) if vector
                            else R.digest(name, key, msg))
                    got = digest(name, key, pat, N)
                    checked += 1
                    if got != want:
                        failures += 1
                        print(f"FAIL {name} pattern={pname} key#{ki} N={N}: "
                              f"{got.hex()} != {want.hex()}")
        if vector:                                  # several components, k in the top byte
            for lens in ([0], [5, 0, 600], [4097, 31 * 32 + 1, 1], [1] * 40, [3841, 7681]):
                comps = [(COUNTER, n) for n in lens]
                want = R.digest_vector(name, keys[name][0], [message(COUNTER, n) for n in lens])
                got = digest(name, keys[name][0], None, None, comps)
                checked += 1
                if got != want:
                    failures += 1
                    print(f"FAIL {name} components={lens}: {got.hex()} != {want.hex()}")
        if args.verbose:
            print(f"{name}: done ({time.time() - t0:.0f} s)", flush=True)
    print(f"{checked - failures} passed, {failures} failed ({time.time() - t0:.0f} s)")
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# generate: tests/vectors/limits.json.
# ---------------------------------------------------------------------------

# Lengths at which limits.rs finalizes one stream (all in one pass of 2^32 + 17 bytes):
# the bit count L = 8N crosses 2^32 at N = 2^29, the byte count crosses 2^32 at N = 2^32.
STREAM_LENGTHS = [(1 << 29) - 1, 1 << 29, (1 << 29) + 1,
                  (1 << 32) - 1, 1 << 32, (1 << 32) + 17]


# Message lengths for the length-block products x * L, L = 8N (limits.rs checks them with the
# field types; lengths near 2^61 cannot be hashed in a test): L crosses 2^32 at N = 2^29, N
# crosses 2^32, and N = 2^61 - 1 = MAX_MESSAGE_BYTES gives the largest L, 2^64 - 8.
LENGTH_BLOCK_LENGTHS = [0, 1, (1 << 29) - 1, 1 << 29, (1 << 29) + 1, (1 << 32) - 1, 1 << 32,
                        (1 << 32) + 17, (1 << 61) - 2, (1 << 61) - 1]


def length_blocks():
    """x * L for the key 00 01 .. and L = 8N: out(x * L) for the primes (SPEC 2, 5.4), the
    field element x * L for GF(2^128) / GF(2^256) (SPEC 5.9: L in bytes 0..7)."""
    rows = []
    for suffix, F in R.PRIMES.items():
        key = bytes(range(16))
        x = R.tau(F, key)
        for N in LENGTH_BLOCK_LENGTHS:
            L = 8 * N
            rows.append({"field": suffix, "key": key.hex(), "msg_len": N,
                         "length_block": L.to_bytes(8, "little").hex(),
                         "x_times_length": R.out(F, F.mul(x, L)).hex()})
    for suffix, G in R.BINARY.items():
        key = bytes(range(G.B))
        x = R.le(key)
        for N in LENGTH_BLOCK_LENGTHS:
            L = 8 * N
            rows.append({"field": suffix, "key": key.hex(), "msg_len": N,
                         "length_block": L.to_bytes(8, "little").hex(),
                         "x_times_length": G.mul(x, L).to_bytes(G.B, "little").hex()})
    return rows


def cmd_generate(args):
    out = pathlib.Path(args.output) if args.output else OUT
    t0 = time.time()
    vectors = []
    for name in R.all_names():
        key = kat_key(name)
        for N in STREAM_LENGTHS:
            vectors.append({"algorithm": name, "mode": "digest", "key": key.hex(),
                            "msg_len": N, "output": digest(name, key, COUNTER, N).hex()})
        for N in ((1 << 32) + 17,):                   # all-zero message (msg_fill 0)
            vectors.append({"algorithm": name, "mode": "digest", "key": key.hex(),
                            "msg_len": N, "msg_fill": 0,
                            "output": digest(name, key, b"\x00", N).hex()})
        if R.is_vector(name):                          # a long component between short ones
            for lens in ([5, (1 << 32) + 17, 0], [(1 << 29) + 1, (1 << 29) - 1]):
                comps = [(COUNTER, n) for n in lens]
                vectors.append({"algorithm": name, "mode": "digest", "key": key.hex(),
                                "component_lens": lens,
                                "output": digest(name, key, None, None, comps).hex()})
        if args.verbose:
            print(f"{name}: {time.time() - t0:.1f} s", flush=True)
    doc = {
        "description": "Digests of messages of 2^29 - 1 .. 2^32 + 17 bytes (SPEC.md 8 limits "
                       "tests), computed by reference/long_messages.py (the algebraic shortcut "
                       "for periodic messages, checked against brwhash_ref.py by "
                       "`long_messages.py check`). Used by crates/brwhash/tests/limits.rs.",
        "message_rule": "bytes(i % 256 for i in range(msg_len)), or bytes([msg_fill]) * msg_len",
        "vector_rule": "component i is built from component_lens[i] by the message rule",
        "generator": "python3 reference/long_messages.py generate",
        "vectors": vectors,
        "length_blocks_rule": "x = the key as a field element (SPEC 2: tau = le(K) mod 2^k; "
                              "SPEC 5.9: le(K)); L = 8 * msg_len as 8 little-endian bytes; "
                              "x_times_length = out(x * L) (primes) or x * L (binary fields)",
        "length_blocks": length_blocks(),
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {len(vectors)} vectors and {len(doc['length_blocks'])} length blocks to {out} ({time.time() - t0:.1f} s)")
    return 0


def cmd_digest(args):
    key = bytes.fromhex(args.key)
    pattern = bytes([args.fill]) if args.fill is not None else COUNTER
    print(digest(args.alg, key, pattern, args.len).hex())
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="shortcut == brwhash_ref on short messages")
    c.add_argument("--quick", action="store_true", help="every 7th length only")
    c.add_argument("-v", "--verbose", action="store_true")
    c.set_defaults(func=cmd_check)
    g = sub.add_parser("generate", help="write tests/vectors/limits.json")
    g.add_argument("output", nargs="?")
    g.add_argument("-v", "--verbose", action="store_true")
    g.set_defaults(func=cmd_generate)
    d = sub.add_parser("digest", help="one digest of a long periodic message")
    d.add_argument("--alg", required=True)
    d.add_argument("--key", required=True)
    d.add_argument("--len", required=True, type=int)
    d.add_argument("--fill", type=int, help="byte value (default: the i %% 256 rule)")
    d.set_defaults(func=cmd_digest)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
