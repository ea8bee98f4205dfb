#!/usr/bin/env bash
# FabricScope slowness captures ("why is it slow"): a DDP job (slowjob.py) run as two "pods" on one 2-GPU host,
# healthy and with a straggler; the same job with the two pods' NCCL environments differing (env drift); and
# nccl-tests all_reduce_perf on the host with NCCL's transports switched off one by one.
# usage: OUT=/some/dir NT_SRC=/path/to/nccl-tests capture.sh [PHASE...]   (OUT gets slow.tar.gz and capture-log.txt)
# phases: main drift slow nccl-tests (the first pass, the default), slow2 silent (the second), slow3 (the third)
# The pods are made as in ../../incidents-h100x2-nccl-2.28.9/capture/capture.sh: each pod is one process tree in
# its own network namespace (podnet.py: veth pair, eth0 10.42.0.10 and .11), UTS and mount namespace (its own
# hostname trainer-worker-0 / trainer-worker-1 and an /etc/hosts naming both, bind-mounted), NCCL_HOSTID = the
# pod's name, one GPU each through CUDA_VISIBLE_DEVICES. Each pod's stdout+stderr go to <pod>.log (what
# `kubectl logs` gives); pods.txt records each pod's spec and exit status.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JOB="$here/slowjob.py"
RESULT="${OUT:?OUT}"
NT_SRC="${NT_SRC:-}"
W=$(mktemp -d /tmp/slow.XXXX)
R=$W/slow; mkdir -p "$R"
exec > >(tee -a "$R/capture-log.txt") 2>&1
ulimit -c 0
unset NCCL_DEBUG NCCL_DEBUG_SUBSYS NCCL_DEBUG_FILE NCCL_TOPO_DUMP_FILE TORCH_NCCL_ENABLE_TIMING
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC=10000   # default 60 s: how long a failing rank waits for its debug dump
T0=$(date +%s)
ts() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
el() { echo $(( $(date +%s) - T0 )); }
pack() { tar -czf "$RESULT/slow.tar.gz" -C "$W" slow 2>/dev/null; }

NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
GPU0=0; GPU1=1; [ "$NGPU" -lt 2 ] && GPU1=0
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; uname -a
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
  python3 -m pip list 2>/dev/null | grep -i -E '^(torch|nvidia-nccl|nvidia-cuda-runtime)'
  nvcc --version 2>&1 | tail -2
  nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id,compute_mode,pcie.link.gen.current,pcie.link.width.current --format=csv
  echo "--- CPUs: $(nproc)"; free -m
  echo "--- NCCL/TORCH env of the host"; env | grep -E '^(NCCL|TORCH|CUDA)_' | sort
  echo "--- interfaces"; ls /sys/class/net; ls /sys/class/infiniband 2>&1; } > "$R/env.txt" 2>&1
cat "$R/env.txt"
nvidia-smi -q > "$R/nvidia-smi-q.txt" 2>&1
nvidia-smi topo -m > "$R/nvidia-smi-topo-m.txt" 2>&1
nvidia-smi nvlink -s > "$R/nvidia-smi-nvlink-s.txt" 2>&1
ts "host facts done"

NETNS=0; IP0=""; IP1=""
if PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" up; then NETNS=1; IP0=10.42.0.10; IP1=10.42.0.11
else
  PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" down 2>/dev/null
  IP0=$(hostname -I 2>/dev/null | awk '{print $1}'); [ -n "$IP0" ] || IP0=127.0.0.1; IP1=$IP0
fi
HOSTS="$W/hosts"
printf '127.0.0.1\tlocalhost\n%s\ttrainer-worker-0.trainer.default.svc.cluster.local\ttrainer-worker-0\n%s\ttrainer-worker-1.trainer.default.svc.cluster.local\ttrainer-worker-1\n' "$IP0" "$IP1" > "$HOSTS"
NS=1; unshare --uts --mount true 2>/dev/null || { NS=0; cat "$HOSTS" >> /etc/hosts; }
{ echo "--- pod network namespaces: $NETNS (pod IPs $IP0 $IP1); UTS+mount namespaces: $NS"; cat "$HOSTS"; } >> "$R/env.txt"
ts "gpus=$NGPU netns=$NETNS ip0=$IP0 ip1=$IP1 ns=$NS"

PODSH='set -e
if [ "$POD_NS" = 1 ]; then
  echo "$POD_NAME" > /proc/sys/kernel/hostname
  mount --bind "$POD_HOSTS" /etc/hosts
