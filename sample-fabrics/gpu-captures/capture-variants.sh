#!/usr/bin/env bash
# Captures the NCCL transports and failures a single 2-GPU host can show, with allreduce.py under
# torchrun and NCCL_DEBUG=INFO: "shm" (NCCL_P2P_DISABLE=1: ranks talk through host shared memory)
# and "hang" (the last rank stalls; the others' ProcessGroupNCCL watchdog times out after
# CAPTURE_TIMEOUT_S=20 s and torchrun reports the failure). Writes OUT/<variant>/.
# Usage: bash capture-variants.sh [OUT]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-./out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))' > "$out/env.txt" 2>&1
nvidia-smi -L >> "$out/env.txt" 2>&1
run() { # variant mode extra-env...
  local v=$1 mode=$2; shift 2
  local work; work=$(mktemp -d)
  mkdir -p "$out/$v"
  ( cd "$work" && env "$@" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV,P2P,SHM NCCL_DEBUG_FILE="$work/nccl.%h.%p.log" \
      CAPTURE_TIMEOUT_S=20 timeout 240 torchrun --standalone --nproc-per-node 2 "$here/allreduce.py" "$mode" \
      > "$out/$v/torchrun-stdout.log" 2>&1; echo "torchrun exit $?" >> "$out/$v/torchrun-stdout.log" )
  cp "$work"/nccl.*.log "$out/$v/" 2>/dev/null
  rm -rf "$work"
}
run shm normal NCCL_P2P_DISABLE=1
run hang hang TORCH_NCCL_ASYNC_ERROR_HANDLING=1
ls -laR "$out"
