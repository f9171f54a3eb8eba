//! Compiles every program in c-tests/ (C11 against the static library, C++17
//! against the shared library) with the `cc` crate's compiler detection,
//! runs it, and fails if it fails. Each program checks its own results.
//! The C and C++ examples (examples/c, examples/cpp) build with the same
//! warnings-as-errors flags and run too; the C++ frontier's figures are
//! compared with the Rust API.
//!
//! The same programs (and the C and C++ examples) also run
//! - compiled with AddressSanitizer + UndefinedBehaviorSanitizer (the C side
//!   is instrumented; LeakSanitizer intercepts every malloc, so leaks in the
//!   uninstrumented Rust library are found too), and
//! - under valgrind memcheck (`--leak-check=full`, definite leaks are errors),
//!
//! with zero reports allowed. Where the sanitizer runtime or valgrind is
//! missing the check is skipped with a message, except on CI (`CI=true`),
//! where a missing tool is a failure. No suppressions are used.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

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
    // Tests run in parallel and run programs that load through this link:
    // create it once, never remove it (it always points at the same file).
    #[cfg(unix)]
    match std::os::unix::fs::symlink("libcrawlsched.so", &link) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => panic!("create soname symlink {}: {e}", link.display()),
    }
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

fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
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

/// Compiles one C or C++ program with extra `flags` (e.g. sanitizers). C
/// links the static library unless `shared` (much faster to link: the
/// sanitizer and valgrind runs use it).
fn build(src: &Path, out_dir: &Path, flags: &[&str], shared: bool) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let libs = lib_dir();
    let cpp = src.extension().is_some_and(|e| e == "cpp");
    let exe = out_dir.join(src.file_stem().expect("file stem"));
    let mut cmd = compiler(cpp).to_command();
    cmd.arg(if cpp { "-std=c++17" } else { "-std=c11" })
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-g"])
        .args(flags)
        .arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("c-tests"))
        .arg(src)
        .arg("-o")
        .arg(&exe);
    if cpp || shared {
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
    exe
}

/// Runs `exe`, under `wrapper` (e.g. valgrind) if given, with `env`.
fn run(exe: &Path, wrapper: &[&str], env: &[(&str, &str)]) {
    run_output(exe, wrapper, &[], env);
}

/// As `run`, with arguments for the program; returns its stdout.
fn run_output(exe: &Path, wrapper: &[&str], args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = match wrapper.split_first() {
        Some((tool, targs)) => {
            let mut c = Command::new(tool);
            c.args(targs).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    cmd.args(args).envs(env.iter().copied());
    let start = Instant::now();
    let out = cmd.output().expect("test program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    println!(
        "  ({} {:.1} s)",
        exe.display(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "{} {:?} failed: {:?}",
        wrapper.join(" "),
        exe.display(),
        out.status
    );
    stdout
}

/// Arguments for a program in the slow runs (sanitizers, valgrind): the C++
/// frontier simulates less there; its full size runs in `cpp_frontier_example`.
fn small_args(src: &Path) -> &'static [&'static str] {
    if src.file_stem().is_some_and(|s| s == "frontier") {
        FRONTIER_QUICK
    } else {
        &[]
    }
}

const FRONTIER_QUICK: &[&str] = &["--quick"];

/// The C and C++ test programs, then (if `examples`) the C and C++ examples.
fn sources(examples: bool) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("c-tests")];
    if examples {
        dirs.push(root.join("examples/c"));
        dirs.push(root.join("examples/cpp"));
    }
    let mut all = Vec::new();
    for dir in dirs {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("source dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "cpp"))
            .collect();
        v.sort();
        all.extend(v);
    }
    all
}

fn out_dir(name: &str) -> PathBuf {
    let d = lib_dir().join(name);
    std::fs::create_dir_all(&d).expect("create output dir");
    d
}

/// Smaller workloads for the slow runs (sanitizers, valgrind): the full
/// sizes run natively in `c_and_cpp_programs_pass`.
const SMALL: &[(&str, &str)] = &[
    ("CRAWLSCHED_CHURN_CYCLES", "2000"),
    ("CRAWLSCHED_THREADS", "8"),
    ("CRAWLSCHED_THREAD_ITERS", "300"),
    ("CRAWLSCHED_LIMITS_STATES", "2000"),
];

#[test]
fn c_and_cpp_programs_pass() {
    let out = out_dir("c-tests");
    let srcs = sources(false);
    assert!(
        srcs.len() >= 2,
        "expected C and C++ test programs in c-tests/"
    );
    for src in &srcs {
        run(&build(src, &out, &[], false), &[], &[]);
    }
}

/// The C examples build with the same flags and run successfully.
#[test]
fn c_examples_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = out_dir("c-examples");
    for entry in std::fs::read_dir(root.join("examples/c")).expect("examples/c") {
        let src = entry.expect("entry").path();
        if src.extension().is_some_and(|e| e == "c") {
            run(&build(&src, &out, &[], false), &[], &[]);
        }
    }
}

