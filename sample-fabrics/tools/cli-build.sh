#!/usr/bin/env bash
# cli-build.sh DIR: copies the built CLI (app/target/fabricscope-app.jar and lib/) into DIR and makes its class-data
# archive DIR/cli.jsa from the launcher's own training run, so that builds can be timed side by side
# (cli-alternate.py). Run from the repository root after ./mvnw -B install -DskipTests.
set -euo pipefail
d=$1
rm -rf "$d"; mkdir -p "$d"
cp app/target/fabricscope-app.jar "$d/"; cp -r app/target/lib "$d/"
s=sample-fabrics/rail-2su-hdr
training=("$s"/ibnetdiscover.txt "$s"/iblinkinfo.txt "$s"/ibqueryerrors.txt "$s"/perfquery-*.txt "$s"/hosts
  sample-fabrics/gpu-captures/h200x2-forensics-nccl-2.28.9/hang)
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:off -XX:DumpLoadedClassList="$d/cl.txt" \
  -jar "$d/fabricscope-app.jar" diagnose --json "${training[@]}" >/dev/null 2>&1 || true
java -XX:+UseSerialGC -Xshare:dump -XX:SharedClassListFile="$d/cl.txt" -XX:SharedArchiveFile="$d/cli.jsa" \
  -cp "$d/fabricscope-app.jar" >/dev/null 2>&1
echo "$d/cli.jsa"
