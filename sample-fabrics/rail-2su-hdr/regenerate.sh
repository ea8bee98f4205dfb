#!/usr/bin/env bash
# Regenerates the net file, every capture and expected.json of
# sample-fabrics/rail-2su-hdr/ with the real simulator.  Hand-written inputs
# (README.md, faults.txt, capture-extra.cmds, variants/node-name-map.txt) are kept.
# Needs: python3, and the packages installed by .ci/install-sim.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS="$HERE/../tools"

python3 "$TOOLS/gen-rail-fabric.py" --sus 2 --rails 8 --hosts 16 --spines 8 --uplinks 2 \
    --speed HDR --degrade leaf-su1-r6:12 --out "$HERE/rail-2su-hdr.net"

# remove previous captures (keep hand-written inputs)
rm -f "$HERE"/ibnetdiscover*.txt "$HERE"/iblinkinfo*.txt "$HERE"/perfquery*.txt \
      "$HERE"/ibqueryerrors*.txt "$HERE"/nodes.tsv
find "$HERE/variants" -type f ! -name node-name-map.txt -delete 2>/dev/null || true

# tools attach (and OpenSM runs) from the first HCA of dgx-su1-h01, like an admin
# running the diags on a DGX
SIM_HOST="H-dgx-su1-h01-mlx5_0" CAPTURE_EXTRA="$HERE/capture-extra.cmds" \
    bash "$TOOLS/capture.sh" "$HERE/rail-2su-hdr.net" "$HERE" "$HERE/faults.txt"

# expected.json: numbers observed in this capture + fault locations
cat >"$HERE/.design.json" <<'JSON'
{"design": {"scalableUnits": 2, "railsPerSU": 8, "hostsPerSU": 16, "hcasPerHost": 8,
            "leafSwitches": 16, "spineSwitches": 8, "uplinksPerLeafSpinePair": 2,
            "switchModel": "MQM8700 (40 ports)", "speed": "HDR",
            "cablesDesigned": 512, "cablesUnplugged": 1}}
JSON
python3 "$TOOLS/summarize-capture.py" "$HERE/rail-2su-hdr.net" "$HERE" "$HERE/faults.txt" \
    --name rail-2su-hdr --extra "$HERE/.design.json" >"$HERE/expected.json"
rm -f "$HERE/.design.json"
echo "regenerate: wrote $HERE/expected.json"
