"""Type stub of the native module brwhash._brwhash (re-exported by ``brwhash``)."""

from collections.abc import Iterable
from typing import Literal, final

from typing_extensions import Buffer

__version__: str
RELEASE_GIL_AT: int
"""Inputs of this many bytes or more are hashed with the GIL released."""
PARALLEL_THRESHOLD: int
"""With ``threads`` other than 1, messages of this many bytes or more are split between
threads; shorter ones are hashed on the calling thread."""
AUTO: int
"""``threads=AUTO`` (0): one thread per core."""

def digest(
    alg: str, key: Buffer, data: Buffer, *, backend: str | None = None, threads: int = 1
) -> bytes:
    """One-shot digest of ``data`` under the hash key ``key`` (``key_size(alg)`` bytes).

    For Poly1305 the key is r || s and the digest is its tag. For vecHash2L, ``data`` is the
    one-component vector ``(data)``. ``backend`` forces a backend (see ``backends()``).
    ``threads``: 1 hashes on the calling thread, ``AUTO`` (0) on all cores, n on n threads
    (from ``PARALLEL_THRESHOLD`` bytes on); the digest is the same for every count.
    Raises ValueError (unknown algorithm or backend, backend unavailable, wrong key length)
    or TypeError (str or non-buffer argument).
    """

def hexdigest(
    alg: str, key: Buffer, data: Buffer, *, backend: str | None = None, threads: int = 1
) -> str:
    """Like ``digest``, as lower-case hex."""

def digest_vector(
    alg: str,
    key: Buffer,
    components: Iterable[Buffer],
    *,
    backend: str | None = None,
    threads: int = 1,
) -> bytes:
    """One-shot vecHash2L128 / vecHash2L256 digest of a vector of 1 to 255 byte strings
    (``threads`` as for ``digest``)."""

def mac(
    alg: str, key: Buffer, data: Buffer, *, backend: str | None = None, threads: int = 1
) -> bytes:
    """One-shot one-time MAC tag of ``data`` under the key tau || s (``mac_key_size(alg)``
    bytes). ValueError for Poly1305, which has no MAC mode (use ``digest``). ``threads`` as
    for ``digest``."""

def mac_vector(
    alg: str,
    key: Buffer,
    components: Iterable[Buffer],
    *,
    backend: str | None = None,
    threads: int = 1,
) -> bytes:
    """One-shot one-time MAC tag of a vecHash2L vector of 1 to 255 byte strings
    (``threads`` as for ``digest``)."""

def algorithms() -> list[str]:
    """The canonical names of all 65 algorithms."""

def backends(alg: str | None = None) -> list[str]:
    """Backends this CPU can run; with ``alg``, those that can run ``alg`` here."""

def default_backend(alg: str) -> str:
    """The backend used when none is given (BRWHASH_BACKEND, else the fastest)."""

def canonical_name(alg: str) -> str:
    """The canonical name of ``alg`` (names match ignoring ASCII case)."""

def key_size(alg: str) -> int:
    """Bytes of the hash key of ``alg``."""

def digest_size(alg: str) -> int:
    """Bytes of the digest (and MAC tag) of ``alg``."""

def mac_key_size(alg: str) -> int | None:
    """Bytes of the MAC key tau || s, or None for Poly1305 (no MAC mode)."""

def is_vector(alg: str) -> bool:
    """Whether ``alg`` hashes a vector of components (vecHash2L)."""

@final
class Hasher:
    """Streaming hash, like hashlib's objects; in MAC mode when made by ``Mac.hasher()``."""

    def __new__(
        cls, alg: str, key: Buffer, data: Buffer | None = None, *, backend: str | None = None
    ) -> Hasher:
        """A new hasher for ``alg`` under ``key``, fed with ``data`` if given."""

    def update(self, data: Buffer) -> None:
        """Append ``data`` to the message (vecHash2L: to the current component)."""

    def next_component(self) -> None:
        """vecHash2L only: end the current component and start the next one."""

    def digest(self) -> bytes:
        """The digest (MAC mode: the tag) of everything so far; the hasher stays usable."""

    def hexdigest(self) -> str:
        """Like ``digest()``, as lower-case hex."""

    def verify(self, expected: Buffer) -> bool:
        """Whether ``expected`` equals ``digest()`` (constant time; False on wrong length)."""

    def copy(self) -> Hasher:
        """An independent copy (same key, same data so far)."""

    @property
    def name(self) -> str:
        """The canonical algorithm name."""

    @property
    def digest_size(self) -> int:
        """Bytes of ``digest()``."""

    @property
    def key_size(self) -> int:
        """Bytes of the key: ``key_size(alg)``, or ``mac_key_size(alg)`` in MAC mode."""

    @property
    def backend(self) -> str:
        """The backend computing the hash."""

    @property
    def mode(self) -> Literal["digest", "mac"]:
        """Either "digest", or "mac" for a hasher made by ``Mac.hasher()``."""

@final
class Mac:
    """One-time MAC key tau || s; a key must never authenticate two different messages."""

    def __new__(cls, alg: str, key: Buffer, *, backend: str | None = None) -> Mac:
        """A MAC key for ``alg`` from ``mac_key_size(alg)`` bytes."""

    def tag(self, data: Buffer, *, threads: int = 1) -> bytes:
        """The tag of ``data`` (``threads`` as for ``digest``)."""

    def hextag(self, data: Buffer, *, threads: int = 1) -> str:
        """Like ``tag``, as lower-case hex."""

    def verify(self, data: Buffer, tag: Buffer, *, threads: int = 1) -> bool:
        """Whether ``tag`` is the tag of ``data`` (constant time; False on wrong length)."""

    def tag_vector(self, components: Iterable[Buffer], *, threads: int = 1) -> bytes:
        """The tag of a vecHash2L vector (``threads`` as for ``digest``)."""

    def verify_vector(
        self, components: Iterable[Buffer], tag: Buffer, *, threads: int = 1
    ) -> bool:
        """Whether ``tag`` is the tag of the vecHash2L vector (constant time)."""

    def hasher(self, data: Buffer | None = None) -> Hasher:
        """A streaming ``Hasher`` in MAC mode sharing this key."""

    @property
    def name(self) -> str:
        """The canonical algorithm name."""

    @property
    def digest_size(self) -> int:
        """Bytes of a tag."""

    @property
    def key_size(self) -> int:
        """Bytes of the MAC key tau || s."""

    @property
    def backend(self) -> str:
        """The backend computing the hash."""
