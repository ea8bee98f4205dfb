#!/usr/bin/env python3
"""Writes sample-fabrics/training-incident: a two-pod PyTorchJob (16 ranks, NCCL 2.21.5) placed on
two hosts of the rail-2su-hdr fabric, as `kubectl logs --timestamps` of each pod plus the pods and
nodes as `kubectl get -o json` prints them.

The story: gpt-train-worker-0 runs on dgx-su2-h07, whose mlx5_4 sits on the flapping host link
(fault 2 of rail-2su-hdr: leaf-su2-r5 port 7, LinkErrorRecoveryCounter=42). Rank 12 (GPU 4 of the
worker, rail 5) gets an IB completion error (status 12, retry exceeded, vendor err 129) and stops;
the other ranks' watchdogs time out on the next ALLREDUCE. Every line follows the NCCL 2.21 and
torch 2.4 formats in shared/reference/FORMATS.md section 3; GPU bus ids are those of the hosts'
topology files in rail-2su-hdr/hosts.

usage: gen-training-incident.py OUT_DIR
"""
import datetime as dt
import json
import os
import sys

VERSION = "2.21.5"
JOB, NS = "gpt-train", "ml-train"
PODS = [  # pod, node, pod IP, pid base
    ("gpt-train-master-0", "dgx-su1-h05", "10.10.1.5", 4100),
    ("gpt-train-worker-0", "dgx-su2-h07", "10.10.2.7", 5200),
]
BUS = ["0f000", "26000", "3d000", "54000", "89000", "a0000", "b7000", "ce000"]  # rail-2su-hdr/hosts/*.topo.xml
COMM_ID = "0x5d1e4f0a8c3b2a19"
T0 = dt.datetime(2026, 11, 21, 22, 0, 0, tzinfo=dt.timezone.utc)
FAIL_SEQ = 4811
BAD_RANK = 12  # worker-0 GPU 4: mlx5_4 -> leaf-su2-r5 port 7 (flapping)


def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%09dZ" % (t.microsecond * 1000 + 123)


class Log:
    def __init__(self):
        self.lines = []

    def add(self, t, text):
        self.lines.append((t, len(self.lines), text))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for t, _, text in sorted(self.lines):
                f.write(ts(t) + " " + text + "\n")


