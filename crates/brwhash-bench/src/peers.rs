//! Peer implementations, measured in the same run as brwhash.
//!
//! A peer is a name, what one call does, the function it computes ([`Function`]), its mode
//! (key set up per message, or cached) and a `setup` that turns key bytes into a closure from
//! message to tag. Adding one is a few lines in [`all`]: write the setup, list it.
//!
//! Every peer is checked before it is measured ([`check`]): against brwhash's Poly1305 for
//! Poly1305 peers (the RFC 8439 vector, then random keys and messages of several lengths),
//! against RustCrypto's implementation (itself checked against a published vector) for GHASH
//! and POLYVAL. A peer that disagrees is an error, never a row.
//!
//! The peers are compiled with the `peers` feature (on by default): OpenSSL's Poly1305 (the
//! `openssl` crate over the system libssl), intel-ipsec-mb's Poly1305 and GHASH (a C shim over
//! the system libIPSec_MB, x86-64 only) and RustCrypto's `poly1305`, `ghash` and `polyval`.

use brwhash::Algorithm;

use crate::suite::{FieldKind, Mode};

/// A peer's hash of one message under the key it was set up with.
pub type PeerFn = Box<dyn FnMut(&[u8]) -> [u8; 16]>;

/// The function a peer computes; it decides the reference the peer is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    /// RFC 8439 Poly1305, key r || s (32 bytes).
    Poly1305,
    /// The GCM universal hash over GF(2^128), key H (16 bytes); a partial last block is
    /// zero-padded.
    Ghash,
    /// RFC 8452 POLYVAL, key H (16 bytes); a partial last block is zero-padded.
    Polyval,
}

impl Function {
    /// The name printed in tables.
    pub fn name(self) -> &'static str {
        match self {
            Function::Poly1305 => "Poly1305",
            Function::Ghash => "GHASH",
            Function::Polyval => "POLYVAL",
        }
    }

    /// Key bytes.
    pub fn key_len(self) -> usize {
        match self {
            Function::Poly1305 => 32,
            Function::Ghash | Function::Polyval => 16,
        }
    }

    /// The kind of field: brwhash rows over the same kind are compared with these peers.
    pub fn field(self) -> FieldKind {
        match self {
            Function::Poly1305 => FieldKind::Prime,
            Function::Ghash | Function::Polyval => FieldKind::Binary,
        }
    }

    /// The reference result: brwhash for Poly1305, RustCrypto for GHASH and POLYVAL (`None`
    /// without the `peers` feature, when no reference is compiled in).
    pub fn reference(self, key: &[u8], msg: &[u8]) -> Option<[u8; 16]> {
        match self {
            Function::Poly1305 => {
                let d = brwhash::hash(Algorithm::POLY1305, key, msg).ok()?;
                d.as_bytes().try_into().ok()
            }
            #[cfg(feature = "peers")]
            Function::Ghash => Some(rustcrypto::ghash_once(key, msg)),
            #[cfg(feature = "peers")]
            Function::Polyval => Some(rustcrypto::polyval_once(key, msg)),
            #[cfg(not(feature = "peers"))]
            Function::Ghash | Function::Polyval => None,
        }
    }

    /// Published known answers (key, message, result) for the reference.
    pub fn known_answers(self) -> Vec<(Vec<u8>, Vec<u8>, [u8; 16])> {
        let h = |s: &str| hex_bytes(s);
        let tag = |s: &str| -> [u8; 16] { hex_bytes(s).try_into().expect("16-byte constant") };
        match self {
            // RFC 8439 section 2.5.2.
            Function::Poly1305 => vec![(
                h("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
                b"Cryptographic Forum Research Group".to_vec(),
                tag("a8061dc1305136c6c22b8baf0c0127a9"),
            )],
            // GCM specification, test case 2: GHASH(H, {}, C) over C || len(A) || len(C).
            Function::Ghash => vec![(
                h("66e94bd4ef8a2c3b884cfa59ca342b2e"),
                h("0388dace60b6a392f328c2b971b2fe7800000000000000000000000000000080"),
                tag("f38cbb1ad69223dcc3457ae5b6b0f885"),
            )],
            // RFC 8452 appendix A.
            Function::Polyval => vec![(
                h("25629347589242761d31f826ba4b757b"),
                h("4f4f95668c83dfb6401762bb2d01a262d1a24ddd2721d006bbe45f20d3c9f362"),
                tag("f7a3b47b846119fae5b7866cf5e5b77e"),
            )],
        }
    }
}

