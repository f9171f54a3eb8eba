//! The shared library exports exactly the C API: the dynamic symbols of the
//! libcrawlsched.so that `cargo test` builds must equal the committed list
//! docs/symbols.txt and the functions declared in include/crawlsched.h, so an
//! accidental export (or a removal, which breaks the ABI) fails CI. Also
//! checks the soname. Needs binutils (`nm`, `readelf`); skipped with a note
//! where they are missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// target/<profile>/deps/libcrawlsched.so, built by `cargo test` next to
/// the test executable (the copy in target/<profile>/ may be stale).
fn shared_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent().expect("deps dir").join("libcrawlsched.so")
}

/// Runs a binutils tool, or None when it is not installed.
fn run(tool: &str, args: &[&str], lib: &Path) -> Option<String> {
    match Command::new(tool).args(args).arg(lib).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "{tool} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("note: `{tool}` not found (install binutils); check skipped");
            None
        }
        Err(e) => panic!("cannot run {tool}: {e}"),
    }
}

/// Functions declared in the header: a declaration starts at column 0 as
/// `ret name(` (the same parse as tests/header.rs).
fn header_functions() -> Vec<String> {
    let header = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/crawlsched.h"));
    let mut names: Vec<String> = header
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '*', '/']) && !l.starts_with("typedef"))
        .filter_map(|l| l.split_once('(').map(|(head, _)| head))
        .filter_map(|head| head.rsplit([' ', '*']).next())
        .filter(|name| name.starts_with("crawlsched_"))
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

fn committed_list() -> Vec<String> {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/symbols.txt"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Names in `a` missing from `b`.
fn missing(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().filter(|n| !b.contains(n)).cloned().collect()
}

#[test]
fn exported_symbols_are_exactly_the_c_api() {
    let lib = shared_library();
    assert!(lib.exists(), "{} not built", lib.display());
    let Some(out) = run("nm", &["-D", "--defined-only"], &lib) else {
        return;
    };
    // Lines are `address type name[@version]`; version nodes are type A.
    let mut exported: Vec<String> = out
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (_, kind, name) = (f.next()?, f.next()?, f.next()?);
            (kind != "A").then(|| name.split('@').next().unwrap_or(name).to_owned())
        })
        .collect();
    exported.sort();
    exported.dedup();

    let committed = committed_list();
    let mut sorted = committed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        committed, sorted,
        "docs/symbols.txt must be sorted (LC_ALL=C) without duplicates"
    );

    let stray: Vec<_> = exported
        .iter()
        .filter(|n| !n.starts_with("crawlsched_"))
        .collect();
    assert!(
        stray.is_empty(),
        "symbols exported outside the crawlsched_ namespace: {stray:?}"
    );

    let declared = header_functions();
    assert!(
        declared.len() > 40,
        "parsed only {} header functions",
        declared.len()
    );
    assert!(
        missing(&exported, &declared).is_empty(),
        "exported but not declared in include/crawlsched.h: {:?}",
        missing(&exported, &declared)
    );
    assert!(
        missing(&declared, &exported).is_empty(),
        "declared in include/crawlsched.h but not exported: {:?}",
        missing(&declared, &exported)
    );
    let update = "if the change is intended, regenerate the list with \
        `nm -D --defined-only target/debug/deps/libcrawlsched.so | awk '{print $3}' | LC_ALL=C sort > docs/symbols.txt` \
        (removing a symbol requires an ABI bump, see docs/c-api.md)";
    assert!(
        missing(&exported, &committed).is_empty(),
        "new exports not in docs/symbols.txt: {:?}; {update}",
        missing(&exported, &committed)
    );
    assert!(
        missing(&committed, &exported).is_empty(),
        "symbols in docs/symbols.txt no longer exported: {:?}; {update}",
        missing(&committed, &exported)
    );
}

#[test]
fn soname_is_the_abi_major() {
    let header = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/crawlsched.h"));
    let abi: u32 = header
        .lines()
        .find_map(|l| l.strip_prefix("#define CRAWLSCHED_ABI_VERSION "))
        .and_then(|v| v.trim().parse().ok())
        .expect("CRAWLSCHED_ABI_VERSION in the header");
    let Some(out) = run("readelf", &["-d"], &shared_library()) else {
        return;
    };
    let expected = format!("Library soname: [libcrawlsched.so.{abi}]");
    assert!(
        out.contains(&expected),
        "expected `{expected}` in readelf -d:\n{out}"
    );
}
