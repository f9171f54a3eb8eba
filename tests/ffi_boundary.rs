//! Every exported function body must go through the boundary helper
//! (`guard` or `guard_value` in src/ffi/common.rs), which catches panics,
//! converts errors and fills the caller's error struct.

#[test]
fn every_export_is_wrapped_by_the_boundary() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut checked = 0;
    let mut bypass = Vec::new();
    for entry in std::fs::read_dir(format!("{root}/src/ffi")).expect("src/ffi") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.contains("extern \"C\" fn ") {
                continue;
            }
            let name = line
                .split("fn ")
                .nth(1)
                .and_then(|r| r.split('(').next())
                .unwrap_or("?");
            // The previous line must export it under its own name.
            assert!(
                i > 0 && lines[i - 1].trim() == "#[unsafe(no_mangle)]",
                "{name}: exports are written `#[unsafe(no_mangle)]` on the line above"
            );
            // First statement of the body: the signature ends at the first line
            // ending in '{'; the next non-empty line must call the guard.
            let open = (i..lines.len())
                .find(|&j| lines[j].trim_end().ends_with('{'))
                .expect("body");
            let first = lines[open + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty())
                .unwrap_or("");
            if first.starts_with("guard(") || first.starts_with("guard_value(") {
                checked += 1;
            } else {
                bypass.push(format!("{}: {name} starts with `{first}`", path.display()));
            }
        }
    }
    assert!(
        bypass.is_empty(),
        "exports that bypass the boundary helper:\n{}",
        bypass.join("\n")
    );
    assert!(checked > 10, "found only {checked} exports");
}