/// One peer implementation.
pub struct Peer {
    /// Who, and what: e.g. `OpenSSL Poly1305`.
    pub name: &'static str,
    /// What one call does, e.g. `EVP_DigestSign init + update + final`.
    pub call: &'static str,
    /// The function computed.
    pub function: Function,
    /// [`Mode::OneShot`]: the key is set up inside every call; [`Mode::Key`]: once.
    pub mode: Mode,
    /// The closure for one key; an error when the implementation cannot run here.
    pub setup: fn(&[u8]) -> Result<PeerFn, String>,
}

/// `OPENSSL_ia32cap` that hides AVX (leaf 1, ECX bit 28) and every leaf-7 feature (AVX2,
/// AVX-512, IFMA): OpenSSL's Poly1305 then takes its scalar 64-bit code.
pub const OPENSSL_SCALAR_CAP: &str = "~0x1000000000000000:0";

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("name", &self.name)
            .field("call", &self.call)
            .field("function", &self.function)
            .field("mode", &self.mode)
            .finish()
    }
}

/// Every peer compiled into this build (none without the `peers` feature).
pub fn all() -> Vec<Peer> {
    #[allow(unused_mut)]
    let mut peers: Vec<Peer> = Vec::new();
    #[cfg(feature = "peers")]
    {
        #[cfg(brw_ossl3)]
        peers.push(Peer {
            name: "OpenSSL Poly1305",
            call: "EVP_MAC init + update + final",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: openssl_peer::poly1305_evp_mac,
        });
        #[cfg(brw_ossl3)]
        peers.push(Peer {
            name: "OpenSSL Poly1305 (scalar)",
            call: "EVP_MAC of a libcrypto copy loaded with OPENSSL_ia32cap hiding SIMD",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: openssl_peer::poly1305_scalar,
        });
        peers.push(Peer {
            name: "OpenSSL Poly1305",
            call: "EVP_DigestSign init + update + final",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: openssl_peer::poly1305,
        });
        #[cfg(target_arch = "x86_64")]
        peers.push(Peer {
            name: "intel-ipsec-mb Poly1305",
            call: "one job per message",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: ipsec::poly1305,
        });
        peers.push(Peer {
            name: "libsodium Poly1305",
            call: "crypto_onetimeauth_poly1305",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: sodium::poly1305,
        });
        peers.push(Peer {
            name: "RustCrypto poly1305",
            call: "new + compute_unpadded",
            function: Function::Poly1305,
            mode: Mode::OneShot,
            setup: rustcrypto::poly1305,
        });
        #[cfg(target_arch = "x86_64")]
        {
            peers.push(Peer {
                name: "intel-ipsec-mb GHASH",
                call: "key expansion + ghash",
                function: Function::Ghash,
                mode: Mode::OneShot,
                setup: ipsec::ghash_oneshot,
            });
            peers.push(Peer {
                name: "intel-ipsec-mb GHASH",
                call: "ghash, key expanded once",
                function: Function::Ghash,
                mode: Mode::Key,
                setup: ipsec::ghash_cached,
            });
        }
        peers.push(Peer {
            name: "RustCrypto ghash",
            call: "new + update_padded + finalize",
            function: Function::Ghash,
            mode: Mode::OneShot,
            setup: rustcrypto::ghash_new,
        });
        peers.push(Peer {
            name: "RustCrypto ghash",
            call: "keyed state cloned + update_padded + finalize",
            function: Function::Ghash,
            mode: Mode::Key,
            setup: rustcrypto::ghash_cached,
        });
        peers.push(Peer {
            name: "RustCrypto polyval",
            call: "new + update_padded + finalize",
            function: Function::Polyval,
            mode: Mode::OneShot,
            setup: rustcrypto::polyval_new,
        });
        peers.push(Peer {
            name: "RustCrypto polyval",
            call: "keyed state cloned + update_padded + finalize",
            function: Function::Polyval,
            mode: Mode::Key,
            setup: rustcrypto::polyval_cached,
        });
    }
    peers
}