fi
unset POD_NAME POD_HOSTS POD_NS
set +e
exec "$@"'

# start_pod DIR NAME GPU TIMEOUT VAR=VAL... -- CMD...   (in the background; PIDS collects it)
start_pod() {
  local dir=$1 name=$2 gpu=$3 t=$4; shift 4
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local ns=(); [ "$NETNS" = 1 ] && ns=(nsenter --net=/var/run/netns/$name); [ "$NS" = 1 ] && ns+=(unshare --uts --mount)
  echo "$name: CUDA_VISIBLE_DEVICES=$gpu NCCL_HOSTID=$name ${envs[*]} -- $*" >> "$dir/pods.txt"
  { local s; s=$(date +%s.%N)
    timeout -k 5 "$t" env "${envs[@]}" HOSTNAME="$name" NCCL_HOSTID="$name" CUDA_VISIBLE_DEVICES="$gpu" \
      POD_NS="$NS" POD_NAME="$name" POD_HOSTS="$HOSTS" "${ns[@]}" bash -c "$PODSH" pod "$@" > "$dir/$name.log" 2>&1
    local rc=$?
    echo "$name exit=$rc at $(date -u +%T.%N) after $(awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN{printf "%.1f", a-b}') s" >> "$dir/pods.txt"; } &
  PIDS+=($!)
}
wait_pods() { for p in "${PIDS[@]}"; do wait "$p"; done; PIDS=(); }
PIDS=()
W0=(RANK=0 WORLD_SIZE=2 LOCAL_RANK=0)
W1=(RANK=1 WORLD_SIZE=2 LOCAL_RANK=0)
M() { echo MASTER_ADDR=trainer-worker-0 MASTER_PORT=$1; }
BASE=(TORCH_DISTRIBUTED_DEBUG=OFF TORCH_NCCL_TRACE_BUFFER_SIZE=4000 TORCH_FR_BUFFER_SIZE=4000 STEPS=80)
TIMING=(TORCH_NCCL_ENABLE_TIMING=1)
INFO=(NCCL_DEBUG=INFO)

# ddp DIR PORT MODE TIMEOUT "ENV0..." "ENV1..."   (the two pods' extra environment, as words)
ddp() { local d=$1 p=$2 mode=$3 t=$4 e0=$5 e1=$6; mkdir -p "$d/fr"
  start_pod "$d" trainer-worker-0 $GPU0 "$t" "${W0[@]}" $(M $p) "${BASE[@]}" $e0 CAPTURE_FR_DIR="$d/fr" CAPTURE_NOTES="$d/notes-trainer-worker-0.json" -- python3 "$JOB" "$mode"
  start_pod "$d" trainer-worker-1 $GPU1 "$t" "${W1[@]}" $(M $p) "${BASE[@]}" $e1 CAPTURE_FR_DIR="$d/fr" CAPTURE_NOTES="$d/notes-trainer-worker-1.json" -- python3 "$JOB" "$mode"
}
summ() { ts "end $1: $(grep -o '[a-z0-9-]* exit=[0-9]* at [0-9:.]* after [0-9.?]*' "$R/$1/pods.txt" | tr '\n' ' ')"
  for f in "$R/$1"/trainer-worker-*.log; do echo "  $(basename "$f"): $(grep -c ' step [0-9]*/' "$f") steps; last: $(tail -1 "$f" | cut -c1-200)"; done; }
seq_sc() { local s=$1 p=$2 mode=$3 e0=$4 e1=$5
  if (( $(el) > ${6:-330} )); then ts "SKIP $s (deadline)"; return; fi
  ts "start $s"; ddp "$R/$s" "$p" "$mode" 100 "$e0" "$e1"; wait_pods; summ "$s"; pack; }

# --- 1. the DDP job, one scenario at a time (timings matter) ---
phase_main() {
seq_sc healthy                  29710 normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]}"
seq_sc healthy-quiet            29712 normal "${TIMING[*]}" "${TIMING[*]}"
seq_sc straggler-input          29714 input  "${TIMING[*]}" "${TIMING[*]}"
seq_sc straggler-gpu            29716 gpu    "${TIMING[*]}" "${TIMING[*]}"
seq_sc straggler-input-notiming 29718 input  "" ""
seq_sc healthy-notiming         29720 normal "" ""
}

