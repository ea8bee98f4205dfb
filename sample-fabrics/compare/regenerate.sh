#!/usr/bin/env bash
# Regenerates sample-fabrics/compare/fat-tree-before/ with the real simulator: the fabric of
# ../fat-tree-3tier-small/ (same fabric.net) before its incident, with the faults of
# fat-tree-before.faults (every cable plugged in, fewer symbol errors).
# Needs: the packages installed by .ci/install-sim.sh. Then rewrite the golden files:
#   ./mvnw -B -o -pl sample-fabrics -am test -Dtest=CompareCapturesTest -Dfabricscope.golden.rewrite=true
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$HERE/fat-tree-before"
bash "$HERE/../tools/capture.sh" "$HERE/../fat-tree-3tier-small/fabric.net" "$HERE/fat-tree-before" \
    "$HERE/fat-tree-before.faults"
