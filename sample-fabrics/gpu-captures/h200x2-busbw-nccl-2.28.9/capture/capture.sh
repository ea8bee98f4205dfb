#!/usr/bin/env bash
# busbw-below-expected captures on a 2-GPU host: NCCL's topology dump and nvidia-smi's NVLink/PCIe state of
# the host, then the same all_reduce_perf three times: healthy (NVLink through P2P), NCCL_P2P_DISABLE=1
# (host shared memory) and NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 (NET/Socket over loopback).
# NT_SRC: a copy of NVIDIA/nccl-tests (commit a0b82b2, 2.19.6); OUT: where busbw.tar.gz goes.
set -uo pipefail
RESULT="${OUT:?OUT}"
SRC="${NT_SRC:?NT_SRC}"
W=$(mktemp -d /tmp/cap.XXXX)
OUT=$W/busbw; mkdir -p "$OUT"   # everything goes here, then into one tarball (the device returns at most 8 files)
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
ts() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
exec > >(tee -a "$OUT/capture-log.txt") 2>&1
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "kernel: $(uname -r)"; echo "hostname: $(hostname)"; nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
  python3 -m pip list 2>/dev/null | grep -i -E 'nccl|nvidia-cuda-runtime'; nvcc --version 2>&1 | tail -2
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
nvidia-smi topo -m > "$OUT/nvidia-smi-topo-m.txt" 2>&1
nvidia-smi nvlink -s > "$OUT/nvidia-smi-nvlink-s.txt" 2>&1
nvidia-smi nvlink -c -i 0 > "$OUT/nvidia-smi-nvlink-c-gpu0.txt" 2>&1
ts "nvidia-smi done"

NCCL_DIR=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
NH=$W/ncclhome; mkdir -p "$NH/lib"; ln -s "$NCCL_DIR/include" "$NH/include"
ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so"; ln -s "$NCCL_DIR/lib/libnccl.so.2" "$NH/lib/libnccl.so.2"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
CUDA_LIB=$CUDA_HOME/lib64; [ -d "$CUDA_LIB" ] || CUDA_LIB=$CUDA_HOME/lib
cp -r "$SRC" "$W/nt-src"
timeout 300 make -C "$W/nt-src/src" -j16 MPI=0 CUDA_HOME="$CUDA_HOME" CUDA_LIB="$CUDA_LIB" NCCL_HOME="$NH" \
    NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" BIN_FILES_LIST="all_reduce" build > "$OUT/build.log" 2>&1
echo "build exit $?" >> "$OUT/build.log"; tail -3 "$OUT/build.log"; ts "build done"
export LD_LIBRARY_PATH="$NH/lib:$CUDA_LIB:${LD_LIBRARY_PATH:-}"
B=$W/nt-src/build
mkdir -p "$OUT/logs"
nt() { local name=$1; shift; ts "all_reduce_perf $name: $*"
  env "$@" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,P2P,SHM,NET NCCL_DEBUG_FILE="$OUT/logs/$name.%h.%p.log" \
    timeout 150 "$B/all_reduce_perf" -b 8M -e 1G -f 2 -g 2 > "$OUT/all_reduce_perf-g2-$name.txt" 2>&1
  echo "$name exit $?" >> "$OUT/exit-codes.txt"; tail -4 "$OUT/all_reduce_perf-g2-$name.txt"; }
nt healthy NCCL_TOPO_DUMP_FILE="$OUT/$(hostname).topo.xml"
nt p2p-disabled NCCL_P2P_DISABLE=1
nt p2p-shm-disabled NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
ls -la "$OUT" "$OUT/logs"; ts "end"
tar -czf "$RESULT/busbw.tar.gz" -C "$W" busbw; cp "$OUT/capture-log.txt" "$RESULT/"
