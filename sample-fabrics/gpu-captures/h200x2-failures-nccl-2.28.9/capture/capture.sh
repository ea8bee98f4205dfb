#!/usr/bin/env bash
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-./out}/cap"; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
{ date -u; uname -r; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv; ip -o link; ls /sys/class/infiniband 2>&1; } > "$out/env.txt" 2>&1
run() { # variant mode timeout extra-env...
  local v=$1 mode=$2 t=$3; shift 3
  local work; work=$(mktemp -d /tmp/cap.XXXX)
  mkdir -p "$out/$v"
  ( cd "$work" && env "$@" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV,BOOTSTRAP NCCL_DEBUG_FILE="$work/nccl.%h.%p.log" \
      CAPTURE_TIMEOUT_S=20 TORCH_NCCL_ASYNC_ERROR_HANDLING=1 timeout "$t" torchrun --standalone --nproc-per-node 2 "$here/job.py" "$mode" \
      > "$out/$v/torchrun-stdout.log" 2> "$out/$v/torchrun-stderr.log"; echo "torchrun exit $?" >> "$out/$v/torchrun-stdout.log" )
  cp "$work"/nccl.*.log "$out/$v/" 2>/dev/null
  rm -rf "$work"
}
run wrong-ifname normal 90 NCCL_SOCKET_IFNAME=net1
run rank-killed kill 150
run no-rdma-device normal 90 NCCL_NET=IB
ls -laR "$out" > "$out/listing.txt"
cd "${OUT:-./out}" && tar czf cap.tgz cap && rm -rf cap
