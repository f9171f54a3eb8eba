#!/usr/bin/env bash
# Call overhead of the Java binding (JNA direct mapping): ns per call of a
# no-op, a getter, Scheduler.next/nextBatch, Router.next and a failing call.
# Not run by CI (scripts/test runs the smoke mode). From the repository root:
#   bash bench/java/run.sh --bench   # ~1 minute on a quiet machine
# (without --bench: a quick smoke run that writes nothing)
# Writes bench/results/java_calls.json. Needs a JDK 17+ and Maven.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet --release --lib
(cd bindings/java && mvn -B -q install -DskipTests \
    && mvn -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/classpath.txt) 2>&1 | sed 's/\x1b\[0m//g'
cp="bindings/java/target/crawlsched-0.2.0.jar:$(cat bindings/java/target/classpath.txt)"
java -cp "$cp" -Djna.library.path=target/release bench/java/CallOverhead.java "$@"