def rings():
    """Channel c: host A GPUs c..c+7, then host B GPUs c+7..c, so both crossings stay on one rail."""
    out = []
    for c in range(8):
        a = [(c + i) % 8 for i in range(8)]
        b = [8 + g for g in reversed(a)]
        out.append(a + b)
    return out


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    ring = rings()
    logs = {}
    for h, (pod, node, ip, pidbase) in enumerate(PODS):
        log = Log()
        logs[pod] = log
        for lr in range(8):
            rank = h * 8 + lr
            pid = pidbase + lr
            tid = pid + 61
            t = T0 + dt.timedelta(seconds=5, milliseconds=37 * lr)
            p = "%s:%d:%d [%d] NCCL INFO " % (pod, pid, pid, lr)
            q = "%s:%d:%d [%d] NCCL INFO " % (pod, pid, tid, lr)
            if rank == 0:
                log.add(t, p + "NCCL version %s+cuda12.4" % VERSION)
            log.add(t, p + "NCCL_SOCKET_IFNAME set by environment to eth0")
            log.add(t, p + "NCCL_IB_HCA set to mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7")
            log.add(t, p + "NET/IB : Using" + "".join(" [%d]mlx5_%d:1/IB" % (i, i) for i in range(8))
                    + " [RO]; OOB eth0:%s<0>" % ip)
            log.add(t, p + "Using network IB")
            log.add(t, q + "ncclCommInitRank comm 0x%x rank %d nranks 16 cudaDev %d nvmlDev %d busId %s commId %s - Init START"
                    % (0x55d0c0a00000 + rank * 0x1000, rank, lr, lr, BUS[lr], COMM_ID))
            for i in range(8):
                log.add(t, q + "GPU Direct RDMA Enabled for HCA %d 'mlx5_%d'" % (i, i))
            if rank == 0:
                for c, r in enumerate(ring):
                    log.add(t, q + "Channel %02d/08 :" % c + "".join("%4d" % x for x in r))
            log.add(t, q + "Trees" + "".join(" [%d] %d/-1/-1->%d->%d" % (c, (rank + 1) % 16 if rank % 8 != 7 else -1,
                                                                            rank, rank - 1 if rank % 8 else -1)
                                             for c in range(2)))
            t2 = t + dt.timedelta(seconds=2)
            for c, r in enumerate(ring):
                i = r.index(rank)
                nxt, prv = r[(i + 1) % 16], r[(i - 1) % 16]
                if nxt // 8 == rank // 8:
                    log.add(t2, q + "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC/read" % (c, rank, lr, nxt, nxt % 8))
                else:
                    log.add(t2, q + "Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA" % (c, rank, lr, nxt, nxt % 8, lr))
                if prv // 8 != rank // 8:
                    log.add(t2, q + "Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d/GDRDMA" % (c, prv, prv % 8, rank, lr, lr))
            if rank % 8 == 0:
                log.add(t2, q + "Connected all rings")
                log.add(t2, q + "Connected all trees")
            log.add(t2 + dt.timedelta(milliseconds=300),
                    q + "ncclCommInitRank comm 0x%x rank %d nranks 16 cudaDev %d nvmlDev %d busId %s commId %s - Init COMPLETE"
                    % (0x55d0c0a00000 + rank * 0x1000, rank, lr, lr, BUS[lr], COMM_ID))
        # ordinary training output
        for step in range(0, 4800, 400):
            t = T0 + dt.timedelta(seconds=30 + step * 0.92)
            if h == 0:
                log.add(t, "[rank0]: step %d loss %.4f lr 3.0e-04 tokens/s 412337" % (step, 3.2 - step / 4000.0))
    t_err = T0 + dt.timedelta(hours=1, minutes=14, seconds=5)
    wpod, _, _, wpid = PODS[1]
    w = logs[wpod]
    lr = BAD_RANK - 8
    pid = wpid + lr
    w.add(t_err, "")
    w.add(t_err, "%s:%d:%d [%d] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer %s<50231> with "
          "status=12 opcode=0 len=0 vendor err 129 (Send)" % (wpod, pid, pid + 63, lr, PODS[0][2]))
    w.add(t_err, "%s:%d:%d [%d] NCCL INFO transport/net.cc:1295 -> 6 [Proxy Progress]" % (wpod, pid, pid + 63, lr))
    t_dog = t_err + dt.timedelta(seconds=2)
    w.add(t_dog, "[rank%d]:[E1121 23:14:07.512004101 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank %d] "
          "Exception (either an error or timeout) detected by watchdog at work: %d, last enqueued NCCL work: %d, "
          "last completed NCCL work: %d." % (BAD_RANK, BAD_RANK, FAIL_SEQ, FAIL_SEQ, FAIL_SEQ - 1))
    t_to = t_err + dt.timedelta(minutes=10, seconds=1)
    for h, (pod, node, ip, pidbase) in enumerate(PODS):
        log = logs[pod]
        for lr in range(8):
            rank = h * 8 + lr
            if rank == BAD_RANK:
                continue
            stamp = "[rank%d]:[E1121 23:24:06.%09d ProcessGroupNCCL.cpp:616] " % (rank, 100000 + rank)
            log.add(t_to, stamp + "[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, "
                    "OpType=ALLREDUCE, NumelIn=67108864, NumelOut=67108864, Timeout(ms)=600000) ran for 600034 "
                    "milliseconds before timing out." % (rank, FAIL_SEQ + 1))
            log.add(t_to, "[rank%d]:[E1121 23:24:06.%09d ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank %d] "
                    "Exception (either an error or timeout) detected by watchdog at work: %d, last enqueued NCCL work: %d, "
                    "last completed NCCL work: %d." % (rank, 200000 + rank, rank, FAIL_SEQ + 1, FAIL_SEQ + 1, FAIL_SEQ))
        t_exit = t_to + dt.timedelta(seconds=3)
        lr = BAD_RANK - 8 if h == 1 else 0  # torchrun names the first local failure
        log.add(t_exit, "E1121 23:24:09.000000 %d torch/distributed/elastic/multiprocessing/api.py:874] failed "
                "(exitcode: -6) local_rank: %d (pid: %d) of binary: /usr/bin/python3" % (pidbase - 1, lr, pidbase + lr))
    for pod, log in logs.items():
        log.write(os.path.join(out, "logs", pod + ".log"))
    write_k8s(out)


def write_k8s(out):
    pods = []
    for i, (pod, node, ip, _) in enumerate(PODS):
        rtype = "master" if "master" in pod else "worker"
        pods.append({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": pod, "namespace": NS, "labels": {
                "training.kubeflow.org/job-name": JOB, "training.kubeflow.org/replica-type": rtype,
                "training.kubeflow.org/replica-index": "0", "training.kubeflow.org/operator-name": "pytorchjob-controller"},
                "annotations": {"k8s.v1.cni.cncf.io/networks": "ml-train/ib-net"}},
            "spec": {"nodeName": node, "containers": [{
                "name": "pytorch", "image": "nvcr.io/nvidia/pytorch:24.07-py3",
                "env": [{"name": "NCCL_DEBUG", "value": "INFO"}, {"name": "NCCL_SOCKET_IFNAME", "value": "eth0"},
                        {"name": "NCCL_IB_HCA", "value": ",".join("mlx5_%d" % k for k in range(8))}],
                "resources": {"requests": {"cpu": "96", "memory": "1600Gi", "nvidia.com/gpu": "8",
                                           "rdma/hca_shared_devices_a": "1"},
                              "limits": {"nvidia.com/gpu": "8", "rdma/hca_shared_devices_a": "1"}},
                "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}]}],
                "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}}]},
            "status": {"phase": "Failed", "podIP": ip, "hostIP": "10.0.0.%d" % (21 + i)}})
    with open(os.path.join(out, "pods.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": pods}, f, indent=2)
        f.write("\n")
    nodes = []
    for i, (_, node, _, _) in enumerate(PODS):
        nodes.append({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": node, "labels": {"kubernetes.io/hostname": node, "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}},
            "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.%d" % (21 + i)},
                                     {"type": "Hostname", "address": node}],
                       "allocatable": {"cpu": "223", "memory": "2063152264Ki", "nvidia.com/gpu": "8",
                                       "rdma/hca_shared_devices_a": "1000", "pods": "110", "ephemeral-storage": "1758229777315"},
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}})
    with open(os.path.join(out, "nodes.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": nodes}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