/// Message lengths of the start-up check, besides those of the run.
const CHECK_LENGTHS: [usize; 14] = [
    0, 1, 15, 16, 17, 31, 63, 64, 65, 255, 256, 1000, 4099, 65543,
];

/// Checks `peer` against its function's reference: first the reference against the published
/// vectors, then the peer on those vectors and on random keys and messages of
/// `CHECK_LENGTHS` and `lengths` (those up to 1 MiB). The error names the peer and the first
/// disagreement.
pub fn check(peer: &Peer, lengths: &[usize]) -> Result<(), String> {
    let f = peer.function;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    for (key, msg, expected) in f.known_answers() {
        if let Some(got) = f.reference(&key, &msg) {
            if got != expected {
                return Err(format!(
                    "the {} reference gives {} on its published vector, expected {}",
                    f.name(),
                    hex(&got),
                    hex(&expected)
                ));
            }
        }
        let got = (peer.setup)(&key).map_err(|e| format!("{}: {e}", peer.name))?(&msg);
        if got != expected {
            return Err(format!(
                "{} ({}) gives {} on the published {} vector, expected {}",
                peer.name,
                peer.call,
                hex(&got),
                f.name(),
                hex(&expected)
            ));
        }
    }
    // The run's lengths up to 1 MiB (longer messages only make the check slow).
    let mut lens: Vec<usize> = CHECK_LENGTHS
        .iter()
        .chain(lengths.iter().filter(|&&n| n <= 1 << 20))
        .copied()
        .collect();
    lens.sort_unstable();
    lens.dedup();
    for (i, &len) in lens.iter().enumerate() {
        let key = crate::pseudo_random_bytes(0x6b65_7900 + i as u64, f.key_len());
        let msg = crate::pseudo_random_bytes(0x6d73_6700 + i as u64, len);
        let Some(expected) = f.reference(&key, &msg) else {
            continue;
        };
        let mut run = (peer.setup)(&key).map_err(|e| format!("{}: {e}", peer.name))?;
        // Twice: a cached state must not change from one message to the next.
        for _ in 0..2 {
            let got = run(&msg);
            if got != expected {
                return Err(format!(
                    "{} ({}) disagrees with the {} reference on a {len}-byte message: {} \
                     instead of {}",
                    peer.name,
                    peer.call,
                    f.name(),
                    hex(&got),
                    hex(&expected)
                ));
            }
        }
    }
    Ok(())
}

/// Versions of the peer libraries in this build, for the report header.
pub fn versions() -> Vec<String> {
    #[allow(unused_mut)]
    let mut v = Vec::new();
    #[cfg(feature = "peers")]
    {
        v.push(openssl::version::version().to_string());
        v.push(sodium::describe());
        #[cfg(target_arch = "x86_64")]
        v.push(ipsec::describe());
        v.push("RustCrypto poly1305 0.9, ghash 0.6, polyval 0.7".to_string());
    }
    v
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex constant"))
        .collect()
}

#[cfg(feature = "peers")]
mod openssl_peer {
    use openssl::pkey::{Id, PKey};
    use openssl::sign::Signer;

    use super::PeerFn;

    /// OpenSSL 3's EVP_MAC interface: one context, fetched once; each message runs
    /// EVP_MAC_init (with the key) + EVP_MAC_update + EVP_MAC_final, as a caller with a fresh
    /// one-time key per message does.
    #[cfg(brw_ossl3)]
    pub fn poly1305_evp_mac(key: &[u8]) -> Result<PeerFn, String> {
        evp_mac_peer(evp_mac::Api::linked(), key)
    }

