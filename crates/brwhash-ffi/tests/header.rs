//! The committed C header `include/brwhash.h` is what cbindgen generates from `src/lib.rs` and
//! `cbindgen.toml`. After changing the interface, regenerate it with
//!
//! ```text
//! BRWHASH_BLESS=1 cargo test -p brwhash-ffi --test header
//! ```

use std::path::Path;

#[test]
fn header_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    // The whole interface is in src/lib.rs: parsing that file alone needs no nested
    // `cargo metadata` (as `with_crate` would run).
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src").join("lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");

    let path = crate_dir.join("include").join("brwhash.h");
    if std::env::var_os("BRWHASH_BLESS").is_some_and(|v| !v.is_empty()) {
        std::fs::write(&path, &generated).expect("write include/brwhash.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    // Line endings of a checkout on Windows do not count.
    if committed.replace("\r\n", "\n") != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(generated.lines().count()));
        panic!(
            "{} is out of date (first difference at line {}).\n\
             Regenerate it with:\n    BRWHASH_BLESS=1 cargo test -p brwhash-ffi --test header",
            path.display(),
            first + 1
        );
    }
}
