#!/usr/bin/env bash
# Runs job.py under torchrun with worker output prefixed, the way a user's console or a pod's log shows it:
# --tee 3 (torchrun's default "[default0]:" prefix), and a prefix template (TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE;
# torch 2.11's torchrun has no command-line option for it). NCCL_DEBUG=INFO goes to each worker's stdout (no
# NCCL_DEBUG_FILE), so NCCL's own lines carry the prefix too. VARIANTS="a b" runs only those.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-./out}/cap"; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
{ date -u; uname -r; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv; torchrun --help | grep -A3 -e '--tee' -e 'log-line-prefix' ; } > "$out/env.txt" 2>&1
run() { # variant mode timeout [VAR=value...] -- torchrun-options...
  local v=$1 mode=$2 t=$3; shift 3
  case " ${VARIANTS:-$v} " in *" $v "*) ;; *) return ;; esac
  local vars=(); while [ "$1" != "--" ]; do vars+=("$1"); shift; done; shift
  local work; work=$(mktemp -d /tmp/cap.XXXX)
  mkdir -p "$out/$v"
  ( cd "$work" && env "${vars[@]}" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV,BOOTSTRAP CAPTURE_TIMEOUT_S=20 TORCH_NCCL_ASYNC_ERROR_HANDLING=1 \
      timeout "$t" torchrun --standalone --nproc-per-node 2 "$@" "$here/job.py" "$mode" \
      > "$out/$v/torchrun-stdout.log" 2> "$out/$v/torchrun-stderr.log"; echo "torchrun exit $?" >> "$out/$v/torchrun-stdout.log" )
  rm -rf "$work"
}
run tee-rank-killed kill 150 -- --tee 3
run tee-collective-timeout stall 200 -- --tee 3
run template-rank-killed kill 150 'TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE=[${role_name}${rank}|${local_rank}]:' -- --tee 3
run global-rank-collective-timeout stall 200 'TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE=[${rank}]:' -- --tee 3
ls -laR "$out" > "$out/listing.txt"
cd "${OUT:-./out}" && tar czf cap.tgz cap && rm -rf cap
