/*
 * A tiny C shim over intel-ipsec-mb (Debian: libipsec-mb-dev, version 1.3) for the brwhash
 * benchmark peers. The library's job API is a set of macros over function pointers in a
 * multi-buffer manager (IMB_MGR), which is awkward to bind from Rust; these functions expose
 * what the benchmark needs with plain C types.
 *
 * One IMB_MGR per thread (thread-local), allocated and initialised once on first use with
 * init_mb_mgr_auto, which picks the best architecture of this CPU (SSE, AVX, AVX2, AVX512).
 * A manager is not thread-safe; a thread-local one makes the functions callable from any
 * thread (cargo test runs tests on several). The managers are never freed.
 *
 * Return values: 0 on success, negative on failure (see each function).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <intel-ipsec-mb.h>

static _Thread_local IMB_MGR *brw_mgr = NULL;
static _Thread_local IMB_ARCH brw_arch = IMB_ARCH_NONE;

/* This thread's manager, or NULL when it cannot be allocated or initialised. */
static IMB_MGR *brw_get_mgr(void)
{
        if (brw_mgr == NULL) {
                IMB_MGR *mgr = alloc_mb_mgr(0);
                if (mgr == NULL)
                        return NULL;
                init_mb_mgr_auto(mgr, &brw_arch);
                if (imb_get_errno(mgr) != 0) {
                        free_mb_mgr(mgr);
                        return NULL;
                }
                brw_mgr = mgr;
        }
        return brw_mgr;
}

/* The architecture init_mb_mgr_auto chose ("sse", "avx", "avx2", "avx512", ...), or NULL
 * when no manager can be made. */
const char *brw_ipsec_arch(void)
{
        if (brw_get_mgr() == NULL)
                return NULL;
        switch (brw_arch) {
        case IMB_ARCH_NOAESNI: return "noaesni";
        case IMB_ARCH_SSE: return "sse";
        case IMB_ARCH_AVX: return "avx";
        case IMB_ARCH_AVX2: return "avx2";
        case IMB_ARCH_AVX512: return "avx512";
        default: return "unknown";
        }
}

/* The library's version string, e.g. "1.3.0". */
const char *brw_ipsec_version(void)
{
        return imb_get_version_str();
}

/*
 * Poly1305 (RFC 8439) of msg[0..len) under the 32-byte key r || s: one job per message
 * (IMB_AUTH_POLY1305, no cipher), submitted and flushed until it completes.
 * Returns 0, or -1 (no manager), -2 (no job slot), -3 (the job failed; imb_get_errno says why).
 */
int brw_ipsec_poly1305(const uint8_t key[32], const uint8_t *msg, uint64_t len,
                       uint8_t tag[16])
{
        IMB_MGR *mgr = brw_get_mgr();
        if (mgr == NULL)
                return -1;
        IMB_JOB *job = IMB_GET_NEXT_JOB(mgr);
        if (job == NULL)
                return -2;
        job->cipher_mode = IMB_CIPHER_NULL;
        job->cipher_direction = IMB_DIR_ENCRYPT;
        job->chain_order = IMB_ORDER_HASH_CIPHER;
        job->hash_alg = IMB_AUTH_POLY1305;
        job->src = msg;
        job->dst = NULL;
        job->cipher_start_src_offset_in_bytes = 0;
        job->msg_len_to_cipher_in_bytes = 0;
        job->hash_start_src_offset_in_bytes = 0;
        job->msg_len_to_hash_in_bytes = len;
        job->auth_tag_output = tag;
        job->auth_tag_output_len_in_bytes = 16;
        job->u.POLY1305._key = key;
        job->user_data = tag;

        /* Only one job is ever in flight: it comes back from submit or from flush. */
        job = IMB_SUBMIT_JOB(mgr);
        while (job == NULL) {
                job = IMB_FLUSH_JOB(mgr);
                if (job == NULL)
                        return -3;
        }
        if (job->status != IMB_STATUS_COMPLETED || job->user_data != tag)
                return -3;
        return 0;
}

/*
 * GHASH (the GCM universal hash) with the hash key H expanded once: brw_ipsec_ghash_new
 * returns an opaque, 64-byte aligned expanded key (NULL on failure), brw_ipsec_ghash_free
 * releases it, brw_ipsec_ghash hashes msg[0..len) (a partial last block is zero-padded) from
 * a zero initial tag.
 */
void *brw_ipsec_ghash_new(const uint8_t h[16])
{
        IMB_MGR *mgr = brw_get_mgr();
        if (mgr == NULL)
                return NULL;
        struct gcm_key_data *kd = NULL;
        if (posix_memalign((void **)&kd, 64, sizeof(*kd)) != 0)
                return NULL;
        memset(kd, 0, sizeof(*kd));
        IMB_GHASH_PRE(mgr, h, kd);
        return kd;
}

void brw_ipsec_ghash_free(void *expanded)
{
        free(expanded);
}

int brw_ipsec_ghash(const void *expanded, const uint8_t *msg, uint64_t len, uint8_t tag[16])
{
        IMB_MGR *mgr = brw_get_mgr();
        if (mgr == NULL)
                return -1;
        memset(tag, 0, 16);
        IMB_GHASH(mgr, (const struct gcm_key_data *)expanded, msg, len, tag, 16);
        return 0;
}

/* GHASH including the key expansion, as a one-shot call would do it. */
int brw_ipsec_ghash_oneshot(const uint8_t h[16], const uint8_t *msg, uint64_t len,
                            uint8_t tag[16])
{
        IMB_MGR *mgr = brw_get_mgr();
        if (mgr == NULL)
                return -1;
        /* The header aligns gcm_key_data to 64 bytes only when LINUX is defined: say it. */
        struct gcm_key_data kd __attribute__((aligned(64)));
        IMB_GHASH_PRE(mgr, h, &kd);
        memset(tag, 0, 16);
        IMB_GHASH(mgr, &kd, msg, len, tag, 16);
        return 0;
}
