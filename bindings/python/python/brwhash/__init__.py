"""Fast almost-XOR-universal (AXU) hashes and one-time MACs, with a hashlib/hmac-like API.

Python bindings of the brwhash Rust library: Poly1305 (RFC 8439), polyHash, BRWHash,
t-BRWHash, d-2LHash, d-Hash, c-decBRWHash (modulo 2^127 - 1 or 2^130 - 5), Hash2L and
vecHash2L (GF(2^128), GF(2^256)); 65 algorithms in all (``algorithms()``).

These are NOT cryptographic hash functions like SHA-256: a digest is only meaningful under a
secret, uniformly random key, and a MAC key (tau || s) must never authenticate two different
messages.

One shot::

    >>> import brwhash
    >>> key = bytes(range(16))
    >>> brwhash.digest("4-Hash1271", key, b"some data").hex()  # doctest: +SKIP
    >>> len(brwhash.mac("4-Hash1271", bytes(range(32)), b"message"))
    16

Streaming, like hashlib::

    >>> h = brwhash.Hasher("4-decBRWHash1305", key)
    >>> h.update(b"some ")
    >>> h.update(b"data")
    >>> h.digest() == brwhash.digest("4-decBRWHash1305", key, b"some data")
    True

One-time MAC with constant-time verification::

    >>> m = brwhash.Mac("Hash2L128", bytes(range(32)))
    >>> t = m.tag(b"message")
    >>> m.verify(b"message", t), m.verify(b"massage", t)
    (True, False)

Inputs (data, keys, tags) are bytes-like objects: bytes, bytearray, memoryview or any
C-contiguous buffer; ``str`` is a TypeError. Errors (unknown algorithm or backend, wrong key
length, ...) are ValueError with the library's message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._brwhash import (
    AUTO,
    PARALLEL_THRESHOLD,
    RELEASE_GIL_AT,
    Hasher,
    Mac,
    __version__,
    algorithms,
    backends,
    canonical_name,
    default_backend,
    digest,
    digest_size,
    digest_vector,
    hexdigest,
    is_vector,
    key_size,
    mac,
    mac_key_size,
    mac_vector,
)

if TYPE_CHECKING:  # collections.abc.Buffer is Python 3.12+
    from typing_extensions import Buffer

__all__ = [
    "AUTO",
    "PARALLEL_THRESHOLD",
    "RELEASE_GIL_AT",
    "Hasher",
    "Mac",
    "__version__",
    "algorithms",
    "backends",
    "canonical_name",
    "default_backend",
    "digest",
    "digest_size",
    "digest_vector",
    "hexdigest",
    "is_vector",
    "key_size",
    "mac",
    "mac_key_size",
    "mac_vector",
    "new",
]


def new(
    alg: str, key: Buffer, data: Buffer | None = None, *, backend: str | None = None
) -> Hasher:
    """A new streaming ``Hasher`` for ``alg`` under ``key`` (like ``hashlib.new``)."""
    return Hasher(alg, key, data, backend=backend)
