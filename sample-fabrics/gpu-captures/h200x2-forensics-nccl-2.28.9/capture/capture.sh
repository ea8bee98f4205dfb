#!/usr/bin/env bash
# Hang forensics captures on a 2-GPU host: flight recorder dumps (pickle + JSON) of a real hang and of a
# size mismatch, NCCL RAS status (text/JSON, plain/verbose) while a job hangs and after one rank is killed,
# nccl-tests output (text and -J JSON; one run with a deliberately corrupted result). Writes tarballs to OUT.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:?OUT}"
W=$(mktemp -d /tmp/cap.XXXX)
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
ts() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
exec > >(tee -a "$OUT/capture-log.txt") 2>&1

ts "env"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "kernel: $(uname -r)"; nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
  python3 -c 'import torch; c=torch._C._distributed_c10d; print("c10d dump functions:", [n for n in dir(c) if "dump" in n.lower() or "trace" in n.lower()])'
  python3 -m pip list 2>/dev/null | grep -i -E 'nccl|torch|nvidia-cuda' ; command -v nvcc; nvcc --version 2>&1 | tail -2
  echo "ncclras binaries:"; find / -xdev -name 'ncclras*' 2>/dev/null | head
} > "$W/env.txt" 2>&1
cat "$W/env.txt"

# ---- nccl-tests build in the background
NCCL_DIR=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
if [ ! -f "$NCCL_DIR/include/nccl.h" ]; then
  lib=$(find / -xdev -name 'libnccl.so.2' 2>/dev/null | head -1); NCCL_DIR=$(dirname "$(dirname "$lib")")
fi
NH=$W/ncclhome; mkdir -p "$NH/lib"; ln -s "$NCCL_DIR/include" "$NH/include"
ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so"; ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so.2"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
CUDA_LIB=$CUDA_HOME/lib64; [ -d "$CUDA_LIB" ] || CUDA_LIB=$CUDA_HOME/lib
echo "NCCL_DIR=$NCCL_DIR CUDA_HOME=$CUDA_HOME CUDA_LIB=$CUDA_LIB"; ls "$NCCL_DIR/include" "$NCCL_DIR/lib"
cp -r "$here/nccl-tests" "$W/nt-src"
( timeout 420 make -C "$W/nt-src/src" -j24 MPI=0 CUDA_HOME="$CUDA_HOME" CUDA_LIB="$CUDA_LIB" NCCL_HOME="$NH" \
    NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" \
    BIN_FILES_LIST="all_reduce all_gather reduce_scatter sendrecv alltoall" build > "$W/nt-build.log" 2>&1
  echo "build exit $?" >> "$W/nt-build.log" ) &
BUILD=$!
gcc -shared -fPIC -o "$W/libcorrupt.so" "$here/corrupt.c" -ldl

COMMON=(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET,RAS TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_FR_BUFFER_SIZE=2000
  TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_NCCL_ASYNC_ERROR_HANDLING=1 TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC=10000)
waitstall() { for _ in $(seq 1 240); do [ -f "$1/stall-started" ] && return 0; sleep 0.5; done; return 1; }
ras() { # dir name fmt verbosity
  timeout 40 python3 "$here/ras_query.py" "$1/$2" "$3" "$4" 28028 5 2>> "$1/ras-client.log"; ts "ras $2 rc=$?"
}

# ---- (a) hang under torchrun: flight recorder dump on timeout + RAS while hung
D=$W/fr-hang; mkdir -p "$D/fr"; ts "fr-hang"
( cd "$D" && env "${COMMON[@]}" NCCL_DEBUG_FILE="$D/nccl.%h.%p.log" TORCH_FR_DUMP_TEMP_FILE="$D/fr/nccl_trace_rank_" \
    TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$D/fr/nccl_trace_rank_" CAPTURE_DIR="$D" CAPTURE_TIMEOUT_S=30 CAPTURE_STALL_S=75 \
    timeout 200 torchrun --standalone --nproc-per-node 2 "$here/fr_job.py" hang > "$D/torchrun-stdout.log" 2>&1
  echo "torchrun exit $?" >> "$D/torchrun-stdout.log" ) &
JOB=$!
if waitstall "$D"; then sleep 6; ras "$D" ras-status.txt text plain; ras "$D" ras-status-verbose.txt text verbose
  ras "$D" ras-status.json json plain; ras "$D" ras-status-verbose.json json verbose; fi
wait $JOB; ts "fr-hang done"; ls -la "$D" "$D/fr"

