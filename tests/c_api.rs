//! Compiles every program in c-tests/ (C11 against the static library, C++17
//! against the shared library) with the `cc` crate's compiler detection,
//! runs it, and fails if it fails. Each program checks its own results.

use std::path::{Path, PathBuf};
use std::process::Command;

/// target/<profile>/deps/, where `cargo test` builds libcrawlsched.{a,so}
/// (the copies in target/<profile>/ are refreshed only by `cargo build`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent().expect("deps dir").to_path_buf()
}

/// The shared library's soname is libcrawlsched.so.<ABI> (build.rs), so a
/// program linked with -lcrawlsched asks the loader for that name: give it
/// the symlink an installation would have.
fn soname_link(libs: &Path) {
    let soname = format!("libcrawlsched.so.{}", abi_version());
    let link = libs.join(&soname);
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink("libcrawlsched.so", &link).expect("create soname symlink");
}

/// CRAWLSCHED_ABI_VERSION as the header defines it.
fn abi_version() -> u32 {
    let header = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/crawlsched.h"));
    header
        .lines()
        .find_map(|l| l.strip_prefix("#define CRAWLSCHED_ABI_VERSION "))
        .and_then(|v| v.trim().parse().ok())
        .expect("CRAWLSCHED_ABI_VERSION in the header")
}

fn compiler(cpp: bool) -> cc::Tool {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "x86_64-unknown-linux-gnu".into());
    cc::Build::new()
        .cpp(cpp)
        .target(&target)
        .host(&target)
        .opt_level(1)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler()
}

fn build_and_run(src: &Path, out_dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let libs = lib_dir();
    let cpp = src.extension().is_some_and(|e| e == "cpp");
    let exe = out_dir.join(src.file_stem().expect("file stem"));
    let mut cmd = compiler(cpp).to_command();
    cmd.arg(if cpp { "-std=c++17" } else { "-std=c11" })
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-g"])
        .arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("c-tests"))
        .arg(src)
        .arg("-o")
        .arg(&exe);
    if cpp {
        // C++ users typically link the shared library.
        soname_link(&libs);
        cmd.arg(format!("-L{}", libs.display()))
            .arg(format!("-Wl,-rpath,{}", libs.display()))
            .arg("-lcrawlsched");
    } else {
        cmd.arg(libs.join("libcrawlsched.a"));
    }
    cmd.args(["-lpthread", "-ldl", "-lm"]);
    let status = cmd.status().expect("compiler runs");
    assert!(status.success(), "compiling {} failed", src.display());
    let out = Command::new(&exe).output().expect("test program runs");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{} failed: {:?}", src.display(), out.status);
}

#[test]
fn c_and_cpp_programs_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = lib_dir().join("c-tests");
    std::fs::create_dir_all(&out_dir).expect("create output dir");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join("c-tests"))
        .expect("c-tests dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "cpp"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 2, "expected C and C++ test programs in c-tests/");
    for src in &sources {
        build_and_run(src, &out_dir);
    }
}

/// The C examples build with the same flags and run successfully.
#[test]
fn c_examples_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = lib_dir().join("c-examples");
    std::fs::create_dir_all(&out_dir).expect("create output dir");
    for entry in std::fs::read_dir(root.join("examples/c")).expect("examples/c") {
        let src = entry.expect("entry").path();
        if src.extension().is_some_and(|e| e == "c") {
            build_and_run(&src, &out_dir);
        }
    }
}
