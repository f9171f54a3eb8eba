#!/usr/bin/env bash
# Tests the Colly adapter: go vet, then go test, whose comparison crawl
# (about 45 s) runs adapters/testsite/site.py with python3. Assumes the
# release library is built (target/release, `cargo build --release --lib`);
# scripts/go-env puts Go >= 1.24 on PATH and points pkg-config at it. Colly
# comes from the Go module proxy (go.sum pins it).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null 2>&1; then
    echo "adapters/colly/test.sh: installing python3 (the test site)" >&2
    ${SUDO:-} apt-get update -qq && ${SUDO:-} apt-get install -y -qq python3 >/dev/null
fi
. scripts/go-env
ensure_go
set_gocache
cd adapters/colly
go vet ./...
# -count=1: the comparison crawl runs every time (Go's test cache does not
# see the site script, which the test runs through python3).
go test -v -count=1 ./...