# ---- (b) RAS: hang, then kill the stalled rank (no torchrun, so the survivor stays up)
D=$W/ras-dead; mkdir -p "$D"; ts "ras-dead"
pids=()
for r in 0 1; do
  ( cd "$D" && env "${COMMON[@]}" NCCL_DEBUG_FILE="$D/nccl.%h.%p.log" MASTER_ADDR=127.0.0.1 MASTER_PORT=29577 WORLD_SIZE=2 \
      RANK=$r LOCAL_RANK=$r CAPTURE_DIR="$D" CAPTURE_TIMEOUT_S=150 CAPTURE_STALL_S=200 \
      exec timeout 170 python3 "$here/fr_job.py" rasdead > "$D/rank$r.log" 2>&1 ) &
  pids+=($!)
done
if waitstall "$D"; then
  sleep 4; ras "$D" ras-hung.txt text plain; ras "$D" ras-hung-verbose.json json verbose
  victim=$(cat "$D/stall-started"); ts "kill -9 rank 1 python pid $victim"; kill -9 "$victim"
  sleep 2; ras "$D" ras-after-kill.txt text plain; ras "$D" ras-after-kill-verbose.txt text verbose
  ras "$D" ras-after-kill.json json plain; ras "$D" ras-after-kill-verbose.json json verbose
  sleep 15; ras "$D" ras-after-kill-20s-verbose.txt text verbose; ras "$D" ras-after-kill-20s-verbose.json json verbose
fi
kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; ts "ras-dead done"; ls -la "$D"

# ---- (c) size mismatch under torchrun
D=$W/fr-mismatch; mkdir -p "$D/fr"; ts "fr-mismatch"
( cd "$D" && env "${COMMON[@]}" NCCL_DEBUG_FILE="$D/nccl.%h.%p.log" TORCH_FR_DUMP_TEMP_FILE="$D/fr/nccl_trace_rank_" \
    TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$D/fr/nccl_trace_rank_" CAPTURE_DIR="$D" CAPTURE_TIMEOUT_S=20 \
    timeout 150 torchrun --standalone --nproc-per-node 2 "$here/fr_job.py" mismatch > "$D/torchrun-stdout.log" 2>&1
  echo "torchrun exit $?" >> "$D/torchrun-stdout.log" )
ts "fr-mismatch done"; ls -la "$D" "$D/fr"

# ---- (d) nccl-tests
ts "waiting for nccl-tests build"; wait $BUILD; tail -5 "$W/nt-build.log"; ts "build done"
B=$W/nt-src/build; N=$W/nccl-tests; mkdir -p "$N"; cp "$W/nt-build.log" "$N/build.log"
export LD_LIBRARY_PATH="$NH/lib:$CUDA_LIB:${LD_LIBRARY_PATH:-}"
nt() { local name=$1; shift; ts "nccl-tests $name"; timeout 90 "$@" > "$N/$name.txt" 2>&1; echo "$name exit $?" >> "$N/exit-codes.txt"; tail -4 "$N/$name.txt"; }
if [ -x "$B/all_reduce_perf" ]; then
  nt all_reduce_perf-g2 "$B/all_reduce_perf" -b 8 -e 256M -f 2 -g 2
  nt all_reduce_perf-g1 "$B/all_reduce_perf" -b 8 -e 256M -f 2 -g 1
  nt all_reduce_perf-g2-json "$B/all_reduce_perf" -b 8 -e 256M -f 2 -g 2 -J "$N/all_reduce_perf-g2.json"
  nt all_reduce_perf-g2-wrong env LD_PRELOAD="$W/libcorrupt.so" CORRUPT_MIN_COUNT=262144 "$B/all_reduce_perf" -b 64K -e 16M -f 2 -g 2
  nt all_gather_perf-g2 "$B/all_gather_perf" -b 1K -e 64M -f 4 -g 2
  nt reduce_scatter_perf-g2-C-S "$B/reduce_scatter_perf" -b 1K -e 64M -f 4 -g 2 -C 1 -S 1
  nt sendrecv_perf-g2 "$B/sendrecv_perf" -b 1K -e 64M -f 4 -g 2
  nt alltoall_perf-g2-I "$B/alltoall_perf" -b 1K -e 16M -f 4 -g 2 -I 1
fi
ts "tar"
cp "$W/env.txt" "$OUT/env.txt"
for d in fr-hang ras-dead fr-mismatch nccl-tests; do tar -czf "$OUT/$d.tar.gz" -C "$W" "$d"; done
ls -la "$OUT"; ts "end"
