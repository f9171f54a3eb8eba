//! The committed include/crawlsched.h must be exactly what cbindgen
//! generates from the current source (build.rs writes it to OUT_DIR).

use std::process::Command;

#[test]
fn committed_header_matches_generated() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/crawlsched.h"));
    let root = env!("CARGO_MANIFEST_DIR");
    // build.rs also refreshes the working copy, so compare with git's copy.
    let committed = Command::new("git")
        .args(["-C", root, "show", "HEAD:include/crawlsched.h"])
        .output();
    match committed {
        Ok(out) if out.status.success() => {
            let committed = String::from_utf8_lossy(&out.stdout);
            assert!(
                committed == generated,
                "include/crawlsched.h in HEAD differs from the generated header: \
                 build, then commit include/crawlsched.h"
            );
        }
        _ => {
            // Not a git checkout (e.g. a source tarball): the file on disk must match.
            let on_disk = std::fs::read_to_string(format!("{root}/include/crawlsched.h"))
                .expect("include/crawlsched.h exists");
            assert_eq!(on_disk, generated);
        }
    }
}

/// Every exported function is declared in the header, and vice versa.
#[test]
fn header_declares_every_export() {
    let header = include_str!(concat!(env!("OUT_DIR"), "/crawlsched.h"));
    let root = env!("CARGO_MANIFEST_DIR");
    let mut exports = 0;
    for entry in std::fs::read_dir(format!("{root}/src/ffi")).expect("src/ffi") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        for line in text.lines() {
            if let Some(rest) = line.split("extern \"C\" fn ").nth(1) {
                let name = rest.split('(').next().unwrap_or("");
                assert!(
                    name.starts_with("crawlsched_"),
                    "{}: export {name} lacks the crawlsched_ prefix",
                    path.display()
                );
                assert!(
                    header.contains(&format!("{name}(")),
                    "{name} missing from the header"
                );
                exports += 1;
            }
        }
    }
    assert!(exports > 10);
}

/// Every function in the header is called by at least one program in c-tests/.
#[test]
fn every_header_function_is_called_from_c() {
    let header = include_str!(concat!(env!("OUT_DIR"), "/crawlsched.h"));
    let root = env!("CARGO_MANIFEST_DIR");
    let mut tests = String::new();
    for entry in std::fs::read_dir(format!("{root}/c-tests")).expect("c-tests") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "c" || e == "cpp") {
            tests.push_str(&std::fs::read_to_string(&path).expect("read"));
        }
    }
    // A declaration starts at column 0: `ret name(` with name the last word.
    let declared: Vec<&str> = header
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '*', '/']) && !l.starts_with("typedef"))
        .filter_map(|l| l.split_once('(').map(|(head, _)| head))
        .filter_map(|head| head.rsplit([' ', '*']).next())
        .filter_map(|name| name.strip_prefix("crawlsched_"))
        .collect();
    assert!(
        declared.len() > 40,
        "parsed only {} functions",
        declared.len()
    );
    let missing: Vec<_> = declared
        .iter()
        .filter(|n| !tests.contains(&format!("crawlsched_{n}(")))
        .collect();
    assert!(missing.is_empty(), "functions no C test calls: {missing:?}");
}

/// bindings/api/crawlsched-api.json, from which the Java and Python
/// bindings are generated, describes the header cbindgen generates now.
/// Needs python3; without it the test is skipped, except on CI.
#[test]
fn api_description_matches_header() {
    let root = env!("CARGO_MANIFEST_DIR");
    let header = concat!(env!("OUT_DIR"), "/crawlsched.h");
    let run = Command::new("python3")
        .arg(format!("{root}/bindings/api/gen_api.py"))
        .args(["--check", "--header", header])
        .output();
    match run {
        Ok(out) => assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("api_description_matches_header skipped: python3 not runnable ({e})");
        }
        Err(e) => panic!("python3 is required on CI (CI is set): {e}"),
    }
}
