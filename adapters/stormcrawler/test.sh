#!/usr/bin/env bash
# Tests the StormCrawler adapter: installs the Java binding into ~/.m2
# (bindings/java, tests skipped: scripts/test runs them), then `mvn test`
# here: the unit tests and the comparison crawl against
# adapters/testsite/site.py (about 90 s: nine StormCrawler topologies in
# an in-process Storm LocalCluster, nine site processes, python3).
# Assumes the release library is built (target/release, `cargo build
# --release --lib`); StormCrawler 2.4 and Storm 2.4 come from Maven Central.
# Installs python3, a JDK and Maven if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
need() { command -v "$1" >/dev/null 2>&1; }
if ! need python3 || ! need mvn || ! need javac; then
    echo "adapters/stormcrawler/test.sh: installing python3, a JDK and Maven" >&2
    ${SUDO:-} apt-get update -qq && ${SUDO:-} apt-get install -y -qq python3 default-jdk-headless maven >/dev/null
fi
# (Debian's Maven 3.8 prints stray colour resets even in batch mode: stripped.)
mvnq() { mvn -B -q "$@" 2>&1 | sed 's/\x1b\[0m//g'; }
(cd bindings/java && mvnq install -DskipTests)
cd adapters/stormcrawler
rm -rf target/surefire-reports
# (grep -v exits 1 when it prints nothing: only mvn's status counts.)
mvnq test | { grep -v 'RobotRulesParser - No agents listed' || true; }
cat target/surefire-reports/TEST-*.xml | awk '
    /<testsuite / { for (k in a) delete a; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) { gsub(/"/, "", kv[2]); a[kv[1]] = kv[2] }
                    for (k in a) if (k ~ /^(tests|failures|errors|skipped)$/) n[k] += a[k] }
    END { printf "stormcrawler adapter: %d passed, %d failed\n", n["tests"] - n["failures"] - n["errors"] - n["skipped"], n["failures"] + n["errors"]; exit (n["failures"] + n["errors"] > 0) }'