# --- 2. env drift: one NCCL variable set in trainer-worker-1 only, all candidates side by side, plus the
#        nccl-tests build in the background ---
BUILD_PID=""
NB=$W/nt
HANG=(TORCH_NCCL_DUMP_ON_TIMEOUT=1 PG_TIMEOUT_S=30)
phase_drift() {
mkdir -p "$R/nccl-tests"
if [ -n "$NT_SRC" ] && [ -d "$NT_SRC" ]; then
  ( NCCL_DIR=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
    NH=$W/ncclhome; mkdir -p "$NH/lib"; ln -s "$NCCL_DIR/include" "$NH/include"
    ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so"; ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so.2"
    NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")"); CUDA_LIB=$CUDA_HOME/lib64; [ -d "$CUDA_LIB" ] || CUDA_LIB=$CUDA_HOME/lib
    echo "NCCL_DIR=$NCCL_DIR CUDA_HOME=$CUDA_HOME CUDA_LIB=$CUDA_LIB"
    cp -r "$NT_SRC" "$NB"
    nice -n 10 timeout 300 make -C "$NB/src" -j12 MPI=0 CUDA_HOME="$CUDA_HOME" CUDA_LIB="$CUDA_LIB" NCCL_HOME="$NH" \
        NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" BIN_FILES_LIST="all_reduce" build
    echo "build exit $?"; echo "$NH/lib:$CUDA_LIB" > "$W/nt-ldpath" ) > "$R/nccl-tests/build.log" 2>&1 &
  BUILD_PID=$!
fi
drift() { local name=$1 p=$2 dbg=$3; shift 3; local d="$R/drift-$name"; mkdir -p "$d/fr"
  ddp "$d" "$p" normal 105 "$dbg ${TIMING[*]} ${HANG[*]} TORCH_NCCL_DEBUG_INFO_TEMP_FILE=$d/fr/nccl_trace_rank_ TORCH_FR_DUMP_TEMP_FILE=$d/fr/nccl_trace_rank_" \
                            "$dbg ${TIMING[*]} ${HANG[*]} TORCH_NCCL_DEBUG_INFO_TEMP_FILE=$d/fr/nccl_trace_rank_ TORCH_FR_DUMP_TEMP_FILE=$d/fr/nccl_trace_rank_ $*"; }
DRIFTS=("proto-ll NCCL_PROTO=LL" "proto-simple NCCL_PROTO=Simple" "algo-tree NCCL_ALGO=Tree" "algo-ring NCCL_ALGO=Ring"
        "maxnchannels-1 NCCL_MAX_NCHANNELS=1" "buffsize-1m NCCL_BUFFSIZE=1048576" "buffsize-16m NCCL_BUFFSIZE=16777216"
        "socket-threads NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4")
QUIET=(proto-ll proto-simple algo-tree maxnchannels-1 buffsize-1m)
ts "start drift batch (${#DRIFTS[@]} with NCCL_DEBUG=INFO, ${#QUIET[@]} without, side by side)"
p=29800
for dv in "${DRIFTS[@]}"; do set -- $dv; n=$1; shift
  drift "$n" $p "NCCL_DEBUG=INFO" "$@"; p=$((p+2))
  for q in "${QUIET[@]}"; do [ "$q" = "$n" ] && { drift "$n-quiet" $p "" "$@"; p=$((p+2)); }; done
done
wait_pods
for d in "$R"/drift-*; do summ "$(basename "$d")"; ls "$d/fr" | tr '\n' ' '; echo; done
pack
if [ -n "$BUILD_PID" ]; then wait "$BUILD_PID"; fi; tail -3 "$R/nccl-tests/build.log"; ts "build done"
}

# --- 3. the drift candidates that finished: again alone, for their step times ---
phase_slow() {
ns=0
for n in maxnchannels-1 socket-threads buffsize-1m buffsize-16m algo-ring algo-tree proto-simple proto-ll; do
  for dv in "${DRIFTS[@]}"; do set -- $dv; [ "$1" = "$n" ] && break; done; shift
  d="$R/drift-$n"
  if [ "$(grep -c 'exit=0 ' "$d/pods.txt")" = 2 ] && (( ns < 3 )); then
    seq_sc "slow-$n" $((29900 + ns * 2)) normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]} $*" 420; ns=$((ns+1))
  fi
done

}

