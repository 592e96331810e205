//! The C interface from C: builds `examples/kat.c` and `examples/quickstart.c` with the C
//! compiler (`$CC`, else `cc`) against the libraries cargo built for this very test run, and
//! runs them.
//!
//! Cargo builds this crate's library with all its crate types (cdylib, staticlib, rlib)
//! before it compiles the integration tests, into the directory that holds the test
//! executable (`target/<profile>/deps/`): that is where the `.a` and `.so` linked here come
//! from, so they are always those of the current sources and profile.
//!
//! `known_answers_static` and `known_answers_shared` feed every vector of
//! `tests/vectors/{kat,extra,poly1305_rfc8439}.json` to the KAT program (see the line format
//! in `examples/kat.c`), linked statically and dynamically (the latter through the pkg-config
//! file made from `brwhash.pc.in`, when `pkg-config` is installed).
#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>/deps`, where cargo put this crate's `.a` and `.so` for this test run.
fn artifact_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .expect("test executable directory")
        .to_path_buf();
    for lib in [static_lib_name(), shared_lib_name()] {
        let path = dir.join(lib);
        let built = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .unwrap_or_else(|e| panic!("{}: {e} (cargo builds it for the tests)", path.display()));
        let source = std::fs::metadata(crate_dir().join("src/lib.rs"))
            .and_then(|m| m.modified())
            .expect("src/lib.rs");
        assert!(
            built >= source,
            "{} is older than src/lib.rs: not the library of this build",
            path.display()
        );
    }
    dir
}

fn static_lib_name() -> &'static str {
    "libbrwhash_ffi.a"
}

fn shared_lib_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libbrwhash_ffi.dylib"
    } else {
        "libbrwhash_ffi.so"
    }
}

/// The system libraries a Rust staticlib needs (`cargo rustc -p brwhash-ffi --crate-type
/// staticlib -- --print native-static-libs`); build-c.sh asks rustc, this test knows them.
fn native_static_libs() -> &'static [&'static str] {
    if cfg!(target_os = "macos") {
        &["-lSystem", "-lc", "-lm"]
    } else {
        &[
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ]
    }
}

fn cc() -> String {
    std::env::var("CC")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "cc".into())
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("brwhash-ffi-c")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// Compiles `examples/<source>` to `out` with extra arguments (input files, -I, -L, -l...).
fn compile(source: &str, out: &Path, args: &[String]) {
    let mut cmd = Command::new(cc());
    cmd.args(["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror"])
        .arg(crate_dir().join("examples").join(source))
        .args(args)
        .arg("-o")
        .arg(out);
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {:?} ($CC): {e}", cc()));
    assert!(
        output.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Flags for the static library, without pkg-config.
fn static_flags() -> Vec<String> {
    let mut v = vec![
        format!("-I{}", crate_dir().join("include").display()),
        artifact_dir().join(static_lib_name()).display().to_string(),
    ];
    v.extend(native_static_libs().iter().map(|s| s.to_string()));
    v
}

fn vectors(file: &str) -> Vec<Value> {
    let path = crate_dir().join("../../tests/vectors").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).expect("vector file is JSON");
    json["vectors"].as_array().expect("vectors array").clone()
}

/// The vector files as the KAT program's input lines (format in examples/kat.c), and their
/// number.
fn kat_input() -> (String, usize) {
    let mut lines = String::new();
    let mut count = 0;
    for file in ["kat.json", "extra.json"] {
        for v in vectors(file) {
            let s = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{file}: {k} in {v}"))
            };
            let hex = |h: &str| {
                if h.is_empty() {
                    "-".to_string()
                } else {
                    h.to_string()
                }
            };
            let fill = v
                .get("msg_fill")
                .map_or(-1, |f| f.as_i64().expect("msg_fill"));
            let mode = s("mode");
            assert!(mode == "digest" || mode == "mac", "{file}: mode {mode}");
            let input = match v.get("component_lens") {
                Some(lens) => {
                    let lens: Vec<String> = lens
                        .as_array()
                        .expect("component_lens")
                        .iter()
                        .map(|n| n.as_u64().expect("component length").to_string())
                        .collect();
                    format!("V {fill} {} {}", lens.len(), lens.join(" "))
                }
                None => format!("L {} {fill}", v["msg_len"].as_u64().expect("msg_len")),
            };
            lines += &format!(
                "{} {mode} {} {} {input}\n",
                s("algorithm"),
                hex(s("key")),
                hex(s("output"))
            );
            count += 1;
        }
    }
    for v in vectors("poly1305_rfc8439.json") {
        let s = |k: &str| v[k].as_str().expect("string field");
        let msg = if s("message").is_empty() {
            "-"
        } else {
            s("message")
        };
        lines += &format!(
            "{} digest {} {} M {msg}\n",
            s("algorithm"),
            s("key"),
            s("tag")
        );
        count += 1;
    }
    (lines, count)
}