    /// The same calls on a private copy of libcrypto loaded with `OPENSSL_ia32cap` hiding
    /// AVX, AVX2 and AVX-512: OpenSSL's scalar 64-bit Poly1305, in this process, interleaved
    /// with the other rows like every peer.
    #[cfg(brw_ossl3)]
    pub fn poly1305_scalar(key: &[u8]) -> Result<PeerFn, String> {
        evp_mac_peer(evp_mac::Api::masked(super::OPENSSL_SCALAR_CAP)?, key)
    }

    #[cfg(brw_ossl3)]
    fn evp_mac_peer(api: evp_mac::Api, key: &[u8]) -> Result<PeerFn, String> {
        let key: [u8; 32] = key
            .try_into()
            .map_err(|_| format!("a Poly1305 key of {} bytes", key.len()))?;
        let mut mac = evp_mac::Mac::poly1305(api)?;
        mac.tag(&key, b"")?;
        Ok(Box::new(move |msg| {
            mac.tag(&key, msg)
                .expect("OpenSSL EVP_MAC Poly1305 failed after its set-up succeeded")
        }))
    }

    /// The few EVP_MAC calls the peer needs: of the libcrypto the `openssl` crate links, or
    /// of a private copy of it.
    #[cfg(brw_ossl3)]
    #[allow(unsafe_code)]
    mod evp_mac {
        use std::ffi::{c_char, c_int, c_void, CStr};
        use std::ptr;
        use std::sync::OnceLock;

        use openssl_sys as ffi;

        type Fetch = unsafe extern "C" fn(
            *mut ffi::OSSL_LIB_CTX,
            *const c_char,
            *const c_char,
        ) -> *mut ffi::EVP_MAC;
        type CtxNew = unsafe extern "C" fn(*mut ffi::EVP_MAC) -> *mut ffi::EVP_MAC_CTX;
        type Init = unsafe extern "C" fn(
            *mut ffi::EVP_MAC_CTX,
            *const u8,
            usize,
            *const ffi::OSSL_PARAM,
        ) -> c_int;
        type Update = unsafe extern "C" fn(*mut ffi::EVP_MAC_CTX, *const u8, usize) -> c_int;
        type Final =
            unsafe extern "C" fn(*mut ffi::EVP_MAC_CTX, *mut u8, *mut usize, usize) -> c_int;
        type CtxFree = unsafe extern "C" fn(*mut ffi::EVP_MAC_CTX);
        type MacFree = unsafe extern "C" fn(*mut ffi::EVP_MAC);

        /// EVP_MAC entry points of one libcrypto.
        #[derive(Clone, Copy)]
        pub struct Api {
            fetch: Fetch,
            ctx_new: CtxNew,
            init: Init,
            update: Update,
            finish: Final,
            ctx_free: CtxFree,
            mac_free: MacFree,
        }

        impl Api {
            /// The libcrypto this program links.
            pub fn linked() -> Api {
                ffi::init();
                Api {
                    fetch: ffi::EVP_MAC_fetch,
                    ctx_new: ffi::EVP_MAC_CTX_new,
                    init: ffi::EVP_MAC_init,
                    update: ffi::EVP_MAC_update,
                    finish: ffi::EVP_MAC_final,
                    ctx_free: ffi::EVP_MAC_CTX_free,
                    mac_free: ffi::EVP_MAC_free,
                }
            }

            /// A private copy of the linked libcrypto (a copy of the file, so that the dynamic
            /// loader maps it again), loaded with `OPENSSL_ia32cap` = `cap`: OpenSSL reads the
            /// variable when the library loads and picks its code paths then. Loaded once per
            /// process and never unloaded.
            pub fn masked(cap: &'static str) -> Result<Api, String> {
                static MASKED: OnceLock<Result<Api, String>> = OnceLock::new();
                MASKED.get_or_init(|| Self::load_copy(cap)).clone()
            }

