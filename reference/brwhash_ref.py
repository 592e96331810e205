#!/usr/bin/env python3
"""brwhash_ref.py -- big-integer reference model of SPEC.md (brwhash).

Written directly from the normative specification (/work/shared/SPEC.md), sections 2-8.
Python 3.11 standard library only. Readability over speed: BRW uses the recursive
definition of SPEC section 4, binary fields use a plain carry-less product.

Library API:
    parse_name(name) -> canonical name            (ValueError if not a valid name)
    all_names()      -> list of the 65 canonical names
    key_bytes(name), digest_bytes(name), mac_key_bytes(name)
    digest(name, key, msg) -> bytes               (every name except vecHash2L*)
    digest_vector(name, key, components) -> bytes (vecHash2L128 / vecHash2L256 only)
    mac(name, key, msg_or_components) -> bytes    (SPEC 7; error for Poly1305)

Command line:
    brwhash_ref.py batch [--stream]   JSON lines on stdin -> JSON lines on stdout
    brwhash_ref.py digest --alg NAME --key HEX [--mac] FILE...
    brwhash_ref.py list
"""

import argparse
import json
import os
import re
import sys

MAX_MSG_BYTES = 1 << 61          # SPEC 8: N < 2^61 bytes, so L = 8N < 2^64
MAX_COMPONENTS = 255             # SPEC 5.10 / 8


def le(b):
    """SPEC 1: little-endian bytes -> integer."""
    return int.from_bytes(b, "little")


def chunks(M, B):
    """SPEC 3: cut M into blocks of B bytes (the last one may be short)."""
    return [M[i:i + B] for i in range(0, len(M), B)]


# ---------------------------------------------------------------------------
# SPEC 2 / 4 / 5.9: fields.  Each field offers add, mul, power.
# ---------------------------------------------------------------------------

class PrimeField:
    """SPEC 2: F_p, p = 2^127-1 or 2^130-5, with the block/key/digest parameters."""

    def __init__(self, suffix, p, B, k, mu):
        self.suffix, self.p, self.B, self.k, self.mu = suffix, p, B, k, mu

    def add(self, a, b):
        return (a + b) % self.p

    def mul(self, a, b):
        return a * b % self.p

    def power(self, a, e):
        return pow(a, e, self.p)


F1271 = PrimeField("1271", (1 << 127) - 1, B=15, k=126, mu=126)
F1305 = PrimeField("1305", (1 << 130) - 5, B=16, k=128, mu=128)
PRIMES = {"1271": F1271, "1305": F1305}


def clmul(a, b):
    """SPEC 5.9: carry-less (GF(2)[x]) product of two integers, 4 bits of b at a time."""
    table = [0] * 16                  # table[i] = a * i as GF(2) polynomials
    for i in range(1, 16):
        table[i] = (table[i >> 1] << 1) ^ (a if i & 1 else 0)
    r, shift = 0, 0
    while b:
        r ^= table[b & 15] << shift
        b >>= 4
        shift += 4
    return r


class BinaryField:
    """SPEC 5.9: GF(2^n) = GF(2)[x]/(x^n + sum x^e); bit i of le(bytes) is the coeff of x^i."""

    def __init__(self, n, low_exponents):
        self.n, self.B = n, n // 8
        self.mask = (1 << n) - 1
        self.low = low_exponents      # x^n = sum of x^e for e in low (mod the field poly)
        self._powers = {}             # cache (a, e) -> a^e; BRW asks for x^K repeatedly

    def add(self, a, b):
        return a ^ b

    def reduce(self, r):
        while r >> self.n:
            hi, r = r >> self.n, r & self.mask
            for e in self.low:
                r ^= hi << e
        return r

    def mul(self, a, b):
        return self.reduce(clmul(a, b))

    def power(self, a, e):
        key = (a, e)
        if key not in self._powers:
            if len(self._powers) > 100000:
                self._powers.clear()
            result, base = 1, a
            while e:
                if e & 1:
                    result = self.mul(result, base)
                base = self.mul(base, base)
                e >>= 1
            self._powers[key] = result
        return self._powers[key]


GF128 = BinaryField(128, (7, 2, 1, 0))      # x^128 + x^7 + x^2 + x + 1
GF256 = BinaryField(256, (10, 5, 2, 0))     # x^256 + x^10 + x^5 + x^2 + 1
BINARY = {"128": GF128, "256": GF256}


