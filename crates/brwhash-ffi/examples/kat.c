/*
 * Known-answer test of the C interface: reads vectors from stdin, one per line, and checks
 * every entry point on each. tests/c.rs converts tests/vectors/{kat,extra,
 * poly1305_rfc8439}.json to these lines, builds this program against the static and the
 * shared library, and runs it.
 *
 * Line format (fields separated by one space; hex in memory order, "-" for empty):
 *   <algorithm> <digest|mac> <key hex> <output hex> L <msg_len> <fill>
 *   <algorithm> <digest|mac> <key hex> <output hex> V <fill> <count> <len_1> ... <len_count>
 *   <algorithm> <digest|mac> <key hex> <output hex> M <message hex>
 * where a message of length n is bytes(i % 256 for i in range(n)) when fill is -1, else n
 * copies of the byte fill (the message rule of the JSON files), and V gives a vecHash2L
 * vector of count such components.
 *
 * Per vector: one-shot (hash / hash_vector / mac / mac_vector, on the default and on every
 * backend that can run it), streaming with several split schedules and empty updates,
 * finalize mid-stream (non-consuming) against the one-shot of the prefix, clone, reset,
 * verification (the output, a flipped bit, a truncated tag). Once: the error codes.
 * Prints "vectors checked: N" and exits non-zero on any mismatch.
 */
#include <brwhash.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 256

static long failures = 0;
static long line_no = 0;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            failures++;                                                         \
            if (failures <= 50) {                                               \
                fprintf(stderr, "FAIL line %ld (%s:%d): ", line_no, __FILE__,   \
                        __LINE__);                                              \
                fprintf(stderr, __VA_ARGS__);                                   \
                fputc('\n', stderr);                                            \
            }                                                                   \
        }                                                                       \
    } while (0)

/* The call `rc` is evaluated once. */
#define CHECK_RC(rc, want, what) check_rc((rc), (want), (what), __LINE__)

static void check_rc(int got, int want, const char *what, int src_line) {
    if (got == want) return;
    failures++;
    if (failures <= 50)
        fprintf(stderr, "FAIL line %ld (%s:%d): %s: got %d (%s), want %d (%s)\n", line_no,
                __FILE__, src_line, what, got, brwhash_strerror(got), want,
                brwhash_strerror(want));
}

