//! Generates include/crawlsched.h from src/ffi with cbindgen on every build.
//! The header is committed; `tests/header.rs` fails if the committed copy
//! differs from what this script generates.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    link_shared_library(&dir);
    let config = match cbindgen::Config::from_file(dir.join("cbindgen.toml")) {
        Ok(c) => c,
        Err(e) => panic!("cbindgen.toml: {e}"),
    };
    // Only src/ffi is parsed, so the header holds the C API and nothing else.
    let bindings = match cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/ffi/mod.rs"))
        .generate()
    {
        Ok(b) => b,
        Err(e) => panic!("cbindgen could not generate the header: {e}"),
    };
    let mut text = Vec::new();
    bindings.write(&mut text);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    write_if_changed(&out_dir.join("crawlsched.h"), &text);
    write_if_changed(&dir.join("include/crawlsched.h"), &text);
}

/// Leaves the file (and its timestamp) alone when nothing changed.
fn write_if_changed(path: &std::path::Path, text: &[u8]) {
    if std::fs::read(path).ok().as_deref() != Some(text) {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(path, text) {
            panic!("cannot write {}: {e}", path.display());
        }
    }
}

/// Gives the shared library its soname, `libcrawlsched.so.<ABI>`, with the
/// ABI version read from src/ffi/common.rs so there is one source of truth.
/// Exports need no version script of ours: rustc already links a cdylib with
/// its own script exporting only `#[no_mangle]` items (and it is anonymous,
/// so a second script with a named version node is rejected by GNU ld and
/// ignored by lld; see docs/c-api.md). tests/symbols.rs checks the exports.
fn link_shared_library(dir: &std::path::Path) {
    println!("cargo:rerun-if-changed=src/ffi/common.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    // Only ELF targets use -soname (macOS has install names, Windows DLLs).
    if !matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        return;
    }
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,-soname,libcrawlsched.so.{}",
        abi_version(dir)
    );
}

/// CRAWLSCHED_ABI_VERSION from src/ffi/common.rs.
fn abi_version(dir: &std::path::Path) -> u32 {
    let src = std::fs::read_to_string(dir.join("src/ffi/common.rs")).unwrap_or_default();
    let value = src.lines().find_map(|l| {
        let rest = l
            .trim()
            .strip_prefix("pub const CRAWLSCHED_ABI_VERSION: u32 =")?;
        rest.trim().trim_end_matches(';').trim().parse::<u32>().ok()
    });
    match value {
        Some(v) => v,
        None => {
            panic!("src/ffi/common.rs: cannot read `pub const CRAWLSCHED_ABI_VERSION: u32 = N;`")
        }
    }
}
