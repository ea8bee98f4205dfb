#!/usr/bin/env bash
# FabricScope incident captures: a two-"pod" PyTorch/NCCL job on one GPU host, made to fail in many ways.
# usage: OUT=/some/dir capture.sh SCENARIO...   ("net" = the rendezvous/endpoint scenarios, run side by side)
# Each pod is one process tree in its own network namespace (podnet.py: veth pair, 10.42.0.10 and .11), UTS and
# mount namespace (unshare --uts --mount): its own hostname
# (trainer-worker-0 / trainer-worker-1), its own /etc/hosts naming both pods (bind-mounted), optionally its own
# /dev/shm (a small tmpfs) and a cgroup v2 with a memory limit; NCCL_HOSTID is the pod's name and each pod
# gets one GPU through CUDA_VISIBLE_DEVICES. Each pod's stdout+stderr go to <pod>.log (what `kubectl logs`
# gives); pods.txt records each pod's spec and exit status, dmesg.txt the kernel lines logged meanwhile.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JOB="$here/job.py"
OUT="${OUT:?OUT}"
R="$OUT/inc"; mkdir -p "$R"
W=$(mktemp -d /tmp/inc.XXXX)
DEADLINE=${DEADLINE:-520}
ulimit -c 0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC=10000   # default 60 s: how long a failing rank waits for its debug dump
T0=$(date +%s)
ts() { echo "[$(( $(date +%s) - T0 ))s] $*"; }

NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
GPU0=0; GPU1=1; [ "$NGPU" -lt 2 ] && GPU1=0
NETNS=0; IP0=""; IP1=""
if PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" up; then NETNS=1; IP0=10.42.0.10; IP1=10.42.0.11
else
  PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" down 2>/dev/null
  IP0=$(hostname -I 2>/dev/null | awk '{print $1}')
  [ -n "$IP0" ] || IP0=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("10.255.255.255", 1)); print(s.getsockname()[0])' 2>/dev/null)
  [ -n "$IP0" ] || IP0=127.0.0.1
  IP1=$IP0
fi
HOSTS="$W/hosts"
printf '127.0.0.1\tlocalhost\n%s\ttrainer-worker-0.trainer.default.svc.cluster.local\ttrainer-worker-0\n%s\ttrainer-worker-1.trainer.default.svc.cluster.local\ttrainer-worker-1\n' "$IP0" "$IP1" > "$HOSTS"
NS=1; unshare --uts --mount true 2>/dev/null || { NS=0; cat "$HOSTS" >> /etc/hosts; }
TORCHRUN=torchrun; command -v torchrun >/dev/null || TORCHRUN="python3 -m torch.distributed.run"
CG=""
if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
  echo +memory > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
  mkdir -p /sys/fs/cgroup/capture-w1 && echo 4G > /sys/fs/cgroup/capture-w1/memory.max && CG=/sys/fs/cgroup/capture-w1
  echo 0 > /sys/fs/cgroup/capture-w1/memory.swap.max 2>/dev/null
fi
ts "gpus=$NGPU netns=$NETNS ip0=$IP0 ip1=$IP1 ns=$NS cgroup=${CG:-none} torchrun=$TORCHRUN"

if [ ! -f "$R/env.txt" ]; then
  { date -u; uname -a; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
    nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id --format=csv
    echo "--- pod network namespaces: $NETNS (pod IPs $IP0 $IP1); UTS+mount namespaces: $NS; memory cgroup: ${CG:-none}"; cat "$HOSTS"
    echo "--- /etc/resolv.conf"; cat /etc/resolv.conf 2>&1
    echo "--- df /dev/shm"; df -h /dev/shm 2>&1; echo "--- free"; free -m 2>&1
    echo "--- cgroup"; stat -fc %T /sys/fs/cgroup 2>&1; cat /sys/fs/cgroup/cgroup.controllers 2>&1
    echo "--- NCCL/TORCH env of the host"; env | grep -E '^(NCCL|TORCH|CUDA)_' | sort
    echo "--- interfaces"; ls /sys/class/net; ls /sys/class/infiniband 2>&1; } > "$R/env.txt" 2>&1
fi

PODSH='set -e
if [ "$POD_NS" = 1 ]; then
  echo "$POD_NAME" > /proc/sys/kernel/hostname
  mount --bind "$POD_HOSTS" /etc/hosts
  if [ -n "$POD_SHM" ]; then mount -t tmpfs -o "size=$POD_SHM" tmpfs /dev/shm; fi
fi
if [ -n "$POD_CGROUP" ]; then echo $$ > "$POD_CGROUP/cgroup.procs"; fi
unset POD_NAME POD_HOSTS POD_SHM POD_CGROUP POD_NS
set +e
exec "$@"'

