"""Writes a file:// Go module proxy holding one version of a module made
from a directory, as `go mod download` would get it from proxy.golang.org
(the module zip layout of golang.org/ref/mod#zip-files).
Usage: make_proxy.py PROXY_DIR MODULE_PATH VERSION SOURCE_DIR"""

import json
import pathlib
import sys
import zipfile

proxy, module, version, source = sys.argv[1:]
source = pathlib.Path(source)
base = pathlib.Path(proxy) / module / "@v"
base.mkdir(parents=True, exist_ok=True)
files = sorted(
    p for p in source.rglob("*")
    if p.is_file() and not any(part.startswith(".") for part in p.relative_to(source).parts)
)
with zipfile.ZipFile(base / f"{version}.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for p in files:
        z.write(p, f"{module}@{version}/{p.relative_to(source).as_posix()}")
(base / f"{version}.mod").write_bytes((source / "go.mod").read_bytes())
(base / f"{version}.info").write_text(json.dumps({"Version": version, "Time": "2026-11-24T00:00:00Z"}))
(base / "list").write_text(version + "\n")
