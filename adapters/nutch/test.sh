#!/usr/bin/env bash
# Tests the Nutch adapter: installs the Java binding (io.crawlsched:crawlsched
# 0.2.0, into ~/.m2), then mvn test: unit tests of the FetchSchedule and
# PlanTool, Nutch's own jobs in Hadoop local mode with the schedule (about
# 15 s), and the freshness comparison through Nutch's own jobs (Injector,
# Generator, Fetcher, CrawlDb update; about 4 min) against Nutch 1.22's
# DefaultFetchSchedule on adapters/testsite/site.py (python3). About 4 min
# 30 s in all. Assumes the release library is built (target/release,
# `cargo build --release --lib`). Nutch and Hadoop come from Maven Central.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null 2>&1; then
    echo "adapters/nutch/test.sh: installing python3 (the test site)" >&2
    ${SUDO:-} apt-get update -qq && ${SUDO:-} apt-get install -y -qq python3 >/dev/null
fi
mvnq() { mvn -B -q "$@" 2>&1 | sed 's/\x1b\[0m//g'; }
(cd bindings/java && mvnq install -DskipTests)
cd adapters/nutch
# NUTCH_COMPARE_SEED=N: the test site's seed for the comparison (default 7)
mvnq test ${NUTCH_COMPARE_SEED:+-Dnutch.compare.seed=$NUTCH_COMPARE_SEED}