            fn load_copy(cap: &str) -> Result<Api, String> {
                let linked = Self::linked();
                // SAFETY: dladdr only reads the loader's tables; `info` is plain data.
                let (found, info) = unsafe {
                    let mut info: libc::Dl_info = std::mem::zeroed();
                    let found = libc::dladdr(linked.fetch as *const c_void, &mut info);
                    (found, info)
                };
                if found == 0 || info.dli_fname.is_null() {
                    return Err("cannot find the file of the linked libcrypto".into());
                }
                // SAFETY: dladdr set dli_fname to a NUL-terminated path owned by the loader.
                let path = unsafe { CStr::from_ptr(info.dli_fname) }
                    .to_string_lossy()
                    .into_owned();
                let copy = std::env::temp_dir()
                    .join(format!("brwhash-bench-libcrypto-{}.so", std::process::id()));
                std::fs::copy(&path, &copy)
                    .map_err(|e| format!("copying {path} to {}: {e}", copy.display()))?;
                let c_copy = std::ffi::CString::new(copy.to_string_lossy().as_bytes())
                    .map_err(|_| "a temporary path with a NUL byte".to_string())?;
                // The variable is set only around the load (the benchmark sets up its rows on
                // one thread, before any measurement).
                let old = std::env::var_os("OPENSSL_ia32cap");
                std::env::set_var("OPENSSL_ia32cap", cap);
                // SAFETY: c_copy is a NUL-terminated path of a shared library; RTLD_LOCAL
                // keeps its symbols out of the global namespace, so the two copies never mix.
                let handle =
                    unsafe { libc::dlopen(c_copy.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
                match old {
                    Some(v) => std::env::set_var("OPENSSL_ia32cap", v),
                    None => std::env::remove_var("OPENSSL_ia32cap"),
                }
                // The mapping stays valid once the file is gone.
                let _ = std::fs::remove_file(&copy);
                if handle.is_null() {
                    // SAFETY: dlerror returns NULL or a NUL-terminated message.
                    let err = unsafe { libc::dlerror() };
                    let why = if err.is_null() {
                        "unknown error".into()
                    } else {
                        // SAFETY: as above.
                        unsafe { CStr::from_ptr(err) }
                            .to_string_lossy()
                            .into_owned()
                    };
                    return Err(format!("loading a copy of {path}: {why}"));
                }
                let sym = |name: &CStr| -> Result<*mut c_void, String> {
                    // SAFETY: handle is a live library handle, name NUL-terminated.
                    let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
                    if p.is_null() {
                        Err(format!(
                            "{} missing in the copy of {path}",
                            name.to_string_lossy()
                        ))
                    } else {
                        Ok(p)
                    }
                };
                // SAFETY: each symbol is the libcrypto 3 function of that name, whose C
                // signature the corresponding type spells (the same as openssl-sys's).
                unsafe {
                    Ok(Api {
                        fetch: std::mem::transmute::<*mut c_void, Fetch>(sym(c"EVP_MAC_fetch")?),
                        ctx_new: std::mem::transmute::<*mut c_void, CtxNew>(sym(
                            c"EVP_MAC_CTX_new",
                        )?),
                        init: std::mem::transmute::<*mut c_void, Init>(sym(c"EVP_MAC_init")?),
                        update: std::mem::transmute::<*mut c_void, Update>(sym(c"EVP_MAC_update")?),
                        finish: std::mem::transmute::<*mut c_void, Final>(sym(c"EVP_MAC_final")?),
                        ctx_free: std::mem::transmute::<*mut c_void, CtxFree>(sym(
                            c"EVP_MAC_CTX_free",
                        )?),
                        mac_free: std::mem::transmute::<*mut c_void, MacFree>(sym(
                            c"EVP_MAC_free",
                        )?),
                    })
                }
            }
        }

        /// An EVP_MAC and one context of it, freed on drop.
        pub struct Mac {
            api: Api,
            mac: *mut ffi::EVP_MAC,
            ctx: *mut ffi::EVP_MAC_CTX,
        }

        impl Mac {
            pub fn poly1305(api: Api) -> Result<Mac, String> {
                // SAFETY: a NUL-terminated name, default library context and properties.
                let mac =
                    unsafe { (api.fetch)(ptr::null_mut(), c"POLY1305".as_ptr(), ptr::null()) };
                if mac.is_null() {
                    return Err("EVP_MAC_fetch(POLY1305) failed".into());
                }
                // SAFETY: mac is a live EVP_MAC of this library.
                let ctx = unsafe { (api.ctx_new)(mac) };
                let m = Mac { api, mac, ctx };
                if ctx.is_null() {
                    return Err("EVP_MAC_CTX_new failed".into());
                }
                Ok(m)
            }

            pub fn tag(&mut self, key: &[u8; 32], msg: &[u8]) -> Result<[u8; 16], String> {
                let mut tag = [0u8; 16];
                let mut out_len = 0usize;
                let api = self.api;
                // SAFETY: ctx is live and used by this thread only (&mut self); key, msg and
                // tag are valid for the lengths given; OpenSSL keeps no pointer to them.
                let ok = unsafe {
                    (api.init)(self.ctx, key.as_ptr(), key.len(), ptr::null()) == 1
                        && (api.update)(self.ctx, msg.as_ptr(), msg.len()) == 1
                        && (api.finish)(self.ctx, tag.as_mut_ptr(), &mut out_len, tag.len()) == 1
                };
                if ok && out_len == 16 {
                    Ok(tag)
                } else {
                    Err("EVP_MAC Poly1305 failed".into())
                }
            }
        }

        impl Drop for Mac {
            fn drop(&mut self) {
                // SAFETY: both pointers came from this library (ctx may be NULL, which
                // EVP_MAC_CTX_free accepts) and are freed exactly once.
                unsafe {
                    (self.api.ctx_free)(self.ctx);
                    (self.api.mac_free)(self.mac);
                }
            }
        }
    }