# ---------------------------------------------------------------------------
# SPEC 4: Poly (Horner) and BRW polynomials, generic over the field F.
# ---------------------------------------------------------------------------

def poly(F, x, Ms):
    """SPEC 4: Poly(x; M_1..M_l) = M_1 x^(l-1) + ... + M_l (Horner)."""
    acc = 0
    for Mi in Ms:
        acc = F.add(F.mul(acc, x), Mi)
    return acc


def brw(F, x, Ms):
    """SPEC 4: recursive Bernstein-Rabin-Winograd polynomial (recursion depth ~ lg l)."""
    l = len(Ms)
    if l == 0:
        return 0
    if l == 1:
        return Ms[0]
    if l == 2:
        return F.add(F.mul(Ms[0], x), Ms[1])
    if l == 3:
        return F.add(F.mul(F.add(x, Ms[0]), F.add(F.mul(x, x), Ms[1])), Ms[2])
    K = 1 << (l.bit_length() - 1)     # largest power of two <= l
    return F.add(F.mul(brw(F, x, Ms[:K - 1]), F.add(F.power(x, K), Ms[K - 1])),
                 brw(F, x, Ms[K:]))


# ---------------------------------------------------------------------------
# SPEC 2 / 3: prime-field key, digest, padding.
# ---------------------------------------------------------------------------

def _check_msg(M):
    M = bytes(M)
    if len(M) >= MAX_MSG_BYTES:       # SPEC 8
        raise ValueError("message too long (N must be < 2^61 bytes)")
    return M


def _check_key(K, n, what="key"):
    K = bytes(K)
    if len(K) != n:
        raise ValueError(f"wrong {what} length: {len(K)} bytes, expected {n}")
    return K


def tau(F, K):
    """SPEC 2: hash key tau = le(K) mod 2^k (1271 clears the two top bits of K[15])."""
    return le(_check_key(K, 16)) % (1 << F.k)


def out(F, v):
    """SPEC 2 / 5.1: full reduction mod p, then truncation to mu bits, 16 bytes LE."""
    return ((v % F.p) % (1 << F.mu)).to_bytes(16, "little")


def pad1(M, B):
    """SPEC 3: pad1 -- each block gets a marker bit just above its last byte."""
    return [le(c) + (1 << (8 * len(c))) for c in chunks(M, B)]


def pad2(M, B):
    """SPEC 3: pad2 -- no marker bit; the caller appends L = 8*len(M)."""
    return [le(c) for c in chunks(M, B)]


# ---------------------------------------------------------------------------
# SPEC 5.2 - 5.8: prime-field functions.  Each takes (F, K, M) (plus its parameter).
# ---------------------------------------------------------------------------

def poly1305(K, M):
    """SPEC 5.2: Poly1305 (RFC 8439), key r || s of 32 bytes."""
    K, M = _check_key(K, 32), _check_msg(M)
    F = F1305
    r = le(K[0:16]) & 0x0ffffffc0ffffffc0ffffffc0fffffff          # clamp
    s = le(K[16:32])
    h = r * poly(F, r, pad1(M, 16)) % F.p
    return ((h + s) % (1 << 128)).to_bytes(16, "little")


def poly_hash(F, K, M):
    """SPEC 5.3: polyHash = x * Poly(x; pad1(M))."""
    x, M = tau(F, K), _check_msg(M)
    return out(F, x * poly(F, x, pad1(M, F.B)))


def brw_hash(F, K, M):
    """SPEC 5.4: BRWHash = x * (x * BRW(x; pad2(M)) + L)."""
    x, M = tau(F, K), _check_msg(M)
    Ms, L = pad2(M, F.B), 8 * len(M)
    return out(F, x * (x * brw(F, x, Ms) + L))


def t_brw_hash(t, F, K, M):
    """SPEC 5.5: t-BRWHash -- BRW over the longest prefix of a multiple of 2^t blocks."""
    x, M = tau(F, K), _check_msg(M)
    Ms, L = pad2(M, F.B), 8 * len(M)
    l = len(Ms)
    lp = l - l % (1 << t)
    return out(F, x * poly(F, x, [brw(F, x, Ms[:lp])] + Ms[lp:] + [L]))


