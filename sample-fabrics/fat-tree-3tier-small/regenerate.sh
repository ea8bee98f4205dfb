#!/usr/bin/env bash
# Regenerates sample-fabrics/fat-tree-3tier-small/ from scratch with the real
# simulator: net file + faults + fabric.json (gen-fat-tree.py, seed 53),
# captures (capture.sh) and expected.json (summarize-capture.py).
# Needs: python3, and the packages installed by .ci/install-sim.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS="$HERE/../tools"

python3 "$TOOLS/gen-fat-tree.py" --seed 53 --tiers 3 --size small --faults 4 --out "$HERE"

rm -f "$HERE"/ibnetdiscover*.txt "$HERE"/iblinkinfo*.txt "$HERE"/perfquery*.txt \
      "$HERE"/ibqueryerrors*.txt "$HERE"/nodes.tsv
bash "$TOOLS/capture.sh" "$HERE/fabric.net" "$HERE" "$HERE/faults.txt"

python3 - "$HERE/fabric.json" "$HERE/.design.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keep = ["generator", "seed", "tiers", "size", "speed", "switchModel", "switchPorts", "parameters", "counts", "expected"]
json.dump({"design": {k: d[k] for k in keep}}, open(sys.argv[2], "w"))
PY
python3 "$TOOLS/summarize-capture.py" "$HERE/fabric.net" "$HERE" "$HERE/faults.txt" \
    --name fat-tree-3tier-small --extra "$HERE/.design.json" >"$HERE/expected.json"
rm -f "$HERE/.design.json"
echo "regenerate: wrote $HERE/expected.json"