    /// OpenSSL's Poly1305 through EVP_PKEY: the key object is made once; each message runs
    /// EVP_DigestSignInit + EVP_DigestSignUpdate + EVP_DigestSignFinal.
    pub fn poly1305(key: &[u8]) -> Result<PeerFn, String> {
        let pkey = PKey::private_key_from_raw_bytes(key, Id::POLY1305)
            .map_err(|e| format!("OpenSSL Poly1305 key: {e}"))?;
        let tag_of = move |msg: &[u8]| -> Result<[u8; 16], openssl::error::ErrorStack> {
            let mut signer = Signer::new_without_digest(&pkey)?;
            signer.update(msg)?;
            let mut tag = [0u8; 16];
            signer.sign(&mut tag)?;
            Ok(tag)
        };
        tag_of(b"").map_err(|e| format!("OpenSSL Poly1305: {e}"))?;
        // Failing after the set-up call succeeded means memory ran out or the library broke.
        Ok(Box::new(move |msg| {
            tag_of(msg).expect("OpenSSL Poly1305 failed after its set-up succeeded")
        }))
    }
}

#[cfg(feature = "peers")]
mod rustcrypto {
    use ghash::GHash;
    use poly1305::Poly1305;
    use polyval::universal_hash::{KeyInit, UniversalHash};
    use polyval::Polyval;

    use super::PeerFn;

    fn key_error(name: &str, key: &[u8]) -> String {
        format!("{name}: a key of {} bytes", key.len())
    }

    pub fn poly1305(key: &[u8]) -> Result<PeerFn, String> {
        let key = poly1305::Key::try_from(key).map_err(|_| key_error("poly1305", key))?;
        Ok(Box::new(move |msg| {
            Poly1305::new(&key).compute_unpadded(msg).into()
        }))
    }

    pub fn ghash_once(key: &[u8], msg: &[u8]) -> [u8; 16] {
        let key = ghash::Key::try_from(key).expect("16-byte GHASH key");
        let mut g = GHash::new(&key);
        g.update_padded(msg);
        g.finalize().into()
    }

    pub fn polyval_once(key: &[u8], msg: &[u8]) -> [u8; 16] {
        let key = polyval::Key::try_from(key).expect("16-byte POLYVAL key");
        let mut p = Polyval::new(&key);
        p.update_padded(msg);
        p.finalize().into()
    }