def d_2l_hash(d, F, K, M):
    """SPEC 5.6: d-2LHash -- BRW on super-blocks of 2^d-1 blocks, Horner in x^(2^d)."""
    x, M = tau(F, K), _check_msg(M)
    Ms, L = pad2(M, F.B), 8 * len(M)
    l = len(Ms)
    delta = (1 << d) - 1
    Nsb = l // delta
    U = [brw(F, x, Ms[i * delta:(i + 1) * delta]) for i in range(Nsb)]
    V = poly(F, F.power(x, 1 << d), U)
    return out(F, x * poly(F, x, [V] + Ms[Nsb * delta:] + [L]))


def d_hash(d, F, K, M):
    """SPEC 5.7: d-Hash -- polyHash below 2^d blocks, d-2LHash from 2^d blocks on."""
    M = _check_msg(M)
    l = -(-len(M) // F.B)
    return poly_hash(F, K, M) if l < (1 << d) else d_2l_hash(d, F, K, M)


def c_dec_brw_hash(c, F, K, M):
    """SPEC 5.8: c-decBRWHash -- c interleaved BRW streams combined by Horner in x^D."""
    x, M = tau(F, K), _check_msg(M)
    Ms, L = pad2(M, F.B), 8 * len(M)
    l = len(Ms)
    q = -(-l // c)
    Ms = Ms + [0] * (c * q - l)
    Q = [brw(F, x, Ms[j::c]) for j in range(c)]
    D = 1 if L == 0 else 1 << q.bit_length()       # smallest power of two > q
    Qc = poly(F, F.power(x, D), Q)
    return out(F, x * (x * Qc + L))


# ---------------------------------------------------------------------------
# SPEC 5.9 / 5.10: Hash2L and vecHash2L over GF(2^128) / GF(2^256).
# ---------------------------------------------------------------------------

ETA = 31                                   # super-block size, fixed


def sb_digests(G, x, M):
    """SPEC 5.9: BRW value of each super-block of 31 zero-padded blocks (last may be short)."""
    B = G.B
    blocks = [0] if len(M) == 0 else [le(c) for c in chunks(M + bytes(-len(M) % B), B)]
    return [brw(G, x, blocks[i:i + ETA]) for i in range(0, len(blocks), ETA)]


def hash2l(G, K, M):
    """SPEC 5.9: Hash2L = x^2 * Horner_{x^32}(super-block digests) + x * L."""
    x, M = le(_check_key(K, G.B)), _check_msg(M)
    x32, acc = G.power(x, 32), 0
    for Dj in sb_digests(G, x, M):
        acc = G.add(G.mul(acc, x32), Dj)
    L = 8 * len(M)
    return G.add(G.mul(G.mul(x, x), acc), G.mul(x, L)).to_bytes(G.B, "little")


def vechash2l(G, K, X):
    """SPEC 5.10: vecHash2L over a vector of 1..255 byte strings; k in the last length block."""
    x = le(_check_key(K, G.B))
    X = _check_components(X)
    x32, k, acc = G.power(x, 32), len(X), 0
    for i, Xi in enumerate(X, 1):
        for Dj in sb_digests(G, x, Xi):
            acc = G.add(G.mul(acc, x32), Dj)
        Li = 8 * len(Xi)
        if i == k:
            Li ^= k << (8 * G.B - 8)       # k in the top byte
        acc = G.add(G.mul(x, acc), Li)
    return G.mul(x, acc).to_bytes(G.B, "little")


def _check_components(X):
    if isinstance(X, (bytes, bytearray, memoryview, str)):
        raise ValueError("vecHash2L takes a list of byte strings (components), not one message")
    X = [_check_msg(Xi) for Xi in X]
    if not 1 <= len(X) <= MAX_COMPONENTS:
        raise ValueError(f"vecHash2L needs 1..255 components, got {len(X)}")
    return X


# ---------------------------------------------------------------------------
# SPEC 5.1 / 8: canonical names and parsing.
# ---------------------------------------------------------------------------

# name -> (function(K, M), key bytes, digest bytes, takes a vector?)
_ALGS = {}


def _register():
    def add(name, fn, key_len, dig_len, vector=False):
        _ALGS[name] = (fn, key_len, dig_len, vector)

    add("Poly1305", poly1305, 32, 16)
    for s, F in PRIMES.items():
        add(f"polyHash{s}", lambda K, M, F=F: poly_hash(F, K, M), 16, 16)
    for s, F in PRIMES.items():
        add(f"BRWHash{s}", lambda K, M, F=F: brw_hash(F, K, M), 16, 16)
    # The parameterised families: name pattern, parameter range, function(param, F, K, M).
    families = [
        ("{n}-BRWHash{s}", range(2, 6), t_brw_hash),
        ("{n}-2LHash{s}", range(2, 6), d_2l_hash),
        ("{n}-Hash{s}", range(2, 6), d_hash),
        ("{n}-decBRWHash{s}", range(1, 17), c_dec_brw_hash),
    ]
    for pattern, params, fn in families:
        for s, F in PRIMES.items():
            for n in params:
                add(pattern.format(n=n, s=s), lambda K, M, F=F, n=n, fn=fn: fn(n, F, K, M), 16, 16)
    for s, G in BINARY.items():
        add(f"Hash2L{s}", lambda K, M, G=G: hash2l(G, K, M), G.B, G.B)
    for s, G in BINARY.items():
        add(f"vecHash2L{s}", lambda K, X, G=G: vechash2l(G, K, X), G.B, G.B, vector=True)


_register()
_BY_LOWER = {name.lower(): name for name in _ALGS}
assert len(_ALGS) == 65


def all_names():
    """SPEC 5.1: the 65 canonical names, grouped by family, 1271 before 1305."""
    return list(_ALGS)


def parse_name(name):
    """SPEC 8: ASCII case-insensitive, otherwise exact; returns the canonical spelling."""
    if not isinstance(name, str):
        raise ValueError("algorithm name must be a string")
    if name.isascii():
        canonical = _BY_LOWER.get(name.lower())
        if canonical is not None:
            return canonical
        m = re.fullmatch(r"([0-9]+)-(brwhash|2lhash|hash|decbrwhash)(1271|1305)", name.lower())
        if m:
            n, fam = m.group(1), m.group(2)
            if n.startswith("0") and n != "0":
                raise ValueError(f"bad algorithm name {name!r}: leading zeros are not allowed")
            rng = (1, 16) if fam == "decbrwhash" else (2, 5)
            raise ValueError(f"bad algorithm name {name!r}: parameter {n} outside "
                             f"{rng[0]}..{rng[1]}")
    raise ValueError(f"unknown algorithm name {name!r}")


def is_vector(name):
    return _ALGS[parse_name(name)][3]


def key_bytes(name):
    return _ALGS[parse_name(name)][1]


def digest_bytes(name):
    return _ALGS[parse_name(name)][2]


def mac_key_bytes(name):
    """SPEC 7: tau || s; None for Poly1305 (no MAC mode)."""
    name = parse_name(name)
    return None if name == "Poly1305" else key_bytes(name) + digest_bytes(name)


# ---------------------------------------------------------------------------
# Public API: digest, digest_vector (SPEC 5), mac (SPEC 7).
# ---------------------------------------------------------------------------

def digest(name, key, msg):
    """SPEC 5: plain output of a (non-vector) function; for Poly1305 its tag."""
    name = parse_name(name)
    fn, key_len, _, vector = _ALGS[name]
    if vector:
        raise ValueError(f"{name} takes a vector of components: use digest_vector")
    return fn(_check_key(key, key_len), msg)


def digest_vector(name, key, components):
    """SPEC 5.10: vecHash2L128 / vecHash2L256 on 1..255 components."""
    name = parse_name(name)
    fn, key_len, _, vector = _ALGS[name]
    if not vector:
        raise ValueError(f"{name} takes one message, not a vector: use digest")
    return fn(_check_key(key, key_len), components)


def mac(name, key, msg_or_components):
    """SPEC 7: one-time-key MAC with key tau || s."""
    name = parse_name(name)
    if name == "Poly1305":
        raise ValueError("Poly1305 has no MAC mode (it already is a MAC with key r || s)")
    fn, key_len, dig_len, vector = _ALGS[name]
    key = _check_key(key, key_len + dig_len, "MAC key")
    h = digest_vector(name, key[:key_len], msg_or_components) if vector \
        else digest(name, key[:key_len], msg_or_components)
    s = key[key_len:]
    if name.startswith(("Hash2L", "vecHash2L")):                 # binary fields: XOR
        return bytes(a ^ b for a, b in zip(h, s))
    mu = PRIMES[name[-4:]].mu                                    # prime fields: add mod 2^mu
    return ((le(h) + le(s) % (1 << mu)) % (1 << mu)).to_bytes(16, "little")


def compute(name, mode, key, msg_or_components):
    """Dispatch used by the CLI: mode is "digest" or "mac"."""
    if mode == "digest":
        if is_vector(name):
            return digest_vector(name, key, msg_or_components)
        return digest(name, key, msg_or_components)
    if mode == "mac":
        return mac(name, key, msg_or_components)
    raise ValueError(f"unknown mode {mode!r} (expected \"digest\" or \"mac\")")


# ---------------------------------------------------------------------------
# Command-line interface.
# ---------------------------------------------------------------------------

def _unhex(s, what):
    if not isinstance(s, str):
        raise ValueError(f"{what} must be a hex string")
    try:
        return bytes.fromhex(s)
    except ValueError:
        raise ValueError(f"{what} is not valid hex") from None


def batch_one(line):
    """One request line -> one response dict ({"output": hex} or {"error": message})."""
    try:
        try:
            req = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"invalid JSON: {e}") from None
        if not isinstance(req, dict):
            raise ValueError("request must be a JSON object")
        name = req.get("alg")
        mode = req.get("mode", "digest")
        key = _unhex(req.get("key"), "key")
        if ("msg" in req) == ("components" in req):
            raise ValueError('request needs exactly one of "msg" and "components"')
        if "msg" in req:
            data = _unhex(req["msg"], "msg")
            if is_vector(name):
                raise ValueError(f"{parse_name(name)} takes \"components\", not \"msg\"")
        else:
            comps = req["components"]
            if not isinstance(comps, list):
                raise ValueError('"components" must be a list of hex strings')
            if not is_vector(name):
                raise ValueError(f"{parse_name(name)} takes \"msg\", not \"components\"")
            data = [_unhex(c, "component") for c in comps]
        return {"output": compute(name, mode, key, data).hex()}
    except Exception as e:                       # keep the protocol in step, whatever happens
        return {"error": str(e) or type(e).__name__}


def cmd_batch(args):
    if args.stream:                              # request/response, flush after every line
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(batch_one(line)), flush=True)
        return 0
    lines = sys.stdin.read().splitlines()        # read everything first: no pipe deadlock
    out_lines = [json.dumps(batch_one(line)) for line in lines if line.strip()]
    sys.stdout.write("".join(l + "\n" for l in out_lines))
    return 0


