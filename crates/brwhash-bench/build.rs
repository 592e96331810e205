//! Compiles the intel-ipsec-mb shim (csrc/ipsec_shim.c) and links libIPSec_MB, when the
//! `peers` feature is on and the target is x86-64 (the library exists only there).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=csrc/ipsec_shim.c");
    println!("cargo:rerun-if-env-changed=IPSEC_MB_INCLUDE_DIR");
    println!("cargo:rerun-if-env-changed=IPSEC_MB_LIB_DIR");
    println!("cargo::rustc-check-cfg=cfg(brw_ossl3)");
    // openssl-sys (`links = "openssl"`) tells its dependents the library's version number,
    // e.g. 30000130: EVP_MAC exists from OpenSSL 3.0 on.
    if let Ok(v) = std::env::var("DEP_OPENSSL_VERSION_NUMBER") {
        if u64::from_str_radix(&v, 16).is_ok_and(|n| n >= 0x3000_0000) {
            println!("cargo:rustc-cfg=brw_ossl3");
        }
    }
    #[cfg(feature = "peers")]
    {
        ipsec_mb();
        sodium();
    }
}

/// libsodium's Poly1305 (`crypto_onetimeauth_poly1305`), linked directly: no shim needed.
#[cfg(feature = "peers")]
fn sodium() {
    println!("cargo:rerun-if-env-changed=SODIUM_LIB_DIR");
    let header = ["/usr/include", "/usr/local/include"]
        .iter()
        .any(|d| std::path::Path::new(d).join("sodium.h").is_file());
    if !header && std::env::var("SODIUM_LIB_DIR").is_err() {
        eprintln!(
            "error: sodium.h not found (looked in /usr/include, /usr/local/include).\n\
             The `peers` feature of brwhash-bench needs libsodium: run \
             `bash scripts/install-deps.sh` (Debian: apt-get install libsodium-dev), set \
             SODIUM_LIB_DIR, or build without peers (--no-default-features)."
        );
        std::process::exit(1);
    }
    if let Ok(dir) = std::env::var("SODIUM_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
    println!("cargo:rustc-link-lib=sodium");
}

#[cfg(feature = "peers")]
fn ipsec_mb() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return;
    }
    let include = std::env::var("IPSEC_MB_INCLUDE_DIR").ok();
    let mut dirs: Vec<&str> = vec!["/usr/include", "/usr/local/include"];
    if let Some(dir) = include.as_deref() {
        dirs.insert(0, dir);
    }
    if !dirs
        .iter()
        .any(|d| std::path::Path::new(d).join("intel-ipsec-mb.h").is_file())
    {
        // A build script reports a missing system dependency by failing, with the fix.
        eprintln!(
            "error: intel-ipsec-mb.h not found (looked in {}).\n\
             The `peers` feature of brwhash-bench needs intel-ipsec-mb 1.x: run \
             `bash scripts/install-deps.sh` (Debian: apt-get install libipsec-mb-dev), set \
             IPSEC_MB_INCLUDE_DIR / IPSEC_MB_LIB_DIR, or build without peers \
             (--no-default-features, or brwhash-cli's --no-default-features).",
            dirs.join(", ")
        );
        std::process::exit(1);
    }
    let mut build = cc::Build::new();
    build.file("csrc/ipsec_shim.c").warnings(true);
    if let Some(dir) = include.as_deref() {
        build.include(dir);
    }
    build.compile("brwhash_ipsec_shim");
    if let Ok(dir) = std::env::var("IPSEC_MB_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
    println!("cargo:rustc-link-lib=IPSec_MB");
}