    /// A RustCrypto universal hash (GHASH, POLYVAL) with its key set up per message
    /// (`cached` false) or once, its state cloned per message (`cached` true).
    fn universal<H>(name: &str, key: &[u8], cached: bool) -> Result<PeerFn, String>
    where
        H: KeyInit + UniversalHash + Clone + 'static,
        polyval::universal_hash::Block<H>: Into<[u8; 16]>,
    {
        let key =
            polyval::universal_hash::Key::<H>::try_from(key).map_err(|_| key_error(name, key))?;
        let keyed = H::new(&key);
        Ok(Box::new(move |msg| {
            let mut h = if cached { keyed.clone() } else { H::new(&key) };
            h.update_padded(msg);
            h.finalize().into()
        }))
    }

    pub fn ghash_new(key: &[u8]) -> Result<PeerFn, String> {
        universal::<GHash>("ghash", key, false)
    }

    pub fn ghash_cached(key: &[u8]) -> Result<PeerFn, String> {
        universal::<GHash>("ghash", key, true)
    }

    pub fn polyval_new(key: &[u8]) -> Result<PeerFn, String> {
        universal::<Polyval>("polyval", key, false)
    }

    pub fn polyval_cached(key: &[u8]) -> Result<PeerFn, String> {
        universal::<Polyval>("polyval", key, true)
    }
}

/// libsodium, linked by build.rs.
#[cfg(feature = "peers")]
#[allow(unsafe_code)]
mod sodium {
    use std::ffi::{c_char, c_int, c_ulonglong, CStr};

    use super::PeerFn;

    extern "C" {
        fn sodium_init() -> c_int;
        fn sodium_version_string() -> *const c_char;
        fn crypto_onetimeauth_poly1305(
            out: *mut u8,
            msg: *const u8,
            len: c_ulonglong,
            key: *const u8,
        ) -> c_int;
    }

    pub fn describe() -> String {
        // SAFETY: libsodium returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(sodium_version_string()) };
        format!("libsodium {}", v.to_string_lossy())
    }

    pub fn poly1305(key: &[u8]) -> Result<PeerFn, String> {
        let key: [u8; 32] = key
            .try_into()
            .map_err(|_| format!("libsodium Poly1305: a key of {} bytes", key.len()))?;
        // SAFETY: sodium_init may be called any number of times, from any thread; it picks
        // the implementations for this CPU (-1 is failure, 0 and 1 are success).
        if unsafe { sodium_init() } < 0 {
            return Err("sodium_init failed".into());
        }
        Ok(Box::new(move |msg| {
            let mut tag = [0u8; 16];
            // SAFETY: tag has 16 bytes, key 32, msg msg.len(); libsodium keeps no pointer.
            let rc = unsafe {
                crypto_onetimeauth_poly1305(
                    tag.as_mut_ptr(),
                    msg.as_ptr(),
                    msg.len() as c_ulonglong,
                    key.as_ptr(),
                )
            };
            assert_eq!(rc, 0, "crypto_onetimeauth_poly1305 failed");
            tag
        }))
    }
}

/// intel-ipsec-mb through csrc/ipsec_shim.c (compiled and linked by build.rs).
#[cfg(all(feature = "peers", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod ipsec {
    use std::ffi::{c_char, c_int, c_void, CStr};

    use super::PeerFn;

    extern "C" {
        fn brw_ipsec_arch() -> *const c_char;
        fn brw_ipsec_version() -> *const c_char;
        fn brw_ipsec_poly1305(key: *const u8, msg: *const u8, len: u64, tag: *mut u8) -> c_int;
        fn brw_ipsec_ghash_new(h: *const u8) -> *mut c_void;
        fn brw_ipsec_ghash_free(expanded: *mut c_void);
        fn brw_ipsec_ghash(
            expanded: *const c_void,
            msg: *const u8,
            len: u64,
            tag: *mut u8,
        ) -> c_int;
        fn brw_ipsec_ghash_oneshot(h: *const u8, msg: *const u8, len: u64, tag: *mut u8) -> c_int;
    }

