#!/usr/bin/env bash
# Regenerates every file of sample-fabrics/rail-2su-hdr/ (except README.md,
# expected.json, faults.txt, capture-extra.cmds and variants/node-name-map.txt,
# which are written by hand) from scratch with the real simulator.
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