struct vec {
    char alg[64];
    int mac;
    uint8_t key[128];
    size_t key_len;
    uint8_t want[64];
    size_t want_len;
    int vector;                      /* V line: a vecHash2L vector */
    size_t count;                    /* components (V) */
    size_t lens[MAX_PARTS];          /* component lengths (V) */
    const uint8_t *parts[MAX_PARTS]; /* component pointers into msg (V) */
    uint8_t *msg;                    /* the message, or the components back to back */
    size_t msg_len;
};

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Reads one line of any length; NULL at end of input. */
static char *read_line(FILE *f) {
    size_t cap = 256, len = 0;
    char *buf = xmalloc(cap);
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (len + 1 >= cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
            buf = bigger;
        }
        buf[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex to bytes ("-" is empty); the number of bytes, or -1 on bad input or overflow. */
static long unhex(const char *s, uint8_t *out, size_t cap) {
    size_t n = 0;
    if (strcmp(s, "-") == 0) return 0;
    for (; s[0] && s[1]; s += 2) {
        int hi = hexval(s[0]), lo = hexval(s[1]);
        if (hi < 0 || lo < 0 || n >= cap) return -1;
        out[n++] = (uint8_t)(hi << 4 | lo);
    }
    return *s ? -1 : (long)n;
}

static void fill_message(uint8_t *p, size_t n, long fill) {
    size_t i;
    for (i = 0; i < n; i++) p[i] = (uint8_t)(fill < 0 ? (long)(i % 256) : fill);
}

/* Parses one line into v (v->msg allocated); 0 on success. */
static int parse(char *line, struct vec *v) {
    char *tok[MAX_PARTS + 8];
    size_t n = 0, i;
    long k;
    char *s = strtok(line, " ");
    while (s && n < sizeof tok / sizeof *tok) {
        tok[n++] = s;
        s = strtok(NULL, " ");
    }
    memset(v, 0, sizeof *v);
    if (n < 6 || strlen(tok[0]) >= sizeof v->alg) return -1;
    strcpy(v->alg, tok[0]);
    if (strcmp(tok[1], "mac") == 0) v->mac = 1;
    else if (strcmp(tok[1], "digest") != 0) return -1;
    if ((k = unhex(tok[2], v->key, sizeof v->key)) < 0) return -1;
    v->key_len = (size_t)k;
    if ((k = unhex(tok[3], v->want, sizeof v->want)) <= 0) return -1;
    v->want_len = (size_t)k;
    if (strcmp(tok[4], "L") == 0 && n == 7) {
        v->msg_len = strtoul(tok[5], NULL, 10);
        v->msg = xmalloc(v->msg_len);
        fill_message(v->msg, v->msg_len, strtol(tok[6], NULL, 10));
    } else if (strcmp(tok[4], "M") == 0 && n == 6) {
        v->msg = xmalloc(strlen(tok[5]) / 2);
        if ((k = unhex(tok[5], v->msg, strlen(tok[5]) / 2)) < 0) return -1;
        v->msg_len = (size_t)k;
    } else if (strcmp(tok[4], "V") == 0 && n >= 7) {
        long fill = strtol(tok[5], NULL, 10);
        size_t off = 0;
        v->vector = 1;
        v->count = strtoul(tok[6], NULL, 10);
        if (v->count < 1 || v->count > 255 || n != 7 + v->count) return -1;
        for (i = 0; i < v->count; i++) {
            v->lens[i] = strtoul(tok[7 + i], NULL, 10);
            v->msg_len += v->lens[i];
        }
        v->msg = xmalloc(v->msg_len);
        for (i = 0; i < v->count; i++) {
            fill_message(v->msg + off, v->lens[i], fill);
            v->parts[i] = v->msg + off;
            off += v->lens[i];
        }
    } else {
        return -1;
    }
    return 0;
}

/* One-shot output of v on `backend` (NULL: default), into out. */
static int one_shot(const struct vec *v, const char *backend, uint8_t *out, size_t out_len) {
    if (v->vector) {
        if (v->mac)
            return brwhash_mac_vector(v->alg, v->key, v->key_len, v->parts, v->lens, v->count,
                                      out, out_len);
        return brwhash_hash_vector(v->alg, v->key, v->key_len, v->parts, v->lens, v->count,
                                   out, out_len);
    }
    if (v->mac) return brwhash_mac(v->alg, v->key, v->key_len, v->msg, v->msg_len, out, out_len);
    return brwhash_hash_with_backend(v->alg, backend, v->key, v->key_len, v->msg, v->msg_len,
                                     out, out_len);
}

static brwhash_hasher *new_hasher(const struct vec *v, const char *backend) {
    brwhash_hasher *h = (brwhash_hasher *)1; /* must be overwritten */
    int rc = v->mac ? brwhash_hasher_new_mac_with_backend(v->alg, backend, v->key, v->key_len, &h)
                    : brwhash_hasher_new_with_backend(v->alg, backend, v->key, v->key_len, &h);
    CHECK_RC(rc, BRWHASH_OK, "hasher_new");
    if (rc != BRWHASH_OK) {
        CHECK(h == NULL, "failed hasher_new leaves *out non-NULL");
        return NULL;
    }
    CHECK(h != NULL, "hasher_new gave NULL");
    return h;
}

/* Feeds `len` bytes in chunks of `chunk` bytes (0: one update), with empty updates. */
static void feed(brwhash_hasher *h, const uint8_t *p, size_t len, size_t chunk) {
    size_t off = 0;
    CHECK_RC(brwhash_hasher_update(h, NULL, 0), BRWHASH_OK, "update(NULL, 0)");
    if (chunk == 0) chunk = len ? len : 1;
    while (off < len) {
        size_t n = len - off < chunk ? len - off : chunk;
        CHECK_RC(brwhash_hasher_update(h, p + off, n), BRWHASH_OK, "update");
        off += n;
    }
    CHECK_RC(brwhash_hasher_update(h, p + len, 0), BRWHASH_OK, "update(p, 0)");
}

/* Feeds the whole input of v (every component, next_component between them). */
static void feed_all(const struct vec *v, brwhash_hasher *h, size_t chunk) {
    size_t i;
    if (!v->vector) {
        feed(h, v->msg, v->msg_len, chunk);
        return;
    }
    for (i = 0; i < v->count; i++) {
        if (i > 0) CHECK_RC(brwhash_hasher_next_component(h), BRWHASH_OK, "next_component");
        feed(h, v->parts[i], v->lens[i], chunk);
    }
}

static void check_output(const struct vec *v, const brwhash_hasher *h, const char *what) {
    uint8_t out[64];
    memset(out, 0xa5, sizeof out);
    CHECK_RC(brwhash_hasher_finalize(h, out, sizeof out), BRWHASH_OK, what);
    CHECK(memcmp(out, v->want, v->want_len) == 0, "%s %s: streamed output differs", v->alg, what);
    CHECK(out[v->want_len] == 0xa5, "%s: finalize wrote past the digest", what);
}

/* Two-part feed split at `at` (non-vector inputs), with finalize and clone at the split. */
static void split_check(const struct vec *v, brwhash_hasher *fresh, size_t at) {
    brwhash_hasher *a = NULL, *b = NULL;
    uint8_t mid[64], prefix[64];
    CHECK_RC(brwhash_hasher_clone(fresh, &a), BRWHASH_OK, "clone");
    if (!a) return;
    feed(a, v->msg, at, 0);
    /* finalize does not consume: mid-stream output = one-shot output of the prefix. */
    CHECK_RC(brwhash_hasher_finalize(a, mid, sizeof mid), BRWHASH_OK, "finalize mid");
    if (v->mac)
        CHECK_RC(brwhash_mac(v->alg, v->key, v->key_len, v->msg, at, prefix, sizeof prefix),
                 BRWHASH_OK, "mac prefix");
    else
        CHECK_RC(brwhash_hash(v->alg, v->key, v->key_len, v->msg, at, prefix, sizeof prefix),
                 BRWHASH_OK, "hash prefix");
    CHECK(memcmp(mid, prefix, v->want_len) == 0, "%s: mid-stream finalize at %zu", v->alg, at);
    CHECK_RC(brwhash_hasher_clone(a, &b), BRWHASH_OK, "clone mid");
    if (b) {
        feed(b, v->msg + at, v->msg_len - at, 0);
        check_output(v, b, "clone at split");
        brwhash_hasher_free(b);
    }
    feed(a, v->msg + at, v->msg_len - at, 0);
    check_output(v, a, "split");
    brwhash_hasher_free(a);
}

static void verify_checks(const struct vec *v, const brwhash_hasher *h) {
    uint8_t bad[64];
    memcpy(bad, v->want, v->want_len);
    bad[v->want_len / 2] ^= 0x10;
    CHECK_RC(brwhash_hasher_verify(h, v->want, v->want_len), BRWHASH_OK, "hasher_verify");
    CHECK_RC(brwhash_hasher_verify(h, bad, v->want_len), BRWHASH_ERR_VERIFY,
             "hasher_verify flipped");
    CHECK_RC(brwhash_hasher_verify(h, v->want, v->want_len - 1), BRWHASH_ERR_VERIFY,
             "hasher_verify short");
    if (!v->mac) return;
    if (v->vector) {
        CHECK_RC(brwhash_mac_verify_vector(v->alg, v->key, v->key_len, v->parts, v->lens, v->count,
                                           v->want, v->want_len),
                 BRWHASH_OK, "mac_verify_vector");
        CHECK_RC(brwhash_mac_verify_vector(v->alg, v->key, v->key_len, v->parts, v->lens, v->count,
                                           bad, v->want_len),
                 BRWHASH_ERR_VERIFY, "mac_verify_vector flipped");
    } else {
        CHECK_RC(brwhash_mac_verify(v->alg, v->key, v->key_len, v->msg, v->msg_len, v->want,
                                    v->want_len),
                 BRWHASH_OK, "mac_verify");
        CHECK_RC(brwhash_mac_verify(v->alg, v->key, v->key_len, v->msg, v->msg_len, bad,
                                    v->want_len),
                 BRWHASH_ERR_VERIFY, "mac_verify flipped");
        CHECK_RC(brwhash_mac_verify(v->alg, v->key, v->key_len, v->msg, v->msg_len, v->want,
                                    v->want_len + 1),
                 BRWHASH_ERR_VERIFY, "mac_verify long");
    }
}

static long backend_runs = 0;

static void check_vector(const struct vec *v) {
    static const size_t chunks[] = {0, 1, 7, 16, 100, 4099};
    uint8_t out[64];
    size_t i, digest_len = 0;
    brwhash_hasher *fresh, *h;

    CHECK_RC(brwhash_digest_len(v->alg, &digest_len), BRWHASH_OK, "digest_len");
    CHECK(digest_len == v->want_len, "%s: digest_len %zu, vector has %zu", v->alg, digest_len,
          v->want_len);

    /* One shot. */
    memset(out, 0xa5, sizeof out);
    CHECK_RC(one_shot(v, NULL, out, v->want_len), BRWHASH_OK, "one-shot");
    CHECK(memcmp(out, v->want, v->want_len) == 0, "%s %s: one-shot output differs", v->alg,
          v->mac ? "mac" : "digest");
    CHECK(out[v->want_len] == 0xa5, "one-shot wrote past the digest");
    CHECK_RC(one_shot(v, NULL, out, v->want_len - 1), BRWHASH_ERR_BUFFER_TOO_SMALL,
             "one-shot short buffer");

    /* Streaming. */
    fresh = new_hasher(v, NULL);
    if (!fresh) return;
    CHECK(strcmp(brwhash_hasher_algorithm(fresh), v->alg) == 0, "hasher_algorithm %s",
          brwhash_hasher_algorithm(fresh));
    for (i = 0; i < sizeof chunks / sizeof *chunks; i++) {
        if (chunks[i] == 1 && v->msg_len > 2048) continue;
        CHECK_RC(brwhash_hasher_clone(fresh, &h), BRWHASH_OK, "clone fresh");
        if (!h) continue;
        feed_all(v, h, chunks[i]);
        check_output(v, h, "chunked");
        if (i == 0) {
            verify_checks(v, h);
            /* reset: the same key, a new input. */
            CHECK_RC(brwhash_hasher_reset(h), BRWHASH_OK, "reset");
            feed_all(v, h, 33);
            check_output(v, h, "after reset");
        }
        brwhash_hasher_free(h);
    }
    if (!v->vector) {
        size_t splits[] = {1, 15, 16, 17, v->msg_len / 3, v->msg_len / 2, v->msg_len - 1};
        for (i = 0; i < sizeof splits / sizeof *splits; i++)
            if (splits[i] > 0 && splits[i] < v->msg_len) split_check(v, fresh, splits[i]);
    }
    brwhash_hasher_free(fresh);

    /* Every backend that can run this algorithm here. */
    for (i = 0; i < brwhash_backend_count(); i++) {
        const char *b = brwhash_backend_name(i);
        int rc = brwhash_backend_check(v->alg, b);
        if (rc == BRWHASH_ERR_BACKEND_UNAVAILABLE) {
            CHECK_RC(one_shot(v, b, out, sizeof out),
                     v->vector || v->mac ? BRWHASH_OK : BRWHASH_ERR_BACKEND_UNAVAILABLE,
                     "hash_with_backend unavailable");
            continue;
        }
        CHECK_RC(rc, BRWHASH_OK, "backend_check");
        backend_runs++;
        memset(out, 0, sizeof out);
        CHECK_RC(one_shot(v, b, out, sizeof out), BRWHASH_OK, "one-shot on backend");
        CHECK(memcmp(out, v->want, v->want_len) == 0, "%s on %s: one-shot differs", v->alg, b);
        h = new_hasher(v, b);
        if (!h) continue;
        CHECK(strcmp(brwhash_hasher_backend(h), b) == 0, "hasher_backend %s", b);
        feed_all(v, h, 1000);
        check_output(v, h, b);
        brwhash_hasher_free(h);
    }
}

/* The error codes, once. */
static void check_errors(void) {
    static const uint8_t key[64] = {1, 2, 3};
    static const uint8_t msg[4] = {'a', 'b', 'c', 'd'};
    uint8_t out[64];
    size_t n = 0, i;
    int flag = -1, rc;
    brwhash_hasher *h = NULL, *c = NULL;
    const uint8_t *parts[256];
    size_t lens[256];

    line_no = 0;
    CHECK(brwhash_algorithm_count() == 65, "algorithm_count %zu", brwhash_algorithm_count());
    for (i = 0; i < brwhash_algorithm_count(); i++) {
        const char *name = brwhash_algorithm_name(i);
        CHECK(name != NULL, "algorithm_name(%zu) NULL", i);
        if (name) CHECK_RC(brwhash_key_len(name, &n), BRWHASH_OK, "key_len of a listed name");
    }
    CHECK(brwhash_algorithm_name(65) == NULL, "algorithm_name(65) not NULL");
    CHECK(strcmp(brwhash_algorithm_name(0), "Poly1305") == 0, "first name");
    CHECK(brwhash_backend_count() == 7 && brwhash_backend_name(7) == NULL, "backend list");
    CHECK(strcmp(brwhash_version(), "") != 0, "version");
    for (rc = 0; rc >= -13; rc--)
        CHECK(strcmp(brwhash_strerror(rc), "unknown error code") != 0, "strerror(%d)", rc);
    CHECK(strcmp(brwhash_strerror(-99), "unknown error code") == 0, "strerror(-99)");
    CHECK(strcmp(brwhash_strerror(1), "unknown error code") == 0, "strerror(1)");

    /* Sizes, names: case-insensitive, unknown, out of range, NULL. */
    CHECK_RC(brwhash_key_len("POLY1305", &n), BRWHASH_OK, "key_len POLY1305");
    CHECK(n == 32, "Poly1305 key_len %zu", n);
    CHECK_RC(brwhash_digest_len("hash2l256", &n), BRWHASH_OK, "digest_len");
    CHECK(n == 32, "Hash2L256 digest_len %zu", n);
    CHECK_RC(brwhash_mac_key_len("4-hash1271", &n), BRWHASH_OK, "mac_key_len");
    CHECK(n == 32, "4-Hash1271 mac_key_len %zu", n);
    CHECK_RC(brwhash_mac_key_len("Poly1305", &n), BRWHASH_ERR_NO_MAC_MODE, "mac_key_len Poly1305");
    CHECK_RC(brwhash_is_vector("vecHash2L128", &flag), BRWHASH_OK, "is_vector");
    CHECK(flag == 1, "is_vector vecHash2L128");
    CHECK_RC(brwhash_is_vector("Hash2L128", &flag), BRWHASH_OK, "is_vector");
    CHECK(flag == 0, "is_vector Hash2L128");
    CHECK_RC(brwhash_key_len("SHA-256", &n), BRWHASH_ERR_UNKNOWN_ALGORITHM, "unknown name");
    CHECK_RC(brwhash_key_len("6-Hash1271", &n), BRWHASH_ERR_UNKNOWN_ALGORITHM, "out of range");
    CHECK_RC(brwhash_key_len("\xff\xfe", &n), BRWHASH_ERR_UNKNOWN_ALGORITHM, "invalid UTF-8");
    CHECK_RC(brwhash_key_len(NULL, &n), BRWHASH_ERR_NULL_POINTER, "key_len NULL alg");
    CHECK_RC(brwhash_key_len("Poly1305", NULL), BRWHASH_ERR_NULL_POINTER, "key_len NULL out");

    /* One shot. */
    CHECK_RC(brwhash_hash("4-Hash1271", key, 16, NULL, 0, out, 16), BRWHASH_OK, "NULL msg len 0");
    CHECK_RC(brwhash_hash("4-Hash1271", key, 16, NULL, 1, out, 16), BRWHASH_ERR_NULL_POINTER,
             "NULL msg len 1");
    CHECK_RC(brwhash_hash("4-Hash1271", NULL, 16, msg, 4, out, 16), BRWHASH_ERR_NULL_POINTER,
             "NULL key");
    CHECK_RC(brwhash_hash("4-Hash1271", key, 16, msg, 4, NULL, 16), BRWHASH_ERR_NULL_POINTER,
             "NULL out");
    CHECK_RC(brwhash_hash(NULL, key, 16, msg, 4, out, 16), BRWHASH_ERR_NULL_POINTER, "NULL alg");
    CHECK_RC(brwhash_hash("4-Hash1271", key, 15, msg, 4, out, 16), BRWHASH_ERR_KEY_LENGTH,
             "short key");
    CHECK_RC(brwhash_hash("4-Hash1271", key, 32, msg, 4, out, 16), BRWHASH_ERR_KEY_LENGTH,
             "MAC-length key to hash");
    CHECK_RC(brwhash_hash("4-Hash1271", NULL, 0, msg, 4, out, 16), BRWHASH_ERR_KEY_LENGTH,
             "empty key");
    CHECK_RC(brwhash_hash("4-Hash4271", key, 16, msg, 4, out, 16), BRWHASH_ERR_UNKNOWN_ALGORITHM,
             "unknown algorithm");
    CHECK_RC(brwhash_hash("Hash2L256", key, 32, msg, 4, out, 31), BRWHASH_ERR_BUFFER_TOO_SMALL,
             "short out");
    /* A length no buffer has: reported, never read. */
    CHECK_RC(brwhash_hash("4-Hash1271", key, 16, msg, (size_t)-1, out, 16),
             BRWHASH_ERR_MESSAGE_TOO_LONG, "SIZE_MAX message");
    CHECK_RC(brwhash_hash("4-Hash1271", key, 16, msg, (size_t)1 << 61, out, 16),
             BRWHASH_ERR_MESSAGE_TOO_LONG, "2^61-byte message");
    CHECK_RC(brwhash_hash_with_backend("4-Hash1271", "sse9", key, 16, msg, 4, out, 16),
             BRWHASH_ERR_UNKNOWN_BACKEND, "unknown backend");
    CHECK_RC(brwhash_hash_with_backend("Hash2L128", "PORTABLE", key, 16, msg, 4, out, 16),
             BRWHASH_OK, "backend name case-insensitive");
    CHECK_RC(brwhash_backend_check("Poly1305", NULL), BRWHASH_ERR_NULL_POINTER,
             "backend_check NULL");
    CHECK_RC(brwhash_backend_check("Poly1305", "portable"), BRWHASH_OK, "portable runs all");
    CHECK_RC(brwhash_backend_check("Poly1305", "pclmul"), BRWHASH_ERR_BACKEND_UNAVAILABLE,
             "pclmul has no prime-field code");
    CHECK_RC(brwhash_hash_with_backend("Poly1305", "pclmul", key, 32, msg, 4, out, 16),
             BRWHASH_ERR_BACKEND_UNAVAILABLE, "hash on pclmul");
    CHECK_RC(brwhash_mac("Poly1305", key, 48, msg, 4, out, 16), BRWHASH_ERR_NO_MAC_MODE,
             "mac Poly1305");
    CHECK_RC(brwhash_mac("4-Hash1271", key, 16, msg, 4, out, 16), BRWHASH_ERR_KEY_LENGTH,
             "mac with a hash key");
    CHECK_RC(brwhash_mac_verify("4-Hash1271", key, 32, msg, 4, NULL, 0), BRWHASH_ERR_VERIFY,
             "mac_verify empty tag");
    CHECK_RC(brwhash_mac_verify("4-Hash1271", key, 32, msg, 4, NULL, 16),
             BRWHASH_ERR_NULL_POINTER, "mac_verify NULL tag");

    /* Vectors. */
    for (i = 0; i < 256; i++) {
        parts[i] = msg;
        lens[i] = i % 5;
    }
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, parts, lens, 255, out, 16), BRWHASH_OK,
             "255 components");
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, parts, lens, 256, out, 16),
             BRWHASH_ERR_COMPONENT_COUNT, "256 components");
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, NULL, NULL, 0, out, 16),
             BRWHASH_ERR_COMPONENT_COUNT, "0 components");
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, NULL, lens, 2, out, 16),
             BRWHASH_ERR_NULL_POINTER, "NULL parts");
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, parts, NULL, 2, out, 16),
             BRWHASH_ERR_NULL_POINTER, "NULL part_lens");
    parts[1] = NULL;
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, parts, lens, 2, out, 16),
             BRWHASH_ERR_NULL_POINTER, "NULL part with a length");
    lens[1] = 0;
    CHECK_RC(brwhash_hash_vector("vecHash2L128", key, 16, parts, lens, 2, out, 16), BRWHASH_OK,
             "NULL empty part");
    CHECK_RC(brwhash_hash_vector("Hash2L128", key, 16, parts, lens, 2, out, 16),
             BRWHASH_ERR_NOT_VECTOR, "hash_vector on Hash2L128");
    CHECK_RC(brwhash_mac_vector("Hash2L128", key, 32, parts, lens, 2, out, 16),
             BRWHASH_ERR_NOT_VECTOR, "mac_vector on Hash2L128");

    /* Hashers. */
    h = (brwhash_hasher *)1;
    CHECK_RC(brwhash_hasher_new("4-Hash1271", key, 17, &h), BRWHASH_ERR_KEY_LENGTH,
             "hasher_new bad key");
    CHECK(h == NULL, "failed hasher_new sets *out = NULL");
    CHECK_RC(brwhash_hasher_new("4-Hash1271", key, 16, NULL), BRWHASH_ERR_NULL_POINTER,
             "hasher_new NULL out");
    CHECK_RC(brwhash_hasher_new("nope", key, 16, &h), BRWHASH_ERR_UNKNOWN_ALGORITHM,
             "hasher_new unknown");
    CHECK_RC(brwhash_hasher_new_mac("Poly1305", key, 48, &h), BRWHASH_ERR_NO_MAC_MODE,
             "hasher_new_mac Poly1305");
    CHECK_RC(brwhash_hasher_new_with_backend("Hash2L128", "avx3", key, 16, &h),
             BRWHASH_ERR_UNKNOWN_BACKEND, "hasher unknown backend");
    CHECK_RC(brwhash_hasher_new_with_backend("Hash2L128", "avx2", key, 16, &h),
             BRWHASH_ERR_BACKEND_UNAVAILABLE, "hasher avx2 for Hash2L128");
    CHECK_RC(brwhash_hasher_update(NULL, msg, 4), BRWHASH_ERR_NULL_POINTER, "update NULL h");
    CHECK_RC(brwhash_hasher_next_component(NULL), BRWHASH_ERR_NULL_POINTER, "next NULL h");
    CHECK_RC(brwhash_hasher_finalize(NULL, out, 16), BRWHASH_ERR_NULL_POINTER, "finalize NULL");
    CHECK_RC(brwhash_hasher_verify(NULL, out, 16), BRWHASH_ERR_NULL_POINTER, "verify NULL");
    CHECK_RC(brwhash_hasher_reset(NULL), BRWHASH_ERR_NULL_POINTER, "reset NULL");
    CHECK_RC(brwhash_hasher_clone(NULL, &c), BRWHASH_ERR_NULL_POINTER, "clone NULL");
    CHECK(c == NULL, "failed clone sets *out = NULL");
    CHECK(brwhash_hasher_algorithm(NULL) == NULL && brwhash_hasher_backend(NULL) == NULL,
          "names of NULL hasher");
    brwhash_hasher_free(NULL);

    CHECK_RC(brwhash_hasher_new("4-hash1271", key, 16, &h), BRWHASH_OK, "hasher_new");
    if (h) {
        CHECK(strcmp(brwhash_hasher_algorithm(h), "4-Hash1271") == 0, "canonical name");
        CHECK(brwhash_hasher_backend(h) != NULL, "backend name");
        CHECK_RC(brwhash_hasher_clone(h, NULL), BRWHASH_ERR_NULL_POINTER, "clone NULL out");
        CHECK_RC(brwhash_hasher_update(h, NULL, 3), BRWHASH_ERR_NULL_POINTER, "update NULL data");
        CHECK_RC(brwhash_hasher_update(h, msg, (size_t)1 << 61), BRWHASH_ERR_MESSAGE_TOO_LONG,
                 "update 2^61");
        CHECK_RC(brwhash_hasher_next_component(h), BRWHASH_ERR_NOT_VECTOR, "next on 4-Hash1271");
        CHECK_RC(brwhash_hasher_finalize(h, NULL, 16), BRWHASH_ERR_NULL_POINTER,
                 "finalize NULL out");
        CHECK_RC(brwhash_hasher_finalize(h, out, 15), BRWHASH_ERR_BUFFER_TOO_SMALL,
                 "finalize short out");
        /* The failed calls left the state empty. */
        CHECK_RC(brwhash_hasher_finalize(h, out, 16), BRWHASH_OK, "finalize");
        {
            uint8_t empty[16];
            CHECK_RC(brwhash_hash("4-Hash1271", key, 16, NULL, 0, empty, 16), BRWHASH_OK, "hash");
            CHECK(memcmp(out, empty, 16) == 0, "state unchanged by failed calls");
        }
        CHECK_RC(brwhash_hasher_verify(h, NULL, 0), BRWHASH_ERR_VERIFY, "verify empty");
        brwhash_hasher_free(h);
    }
    CHECK_RC(brwhash_hasher_new("vecHash2L128", key, 16, &h), BRWHASH_OK, "hasher vec");
    if (h) {
        for (i = 1; i < 255; i++)
            CHECK_RC(brwhash_hasher_next_component(h), BRWHASH_OK, "next_component");
        CHECK_RC(brwhash_hasher_next_component(h), BRWHASH_ERR_COMPONENT_COUNT, "256th");
        brwhash_hasher_free(h);
    }
}

int main(void) {
    long checked = 0, bad_lines = 0;
    char *line;
    struct vec *v = xmalloc(sizeof *v);

    check_errors();
    while ((line = read_line(stdin)) != NULL) {
        line_no++;
        if (line[0] == '\0' || line[0] == '#') {
            free(line);
            continue;
        }
        if (parse(line, v) != 0) {
            fprintf(stderr, "line %ld: cannot parse\n", line_no);
            bad_lines++;
        } else {
            check_vector(v);
            checked++;
        }
        free(v->msg);
        free(line);
    }
    free(v);
    printf("vectors checked: %ld\n", checked);
    printf("backend runs: %ld\n", backend_runs);
    printf("failures: %ld\n", failures + bad_lines);
    return failures == 0 && bad_lines == 0 && checked > 0 ? 0 : 1;
}
