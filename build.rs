//! Generates include/crawlsched.h from src/ffi with cbindgen on every build.
//! The header is committed; `tests/header.rs` fails if the committed copy
//! differs from what this script generates.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
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
