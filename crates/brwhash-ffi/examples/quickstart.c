/* brwhash from C: one-shot digest, streaming, MAC tag and verification.
 * cc quickstart.c $(pkg-config --cflags --libs brwhash) -o quickstart */
#include <brwhash.h>
#include <stdio.h>
#include <string.h>

static int check(int rc, const char *what) {
    if (rc != BRWHASH_OK) fprintf(stderr, "%s: %s\n", what, brwhash_strerror(rc));
    return rc != BRWHASH_OK;
}

int main(void) {
    const char *alg = "4-Hash1271";
    const uint8_t key[16] = {0x42}, mac_key[32] = {0x09}; /* use random keys */
    const uint8_t msg[] = "some data";
    uint8_t d1[16], d2[16], tag[16];
    brwhash_hasher *h = NULL;

    /* One shot. */
    if (check(brwhash_hash(alg, key, sizeof key, msg, 9, d1, sizeof d1), "hash")) return 1;

    /* Streaming: any split of the input gives the same digest. */
    if (check(brwhash_hasher_new(alg, key, sizeof key, &h), "hasher_new")) return 1;
    brwhash_hasher_update(h, msg, 5);
    brwhash_hasher_update(h, msg + 5, 4);
    brwhash_hasher_finalize(h, d2, sizeof d2);
    brwhash_hasher_free(h);
    printf("digest %s\n", memcmp(d1, d2, 16) == 0 ? "matches" : "DIFFERS");

    /* One-time MAC (key tau || s), verified in constant time. */
    if (check(brwhash_mac(alg, mac_key, sizeof mac_key, msg, 9, tag, sizeof tag), "mac")) return 1;
    int ok = brwhash_mac_verify(alg, mac_key, sizeof mac_key, msg, 9, tag, sizeof tag);
    tag[0] ^= 1;
    int forged = brwhash_mac_verify(alg, mac_key, sizeof mac_key, msg, 9, tag, sizeof tag);
    printf("tag %s, forgery %s\n", brwhash_strerror(ok), brwhash_strerror(forged));
    return !(memcmp(d1, d2, 16) == 0 && ok == BRWHASH_OK && forged == BRWHASH_ERR_VERIFY);
}
