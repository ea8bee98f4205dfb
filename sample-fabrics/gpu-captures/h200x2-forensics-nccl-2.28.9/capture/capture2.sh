#!/usr/bin/env bash
# Second pass: flight recorder JSON dumps with TORCH_NCCL_ENABLE_TIMING=1, and NCCL RAS (python client and
# /usr/bin/ncclras) while a job hangs and after the stalled rank is killed (ranks launched without torchrun).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:?OUT}"
W=$(mktemp -d /tmp/cap.XXXX)
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
ts() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
exec > >(tee -a "$OUT/capture2-log.txt") 2>&1
{ ncclras --version; ncclras --help; dpkg -S /usr/bin/ncclras; dpkg -l | grep -i nccl; } > "$OUT/ncclras-version.txt" 2>&1
cat "$OUT/ncclras-version.txt"
COMMON=(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET,RAS TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_FR_BUFFER_SIZE=2000
  TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_NCCL_ASYNC_ERROR_HANDLING=1 TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC=10000 TORCH_NCCL_ENABLE_TIMING=1)
waitstall() { for _ in $(seq 1 240); do [ -f "$1/stall-started" ] && return 0; sleep 0.5; done; return 1; }
ras() { timeout 40 python3 "$here/ras_query.py" "$1/$2" "$3" "$4" 28028 5 2>> "$1/ras-client.log"; ts "ras $2 rc=$?"; }
ncclras_q() { local d=$1 name=$2; shift 2; timeout 40 ncclras -t 5 "$@" > "$d/$name" 2>> "$d/ncclras-stderr.log"; ts "ncclras $* -> $name rc=$?"; }

D=$W/fr-hang-timing; mkdir -p "$D/fr"; ts "fr-hang-timing"
( cd "$D" && env "${COMMON[@]}" NCCL_DEBUG_FILE="$D/nccl.%h.%p.log" TORCH_FR_DUMP_TEMP_FILE="$D/fr/nccl_trace_rank_" \
    TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$D/fr/nccl_trace_rank_" CAPTURE_DIR="$D" CAPTURE_TIMEOUT_S=25 CAPTURE_STALL_S=70 \
    timeout 200 torchrun --standalone --nproc-per-node 2 "$here/fr_job.py" hang > "$D/torchrun-stdout.log" 2>&1
  echo "torchrun exit $?" >> "$D/torchrun-stdout.log" ) &
JOB=$!
if waitstall "$D"; then sleep 5; ncclras_q "$D" ncclras-hung.txt; ncclras_q "$D" ncclras-hung-v.json -v -f json; fi
wait $JOB; ts "fr-hang-timing done"; ls -la "$D" "$D/fr"

D=$W/ras-dead; mkdir -p "$D"; ts "ras-dead"
pids=()
for r in 0 1; do
  ( cd "$D" && exec env "${COMMON[@]}" NCCL_DEBUG_FILE="$D/nccl.%h.%p.log" MASTER_ADDR=127.0.0.1 MASTER_PORT=29577 WORLD_SIZE=2 \
      RANK=$r LOCAL_RANK=$r CAPTURE_DIR="$D" CAPTURE_TIMEOUT_S=150 CAPTURE_STALL_S=200 \
      timeout 170 python3 "$here/fr_job.py" rasdead > "$D/rank$r.log" 2>&1 ) &
  pids+=($!)
done
if waitstall "$D"; then
  sleep 4; ras "$D" ras-hung.txt text plain; ras "$D" ras-hung-verbose.json json verbose
  victim=$(cat "$D/stall-started"); ts "kill -9 rank 1 python pid $victim"; kill -9 "$victim"
  sleep 2; ras "$D" ras-after-kill.txt text plain; ras "$D" ras-after-kill-verbose.txt text verbose
  ras "$D" ras-after-kill.json json plain; ras "$D" ras-after-kill-verbose.json json verbose
  ncclras_q "$D" ncclras-after-kill-v.txt -v
  sleep 12; ras "$D" ras-after-kill-20s-verbose.txt text verbose; ras "$D" ras-after-kill-20s-verbose.json json verbose
fi
kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; ts "ras-dead done"; ls -la "$D"
for d in fr-hang-timing ras-dead; do tar -czf "$OUT/$d.tar.gz" -C "$W" "$d"; done
ls -la "$OUT"; ts "end"