# start_pod DIR NAME GPUS SHM CGROUP TIMEOUT VAR=VAL... -- CMD...   (in the background; PIDS collects it)
start_pod() {
  local dir=$1 name=$2 gpu=$3 shm=$4 cg=$5 t=$6; shift 6
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local ns=(); [ "$NETNS" = 1 ] && ns=(nsenter --net=/var/run/netns/$name); [ "$NS" = 1 ] && ns+=(unshare --uts --mount)
  echo "$name: CUDA_VISIBLE_DEVICES=$gpu NCCL_HOSTID=$name /dev/shm=${shm:-host} cgroup=${cg:-none} ${envs[*]} -- $*" >> "$dir/pods.txt"
  { timeout -k 5 "$t" env "${envs[@]}" HOSTNAME="$name" NCCL_HOSTID="$name" CUDA_VISIBLE_DEVICES="$gpu" \
      POD_NS="$NS" POD_NAME="$name" POD_HOSTS="$HOSTS" POD_SHM="$shm" POD_CGROUP="$cg" \
      "${ns[@]}" bash -c "$PODSH" pod "$@" > "$dir/$name.log" 2>&1
    echo "$name exit=$? at $(date -u +%T.%N)" >> "$dir/pods.txt"; } &
  PIDS+=($!)
}
wait_pods() { for p in "${PIDS[@]}"; do wait "$p"; done; PIDS=(); }
PIDS=()
PLAIN=(python3 "$JOB")
trun() { echo $TORCHRUN --nnodes 2 --node-rank "$1" --nproc-per-node 1 --master-addr trainer-worker-0 --master-port "$2" "$JOB"; }
c10d() { echo $TORCHRUN --nnodes 2 --nproc-per-node 1 --max-restarts 0 --rdzv-backend c10d --rdzv-id trainer-job --rdzv-endpoint "$1" --rdzv-conf "$2" "$JOB"; }
W0=(RANK=0 WORLD_SIZE=2 LOCAL_RANK=0)
W1=(RANK=1 WORLD_SIZE=2 LOCAL_RANK=0)
M() { echo MASTER_ADDR=trainer-worker-0 MASTER_PORT=$1; }
INFO=(NCCL_DEBUG=INFO)
AEH=(TORCH_NCCL_ASYNC_ERROR_HANDLING=1)
after_step() { # wait until LOG shows "step N " (max 120 s)
  for _ in $(seq 1 1200); do grep -q "step $2 " "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

sc_healthy() { local p=29510
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 "${W0[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 90 "${W1[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" -- "${PLAIN[@]}" normal
  wait_pods; }
sc_gpu_oom() { local p=29520
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 "${W0[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" -- "${PLAIN[@]}" gpu-oom
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 90 "${W1[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" -- "${PLAIN[@]}" gpu-oom
  wait_pods; }
sc_host_oom() { local p=29530
  [ -n "$CG" ] || { echo "no memory cgroup controller: skipped" > "$D/SKIPPED"; return; }
  cat "$CG/memory.max" > "$D/cgroup-trainer-worker-1.memory.max.txt"
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 -- $(trun 0 $p) host-oom
  start_pod "$D" trainer-worker-1 $GPU1 "" "$CG" 90 -- $(trun 1 $p) host-oom
  wait_pods; cat "$CG/memory.events" > "$D/cgroup-trainer-worker-1.memory.events.txt"; }
sc_shm_nccl_2pod() { local p=29540
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 50 "${W0[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" NCCL_P2P_DISABLE=1 -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 1M "" 50 "${W1[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" NCCL_P2P_DISABLE=1 -- "${PLAIN[@]}" normal
  wait_pods; }
sc_shm_nccl_1pod() { [ "$NGPU" -ge 2 ] || { echo "one GPU: skipped" > "$D/SKIPPED"; return; }
  start_pod "$D" trainer-worker-0 0,1 1M "" 75 "${INFO[@]}" "${AEH[@]}" NCCL_P2P_DISABLE=1 -- $TORCHRUN --standalone --nproc-per-node 2 "$JOB" normal
  wait_pods; }
sc_shm_nccl_1pod_legacy() { [ "$NGPU" -ge 2 ] || { echo "one GPU: skipped" > "$D/SKIPPED"; return; }
  start_pod "$D" trainer-worker-0 0,1 1M "" 75 "${INFO[@]}" "${AEH[@]}" NCCL_P2P_DISABLE=1 NCCL_CUMEM_HOST_ENABLE=0 -- $TORCHRUN --standalone --nproc-per-node 2 "$JOB" normal
  wait_pods; }
sc_shm_dataloader() { local p=29550
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 "${W0[@]}" $(M $p) -- "${PLAIN[@]}" dataloader
  start_pod "$D" trainer-worker-1 $GPU1 64M "" 90 "${W1[@]}" $(M $p) -- "${PLAIN[@]}" dataloader
  wait_pods; }
sc_rank_killed_torchrun() { local p=29560
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 "${INFO[@]}" -- $(trun 0 $p) normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 90 "${INFO[@]}" CAPTURE_PIDFILE="$W/pid-$$-killed-t" -- $(trun 1 $p) normal
  if after_step "$D/trainer-worker-1.log" 3; then sleep 0.3; v=$(cat "$W/pid-$$-killed-t")
    echo "capture: kill -9 $v (trainer-worker-1's training process) at $(date -u +%T.%N)" >> "$D/pods.txt"; kill -9 "$v"; fi
  wait_pods; }
sc_rank_killed_plain() { local p=29570
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 "${W0[@]}" $(M $p) -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 90 "${W1[@]}" $(M $p) CAPTURE_PIDFILE="$W/pid-$$-killed-p" -- "${PLAIN[@]}" normal
  if after_step "$D/trainer-worker-1.log" 3; then sleep 0.3; v=$(cat "$W/pid-$$-killed-p")
    echo "capture: kill -9 $v (trainer-worker-1's training process) at $(date -u +%T.%N)" >> "$D/pods.txt"; kill -9 "$v"; fi
  wait_pods; }
sc_script_exception() { local p=29580
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 90 -- $(trun 0 $p) exception
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 90 -- $(trun 1 $p) exception
  wait_pods; }
sc_collective_timeout() { local p=29590; mkdir -p "$D/fr"
  local fr=(TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_FR_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1
            TORCH_FR_DUMP_TEMP_FILE="$D/fr/nccl_trace_rank_" TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$D/fr/nccl_trace_rank_")
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 55 "${W0[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" "${fr[@]}" -- "${PLAIN[@]}" hang
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 55 "${W1[@]}" $(M $p) "${INFO[@]}" "${AEH[@]}" "${fr[@]}" -- "${PLAIN[@]}" hang
  wait_pods; }
# --- rendezvous / endpoint scenarios (no collective is ever reached) ---
sc_rendezvous_incomplete_plain() { local p=29610
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 "${W0[@]}" $(M $p) "${INFO[@]}" -- "${PLAIN[@]}" normal
  echo "trainer-worker-1: never started" >> "$D/pods.txt"; wait_pods; }
sc_rendezvous_incomplete_c10d() { local p=29620
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 -- $(c10d trainer-worker-0:$p join_timeout=20) normal
  echo "trainer-worker-1: never started" >> "$D/pods.txt"; wait_pods; }
sc_endpoint_refused_plain() { local p=29630
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 "${W0[@]}" $(M $p) "${INFO[@]}" -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 60 "${W1[@]}" $(M $((p+1))) "${INFO[@]}" -- "${PLAIN[@]}" normal
  wait_pods; }
sc_endpoint_refused_c10d() { local p=29640
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 -- $(c10d trainer-worker-0:$p join_timeout=25,read_timeout=20) normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 60 -- $(c10d trainer-worker-0:$((p+1)) join_timeout=25,read_timeout=20) normal
  wait_pods; }
sc_endpoint_unresolved() { local p=29650
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 "${W0[@]}" $(M $p) -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 60 "${W1[@]}" MASTER_ADDR=trainer-master-0 MASTER_PORT=$p -- "${PLAIN[@]}" normal
  wait_pods; }
sc_port_in_use() { local p=29660
  local sns=(); [ "$NETNS" = 1 ] && sns=(nsenter --net=/var/run/netns/trainer-worker-0)
  ( cd "$W" && exec "${sns[@]}" timeout 60 python3 -m http.server $p ) > "$D/port-squatter.log" 2>&1 & local sq=$!
  echo "port squatter (another process in trainer-worker-0's network namespace, like a sidecar): python3 -m http.server $p, pid $sq" >> "$D/pods.txt"
  sleep 2
  start_pod "$D" trainer-worker-0 $GPU0 "" "" 60 "${W0[@]}" $(M $p) "${INFO[@]}" -- "${PLAIN[@]}" normal
  start_pod "$D" trainer-worker-1 $GPU1 "" "" 60 "${W1[@]}" $(M $p) "${INFO[@]}" -- "${PLAIN[@]}" normal
  wait_pods; kill "$sq" 2>/dev/null; wait "$sq" 2>/dev/null; }

run_sc() { local s=$1 D
  if (( $(date +%s) - T0 > DEADLINE )); then ts "SKIP $s (deadline)"; return; fi
  D="$R/$s"; rm -rf "$D"; mkdir -p "$D"; ts "start $s"
  local dm; dm=$(dmesg 2>/dev/null | wc -l)
  "sc_${s//-/_}"
  dmesg 2>/dev/null | tail -n +$((dm + 1)) > "$D/dmesg.txt"; [ -s "$D/dmesg.txt" ] || rm -f "$D/dmesg.txt"
  ts "end $s: $(tr '\n' ' ' < "$D/pods.txt" | grep -o '[a-z0-9-]* exit=[0-9]*' | tr '\n' ' ')"; }
NET=(rendezvous-incomplete-plain rendezvous-incomplete-c10d endpoint-refused-plain endpoint-refused-c10d endpoint-unresolved port-in-use)

for s in "$@"; do
  if [ "$s" = net ]; then
    for n in "${NET[@]}"; do run_sc "$n" & done; wait
  else run_sc "$s"; fi
done
[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
[ "$NETNS" = 1 ] && PYTHONPATH="$here/_vendor" python3 "$here/podnet.py" down
ts "done"
du -sh "$R"/* 2>/dev/null