/// The number in `line` right after `label` (e.g. "mean 5.1234 ...").
fn number_after(line: &str, label: &str) -> f64 {
    let rest = &line[line
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {line:?}"))
        + label.len()..];
    let token: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e'))
        .collect();
    token
        .parse()
        .unwrap_or_else(|_| panic!("a number after {label:?} in {line:?}"))
}

fn line_with<'a>(stdout: &'a str, needle: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{stdout}"))
}

/// examples/cpp/frontier.cpp (C++17 on the copyable header
/// examples/cpp/crawlsched.hpp) builds warnings-as-errors and runs at full
/// size; its own checks (simulation against exact figures) decide its exit
/// code. Its printed figures are then checked against the Rust API for the
/// same inputs, so a wrapper that passed arguments in the wrong order or a
/// summary that misreads a result fails here.
#[test]
fn cpp_frontier_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = out_dir("cpp-examples");
    let exe = build(&root.join("examples/cpp/frontier.cpp"), &out, &[], false);
    let stdout = run_output(&exe, &[], &[], &[]);

    // Indexing queue: N = 16 fetchers, K = 10, lambda = 1, mu = 10, gamma = 5.
    let sol = crawlsched::robots::solve(
        &crawlsched::robots::Params::new(16, 10, 1.0, 10.0, 5.0).unwrap(),
    )
    .unwrap();
    let exact = line_with(&stdout, "optimal switching curve");
    let n_mean = number_after(exact, "mean");
    assert!(
        (n_mean - sol.performance.n_mean).abs() < 1e-4,
        "printed N-bar {n_mean}, Rust API {}",
        sol.performance.n_mean
    );
    assert!((number_after(exact, "cost") - sol.performance.cost).abs() < 1e-4);
    let sim = number_after(line_with(&stdout, "simulated ("), "mean");
    assert!(
        (sim - n_mean).abs() < 0.03 * n_mean,
        "simulated mean fetchers {sim}, exact {n_mean}"
    );

    // Scheduler: targets are the optimal frequencies; a golden-ratio cycle of
    // F fetches realises every share within 2/F of its frequency (pages below
    // one fetch per cycle take turns at pooled positions).
    let sched = line_with(&stdout, "scheduler: targets equal");
    assert!(number_after(sched, "frequencies to") < 1e-12, "{sched}");
    let within = number_after(
        line_with(&stdout, "realised shares are within"),
        "are within",
    );
    assert!((0.0..=2.0).contains(&within), "{within}/F");

    // Fetcher hosts: the simulated rejections agree with the exact cost.
    let exact_rej = number_after(line_with(&stdout, "optimal period"), ",");
    let sim_line = line_with(&stdout, "streaming router");
    let (sim_rej, se) = (
        number_after(sim_line, "requests:"),
        number_after(sim_line, "+-"),
    );
    assert!(
        (sim_rej - exact_rej).abs() <= 4.0 * se + 0.1,
        "{sim_line} vs {exact_rej}%"
    );
}

const ASAN_FLAGS: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=undefined",
    "-fno-omit-frame-pointer",
];

/// Whether the compiler can link an ASan/UBSan program here.
fn asan_available(out: &Path) -> bool {
    let probe = out.join("probe.c");
    std::fs::write(&probe, "int main(void) { return 0; }\n").expect("write probe");
    let mut cmd = compiler(false).to_command();
    cmd.args(ASAN_FLAGS)
        .arg(&probe)
        .arg("-o")
        .arg(out.join("probe"));
    cmd.output().is_ok_and(|o| o.status.success())
}

/// Every C/C++ test program and C/C++ example under ASan + UBSan + LSan.
#[test]
fn c_programs_under_address_and_undefined_sanitizers() {
    let out = out_dir("c-tests-asan");
    if !asan_available(&out) {
        assert!(
            !on_ci(),
            "CI needs a compiler with -fsanitize=address,undefined (libasan, libubsan)"
        );
        eprintln!("skipped: the C compiler cannot link -fsanitize=address,undefined");
        return;
    }
    let mut env = SMALL.to_vec();
    // Any report fails the program; leaks are reported at exit.
    env.push((
        "ASAN_OPTIONS",
        "detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=23",
    ));
    env.push((
        "UBSAN_OPTIONS",
        "halt_on_error=1:print_stacktrace=1:exitcode=24",
    ));
    env.push(("LSAN_OPTIONS", "exitcode=25"));
    for src in sources(true) {
        run_output(
            &build(&src, &out, ASAN_FLAGS, true),
            &[],
            small_args(&src),
            &env,
        );
    }
}

/// Every C/C++ test program and C/C++ example under valgrind memcheck.
#[test]
fn c_programs_under_valgrind_memcheck() {
    let have = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(!on_ci(), "CI needs valgrind (apt-get install -y valgrind)");
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    let out = out_dir("c-tests-valgrind");
    let vg = [
        "valgrind",
        "-q",
        "--error-exitcode=1",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite",
        "--show-leak-kinds=definite",
    ];
    for src in sources(true) {
        run_output(&build(&src, &out, &[], true), &vg, small_args(&src), SMALL);
    }
}
