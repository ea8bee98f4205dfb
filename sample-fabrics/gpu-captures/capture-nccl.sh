#!/usr/bin/env bash
# Captures a real NCCL topology dump, graph dump and NCCL_DEBUG=INFO log on a GPU host, the way
# shared/reference/nccl-logs/h200x2-nccl-2.28.9 was made: allreduce.py under torchrun with
# NCCL_TOPO_DUMP_FILE and NCCL_GRAPH_DUMP_FILE set. Writes into OUT (default ./out).
# Usage: bash capture-nccl.sh [OUT] [NPROC]   (NPROC defaults to the number of GPUs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-./out}"
nproc="${2:-$(nvidia-smi -L | wc -l)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  nvidia-smi -L
  nvidia-smi
  nvidia-smi topo -m
} > "$out/nvidia-smi.txt" 2>&1 || true
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel: $(uname -r)"
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
  ls /sys/class/infiniband 2>/dev/null | sed 's/^/ib device: /' || true
  command -v ibv_devinfo >/dev/null && ibv_devinfo -l 2>&1 || echo "ibv_devinfo: not installed"
} > "$out/env.txt" 2>&1
cd "$work"
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV,P2P,SHM NCCL_DEBUG_FILE="$work/nccl.%h.%p.log" \
NCCL_TOPO_DUMP_FILE="$out/topo.xml" NCCL_GRAPH_DUMP_FILE="$out/graph.xml" CAPTURE_TIMEOUT_S=120 \
  timeout 300 torchrun --standalone --nproc-per-node "$nproc" "$here/allreduce.py" normal > "$out/torchrun-stdout.log" 2>&1 || echo "torchrun exit $?" >> "$out/torchrun-stdout.log"
# one rank's NCCL log is enough to keep (rank 0 writes the dumps)
first=$(ls "$work"/nccl.*.log 2>/dev/null | head -n 1 || true)
[ -n "$first" ] && cp "$first" "$out/$(basename "$first")"
ls -la "$out"