    fn c_str(p: *const c_char) -> Option<String> {
        if p.is_null() {
            return None;
        }
        // SAFETY: the shim returns NULL or a pointer to a static NUL-terminated string.
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }

    /// `intel-ipsec-mb 1.3.0 (avx512)`: the library's version and the architecture its
    /// manager chose on this CPU.
    pub fn describe() -> String {
        // SAFETY: both shim functions take no arguments and return static strings (or NULL).
        let (version, arch) = unsafe { (brw_ipsec_version(), brw_ipsec_arch()) };
        format!(
            "intel-ipsec-mb {} ({})",
            c_str(version).unwrap_or_else(|| "?".into()),
            c_str(arch).unwrap_or_else(|| "no manager".into())
        )
    }

    /// A shim function taking (key, message, length, tag out) and returning 0 on success.
    type KeyedFn = unsafe extern "C" fn(*const u8, *const u8, u64, *mut u8) -> c_int;

    /// A peer from a keyed shim function: `N` key bytes, checked once on the empty message.
    fn keyed<const N: usize>(f: KeyedFn, name: &'static str, key: &[u8]) -> Result<PeerFn, String> {
        let key: [u8; N] = key
            .try_into()
            .map_err(|_| format!("{name}: a key of {} bytes", key.len()))?;
        let run = move |msg: &[u8]| -> Result<[u8; 16], c_int> {
            let mut tag = [0u8; 16];
            // SAFETY: key is N readable bytes (what `f` reads), msg msg.len() readable bytes,
            // tag 16 writable bytes; the shim keeps no pointer.
            let rc = unsafe {
                f(
                    key.as_ptr(),
                    msg.as_ptr(),
                    msg.len() as u64,
                    tag.as_mut_ptr(),
                )
            };
            if rc == 0 {
                Ok(tag)
            } else {
                Err(rc)
            }
        };
        run(b"").map_err(|rc| format!("{name} returned {rc}"))?;
        Ok(Box::new(move |msg| {
            run(msg).unwrap_or_else(|rc| panic!("{name} returned {rc} after its set-up"))
        }))
    }

    pub fn poly1305(key: &[u8]) -> Result<PeerFn, String> {
        keyed::<32>(brw_ipsec_poly1305, "brw_ipsec_poly1305", key)
    }

    pub fn ghash_oneshot(key: &[u8]) -> Result<PeerFn, String> {
        keyed::<16>(brw_ipsec_ghash_oneshot, "brw_ipsec_ghash_oneshot", key)
    }

    /// An expanded GHASH key owned by Rust, freed on drop.
    struct Expanded(*mut c_void);

    impl Drop for Expanded {
        fn drop(&mut self) {
            // SAFETY: self.0 came from brw_ipsec_ghash_new and is freed exactly once.
            unsafe { brw_ipsec_ghash_free(self.0) }
        }
    }

    pub fn ghash_cached(key: &[u8]) -> Result<PeerFn, String> {
        let h: [u8; 16] = key
            .try_into()
            .map_err(|_| format!("a GHASH key of {} bytes", key.len()))?;
        // SAFETY: h is 16 readable bytes; the result is NULL or an owned allocation.
        let expanded = Expanded(unsafe { brw_ipsec_ghash_new(h.as_ptr()) });
        if expanded.0.is_null() {
            return Err("brw_ipsec_ghash_new failed (no manager or no memory)".into());
        }
        Ok(Box::new(move |msg| {
            let mut tag = [0u8; 16];
            // SAFETY: expanded.0 is a live expanded key (dropped with this closure), msg is
            // msg.len() readable bytes and tag 16 writable bytes; nothing is kept.
            let rc = unsafe {
                brw_ipsec_ghash(expanded.0, msg.as_ptr(), msg.len() as u64, tag.as_mut_ptr())
            };
            assert_eq!(rc, 0, "intel-ipsec-mb GHASH failed after its set-up");
            tag
        }))
    }
}
