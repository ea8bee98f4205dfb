#!/usr/bin/env bash
# A rank that stalls past the process group's timeout, captured as a user's run prints it, in variants that the
# earlier captures did not cover: the flight recorder's dump on timeout off (TORCH_NCCL_DUMP_ON_TIMEOUT=0: no rank
# answers the timeout with its progress), the stalled rank being rank 0, a rank that never comes back, a subgroup,
# and torchrun's per-worker log files (--redirects 3 --log-dir). VARIANTS="a b" runs only those.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-./out}/cap"; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
{ date -u; uname -r; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv; } > "$out/env.txt" 2>&1
run() { # variant kill-after-s [VAR=value...] -- torchrun-options...
  local v=$1 t=$2; shift 2
  case " ${VARIANTS:-$v} " in *" $v "*) ;; *) return ;; esac
  local vars=(); while [ "$1" != "--" ]; do vars+=("$1"); shift; done; shift
  local work; work=$(mktemp -d /tmp/cap.XXXX)
  mkdir -p "$out/$v"
  ( cd "$work" && env "${vars[@]}" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV TORCH_NCCL_ASYNC_ERROR_HANDLING=1 \
      timeout "$t" torchrun --standalone --nproc-per-node "${NPROC:-2}" "$@" "$here/job.py" \
      > "$out/$v/torchrun-stdout.log" 2> "$out/$v/torchrun-stderr.log"; echo "torchrun exit $?" >> "$out/$v/torchrun-stdout.log"
    [ -d logs ] && cp -r logs "$out/$v/" )
  rm -rf "$work"
}
# rank 1 sleeps 45 s, timeout 15 s, no dump signal
run dump-off-rank1-late 150 TORCH_NCCL_DUMP_ON_TIMEOUT=0 CAPTURE_TIMEOUT_S=15 STALL_RANK=1 STALL_S=45 --
# rank 0 is the one that stalls, no dump signal, each worker's output in its own files
run dump-off-rank0-late-log-dir 150 TORCH_NCCL_DUMP_ON_TIMEOUT=0 CAPTURE_TIMEOUT_S=20 STALL_RANK=0 STALL_S=60 -- --redirects 3 --log-dir logs
# rank 1 never comes back (it is still asleep when torchrun tears the job down), no dump signal
run dump-off-rank1-gone 150 TORCH_NCCL_DUMP_ON_TIMEOUT=0 CAPTURE_TIMEOUT_S=20 STALL_RANK=1 STALL_S=400 --
# rank 0 stalls on a subgroup's collective, the dump on timeout left at its default
run subgroup-rank0-late 150 GROUP=tp CAPTURE_TIMEOUT_S=20 STALL_RANK=0 STALL_S=50 --
# 4 workers on the 2 GPUs in two NCCL subgroups {0,1} and {2,3}: rank 3 (rank 1 of its subgroup) stalls, so rank 2's
# watchdog fires, and ranks 0 and 1, in the other subgroup, finish their steps
NPROC=4 run subgroups-rank3-late 150 GROUP=tp-split CAPTURE_TIMEOUT_S=20 STALL_RANK=3 STALL_S=50 --
ls -laR "$out" > "$out/listing.txt"
cd "${OUT:-./out}" && tar czf cap.tgz cap && rm -rf cap