def cmd_digest(args):
    name = parse_name(args.alg)
    key = _unhex(args.key, "key")
    mode = "mac" if args.mac else "digest"

    def read(path):
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()

    if is_vector(name):                          # all files together are the components
        print(f"{compute(name, mode, key, [read(p) for p in args.files]).hex()}  "
              f"{' '.join(args.files)}")
    else:
        for p in args.files:
            print(f"{compute(name, mode, key, read(p)).hex()}  {p}")
    return 0


def cmd_list(args):
    print(f"{'name':<22} {'key':>4} {'digest':>6} {'mac-key':>7}")
    for name in all_names():
        mk = mac_key_bytes(name)
        print(f"{name:<22} {key_bytes(name):>4} {digest_bytes(name):>6} "
              f"{'-' if mk is None else mk:>7}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="brwhash big-integer reference (SPEC.md)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("batch", help="JSON lines on stdin -> JSON lines on stdout")
    b.add_argument("--stream", action="store_true",
                   help="answer each line as it arrives (default: read all of stdin first)")
    b.set_defaults(func=cmd_batch)
    d = sub.add_parser("digest", help="hash files; vecHash2L takes all files as components")
    d.add_argument("--alg", required=True)
    d.add_argument("--key", required=True, help="key as hex (tau || s with --mac)")
    d.add_argument("--mac", action="store_true", help="MAC mode (SPEC 7)")
    d.add_argument("files", nargs="+", metavar="FILE", help="input file, '-' for stdin")
    d.set_defaults(func=cmd_digest)
    sub.add_parser("list", help="print names with key/digest sizes").set_defaults(func=cmd_list)
    args = ap.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:                      # e.g. "list | head": exit quietly
        sys.stdout = open(os.devnull, "w")
        return 0
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