/// Runs `exe` with `input` on stdin; its stdout, after asserting success.
fn run(exe: &Path, input: &str) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", exe.display()));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("wait for the C program");
    writer.join().expect("stdin writer").expect("write stdin");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{} failed ({}):\n{stdout}{}",
        exe.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn run_kat(exe: &Path) {
    let (input, count) = kat_input();
    assert!(count > 8000, "only {count} vectors");
    let stdout = run(exe, &input);
    assert!(
        stdout.contains(&format!("vectors checked: {count}\n")),
        "expected {count} vectors checked:\n{stdout}"
    );
    assert!(stdout.contains("failures: 0\n"), "{stdout}");
    eprintln!("{}: {}", exe.display(), stdout.replace('\n', "; "));
}

#[test]
fn known_answers_static() {
    let dir = scratch("static");
    let exe = dir.join("kat");
    compile("kat.c", &exe, &static_flags());
    run_kat(&exe);
}

#[test]
fn quickstart_example() {
    let dir = scratch("quickstart");
    let exe = dir.join("quickstart");
    compile("quickstart.c", &exe, &static_flags());
    let stdout = run(&exe, "");
    assert_eq!(
        stdout,
        "digest matches\ntag success, forgery verification failed\n"
    );
}

/// An installed layout (`<prefix>/include/brwhash.h`, `<prefix>/lib/libbrwhash_ffi.so`,
/// `<prefix>/lib/pkgconfig/brwhash.pc` from `brwhash.pc.in`), as build-c.sh makes it.
fn install_shared(prefix: &Path) {
    let (include, lib) = (prefix.join("include"), prefix.join("lib"));
    std::fs::create_dir_all(&include).expect("mkdir include");
    std::fs::create_dir_all(lib.join("pkgconfig")).expect("mkdir lib/pkgconfig");
    std::fs::copy(
        crate_dir().join("include/brwhash.h"),
        include.join("brwhash.h"),
    )
    .expect("copy header");
    std::fs::copy(
        artifact_dir().join(shared_lib_name()),
        lib.join(shared_lib_name()),
    )
    .expect("copy shared library");
    let pc = std::fs::read_to_string(crate_dir().join("brwhash.pc.in"))
        .expect("brwhash.pc.in")
        .replace("@PREFIX@", &prefix.display().to_string())
        .replace("@LIBDIR@", "${prefix}/lib")
        .replace("@INCLUDEDIR@", "${prefix}/include")
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"))
        .replace("@LIBS_PRIVATE@", &native_static_libs().join(" "));
    assert!(
        !pc.contains('@'),
        "unsubstituted variable in brwhash.pc.in:\n{pc}"
    );
    std::fs::write(lib.join("pkgconfig/brwhash.pc"), pc).expect("write brwhash.pc");
}

/// `pkg-config <args> brwhash` for the layout at `prefix`; None without pkg-config.
fn pkg_config(prefix: &Path, args: &[&str]) -> Option<Vec<String>> {
    let output = Command::new("pkg-config")
        .args(args)
        .arg("brwhash")
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
        .output()
        .ok()?;
    assert!(
        output.status.success(),
        "pkg-config {args:?} brwhash: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(
        String::from_utf8(output.stdout)
            .expect("UTF-8")
            .split_whitespace()
            .map(String::from)
            .collect(),
    )
}

#[test]
fn known_answers_shared() {
    let dir = scratch("shared");
    let prefix = dir.join("prefix");
    install_shared(&prefix);
    let lib = prefix.join("lib");
    let mut flags = match pkg_config(&prefix, &["--cflags", "--libs"]) {
        Some(flags) => {
            assert!(flags.contains(&"-lbrwhash_ffi".to_string()), "{flags:?}");
            let version = pkg_config(&prefix, &["--modversion"]).expect("pkg-config");
            assert_eq!(version, [env!("CARGO_PKG_VERSION")]);
            let static_libs = pkg_config(&prefix, &["--static", "--libs"]).expect("pkg-config");
            for l in native_static_libs() {
                assert!(static_libs.contains(&l.to_string()), "{static_libs:?}");
            }
            flags
        }
        None => {
            eprintln!("pkg-config not found: plain -I/-L/-l flags");
            vec![
                format!("-I{}", prefix.join("include").display()),
                format!("-L{}", lib.display()),
                "-lbrwhash_ffi".into(),
            ]
        }
    };
    flags.push(format!("-Wl,-rpath,{}", lib.display()));
    let exe = dir.join("kat");
    compile("kat.c", &exe, &flags);
    run_kat(&exe);
}

/// The header is valid C++ too (cbindgen's `cpp_compat`), when a C++ compiler is around.
#[test]
fn header_compiles_as_cpp() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let status = Command::new(&cxx)
        .args(["-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-x", "c++"])
        .arg(crate_dir().join("include/brwhash.h"))
        .status();
    match status {
        Ok(s) => assert!(s.success(), "{cxx} rejects include/brwhash.h"),
        Err(e) => eprintln!("no C++ compiler ({cxx}: {e}): skipped"),
    }
}

/// README.md quotes examples/quickstart.c verbatim.
#[test]
fn readme_quotes_the_example() {
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).expect("README.md");
    let example =
        std::fs::read_to_string(crate_dir().join("examples/quickstart.c")).expect("example");
    assert!(
        readme.contains(&format!("```c\n{example}```")),
        "README.md must quote examples/quickstart.c verbatim"
    );
}
