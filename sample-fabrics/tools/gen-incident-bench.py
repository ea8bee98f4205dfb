#!/usr/bin/env python3
"""A large incident for the reasoning benchmark: N pods x 8 ranks, kubectl-style logs with timestamps.

One rank runs out of GPU memory; every other rank then reports the closed connection, the watchdog's
timeout and the abort, as PyTorch and NCCL print them, between ordinary training lines. Usage:
    python3 gen-incident-bench.py OUT_DIR [--pods 128] [--steps 2000]
"""
import argparse
import os

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--pods", type=int, default=128)
p.add_argument("--steps", type=int, default=2000)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
world = a.pods * 8
culprit = 17
t0 = 1764172800  # 2025-11-26T16:00:00Z


def ts(sec, frac=0):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t0 + sec)) + ".%09dZ" % frac


for pod in range(a.pods):
    name = "bench-worker-%d" % pod
    with open(os.path.join(a.out, name + ".log"), "w") as f:
        for local in range(8):
            rank = pod * 8 + local
            f.write("%s %s:%d:%d [%d] NCCL INFO comm 0x7f%06x rank %d nranks %d cudaDev %d nvmlDev %d busId %x000 commId 0xabcdef0123456789 - Init COMPLETE\n"
                    % (ts(0), name, 1000 + local, 1000 + local, local, rank, rank, world, local, local, 0x18 + local))
            f.write("%s %s:%d:%d [%d] NCCL INFO NET/IB : Using [0]mlx5_%d:1/IB [RO]; OOB eth0:10.1.%d.%d<0>\n"
                    % (ts(0), name, 1000 + local, 1000 + local, local, local, pod // 250, pod % 250 + 1))
        for step in range(a.steps):
            for local in range(8):
                rank = pod * 8 + local
                f.write("%s [rank%d]: step %d loss %.4f lr 3.0e-4 tokens/s 41234\n" % (ts(step, local), rank, step, 2.5 - step / 10000))
        fail = a.steps
        for local in range(8):
            rank = pod * 8 + local
            if rank == culprit:
                f.write("%s [rank%d]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU %d has a total capacity of 79.19 GiB of which 3.10 GiB is free.\n"
                        % (ts(fail, 1), rank, local))
                continue
            f.write("%s %s:%d:%d [%d] transport/net_socket.cc:512 NCCL WARN socketProgress: Connection closed by remote peer bench-worker-2<45678>\n"
                    % (ts(fail + 1), name, 1000 + local, 2000 + local, local))
            f.write("%s [rank%d]:[E1126 16:%02d:%02d.000000 %d ProcessGroupNCCL.cpp:685] [PG ID 0 PG GUID 0(default_pg) Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n"
                    % (ts(fail + 600), rank, (fail + 600) // 60 % 60, (fail + 600) % 60, 1000 + local, rank, fail))