# --- 4. nccl-tests on the host (both GPUs in one process), no pods ---
phase_nccl_tests() {
B=$NB/build
if [ -x "$B/all_reduce_perf" ]; then
  export LD_LIBRARY_PATH="$(cat "$W/nt-ldpath"):${LD_LIBRARY_PATH:-}"
  nt() { local name=$1; shift
    if (( $(el) > 540 )); then ts "SKIP nccl-tests $name (deadline)"; return; fi
    ts "all_reduce_perf $name: $*"
    env "$@" timeout 75 "$B/all_reduce_perf" -b 8M -e 1G -f 2 -g 2 > "$R/nccl-tests/all_reduce_perf-g2-$name.txt" 2>&1
    echo "$name: env $* -> exit $?" >> "$R/nccl-tests/exit-codes.txt"; grep -E '^ +(536870912|1073741824) ' "$R/nccl-tests/all_reduce_perf-g2-$name.txt"; }
  DBG=(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,P2P,SHM,NET)
  nt healthy NCCL_NVLS_ENABLE=0
  nt p2p-disabled NCCL_P2P_DISABLE=1
  nt p2p-shm-disabled NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
  nt healthy-info "${DBG[@]}"
  nt p2p-disabled-info NCCL_P2P_DISABLE=1 "${DBG[@]}"
  nt p2p-shm-disabled-info NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 "${DBG[@]}"
else ts "no all_reduce_perf: nccl-tests skipped"; fi
}

# --- second pass: 5. environment differences that may slow the job, each alone, with a baseline on the same machine ---
phase_slow2() {
  local SOCK=(NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4)
  seq_sc healthy-2                 29930 normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]}" 400
  seq_sc socket-tuned-both         29932 normal "${INFO[*]} ${TIMING[*]} ${SOCK[*]}" "${INFO[*]} ${TIMING[*]} ${SOCK[*]}" 400
  seq_sc socket-tuned-w0-only      29934 normal "${INFO[*]} ${TIMING[*]} ${SOCK[*]}" "${INFO[*]} ${TIMING[*]}" 400
  seq_sc cuda-launch-blocking-w1   29936 normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]} CUDA_LAUNCH_BLOCKING=1" 400
}
# --- third pass: 7. NCCL_NTHREADS=64 (slow side by side in pass 2) alone, with a baseline on the same machine ---
phase_slow3() {
  seq_sc healthy-3                 29980 normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]}" 400
  seq_sc nthreads-64-w1            29982 normal "${INFO[*]} ${TIMING[*]}" "${INFO[*]} ${TIMING[*]} NCCL_NTHREADS=64" 400
  seq_sc nthreads-64-both          29984 normal "${INFO[*]} ${TIMING[*]} NCCL_NTHREADS=64" "${INFO[*]} ${TIMING[*]} NCCL_NTHREADS=64" 400
}
# --- 6. drift candidates that may hang without a timeout, side by side, with stacks and an on-demand recorder dump
#        after 40 s (CAPTURE_DUMP_AFTER_S) ---
phase_silent() {
  local p=29960 dv n
  local SIL=("proto-simple NCCL_PROTO=Simple" "nthreads-64 NCCL_NTHREADS=64" "min-nchannels-4 NCCL_MIN_NCHANNELS=4")
  ts "start silent batch"
  for dv in "${SIL[@]}"; do set -- $dv; n=$1; shift
    for dbg in INFO quiet; do
      local d="$R/silent-$n"; [ $dbg = quiet ] && d="$d-quiet"; local e="NCCL_DEBUG=INFO"; [ $dbg = quiet ] && e=""
      mkdir -p "$d/fr"
      local common="$e ${TIMING[*]} ${HANG[*]} TORCH_FR_DUMP_TEMP_FILE=$d/fr/nccl_trace_rank_ CAPTURE_DUMP_AFTER_S=40 CAPTURE_SIDE_DIR=$d"
      ddp "$d" "$p" normal 70 "$common" "$common $*"; p=$((p+2))
    done
  done
  wait_pods
  for d in "$R"/silent-*; do summ "$(basename "$d")"; ls "$d" "$d/fr" "$d/fr-ondemand" 2>/dev/null | tr '\n' ' '; echo; done
  pack
}

PH=("$@"); [ ${#PH[@]} -gt 0 ] || PH=(main drift slow nccl-tests)
for ph in "${PH[@]}"; do ts "phase $ph"; "phase_${ph//-/_}"; pack; done
[ "$NETNS" = 1 ] && PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" down
ts "done"
du -sh "$R"/* 2>/dev/null | sort -h | tail -8
pack; cp "$R/capture-log.txt" "$RESULT/"
