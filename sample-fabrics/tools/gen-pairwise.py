#!/usr/bin/env python3
"""Writes sample-fabrics/pairwise/: a pairwise bisection over five nodes in which one node is slow.

Constructed, not captured: the files follow the output format of perftest 26.04.17 (ib_write_bw -a
--report_gbits, client side; src/perftest_parameters.c and src/perftest_communication.c), of nccl-tests
(all_reduce_perf over two 8-GPU hosts; src/common.cu) and of infiniband-diags ibstat. The numbers are
chosen to show one slow node: gpu-node-03's mlx5_0 port trained at 2X instead of 4X NDR (Rate: 200), so
every pair with gpu-node-03 moves about half of what the other pairs move.

usage: python3 sample-fabrics/tools/gen-pairwise.py [OUTDIR]   (default: sample-fabrics/pairwise)
The same run always writes the same bytes.
"""
import os
import random
import sys

NODES = ["gpu-node-01", "gpu-node-02", "gpu-node-03", "gpu-node-04", "gpu-node-05"]
SLOW = "gpu-node-03"
NCCL_NODES = NODES[:4]
SEP = "-" * 87


def lid(node):
    return 0x11 + NODES.index(node)


def guid(node, port):
    return 0x946DAE0300A81000 + NODES.index(node) * 0x10 + port


def perftest(rng, client, server):
    plateau = 196.3 if SLOW in (client, server) else 392.4
    out = [SEP, " " * 20 + "RDMA_Write BW Test",
           " Dual-port       : OFF\t\tDevice         : mlx5_0",
           " Number of qps   : 1\t\tTransport type : IB",
           " Connection type : RC\t\tUsing SRQ      : OFF",
           " PCIe relax order: ON\t\tLock-free      : OFF",
           " ibv_wr* API     : ON\t\tUsing Enhanced Reorder      : OFF",
           " TX depth        : 128",
           " CQ Moderation   : 100",
           " CQE Poll Batch  : 16",
           " Mtu             : 4096[B]",
           " Link type       : IB",
           " Max inline data : 0[B]",
           " rdma_cm QPs\t : OFF",
           " Data ex. method : Ethernet",
           SEP,
           " local address: LID %#04x QPN %#06x PSN %#06x RKey %#08x VAddr %#016x"
           % (lid(client), rng.randrange(0x100, 0x2000), rng.randrange(1 << 24), rng.randrange(1 << 21), 0x7f0000000000 + rng.randrange(1 << 24) * 0x1000),
           " remote address: LID %#04x QPN %#06x PSN %#06x RKey %#08x VAddr %#016x"
           % (lid(server), rng.randrange(0x100, 0x2000), rng.randrange(1 << 24), rng.randrange(1 << 21), 0x7f0000000000 + rng.randrange(1 << 24) * 0x1000),
           SEP,
           " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"]
    for i in range(1, 24):
        size = 2 ** i
        rate = 2.64 * rng.uniform(0.996, 1.0)  # million messages a second while small messages are bound by it
        avg = min(size * 8 * rate / 1e3, plateau * rng.uniform(0.994, 1.0))
        peak = avg * rng.uniform(1.0, 1.004)
        mpps = avg * 1e3 / 8 / size
        if avg < 1:
            out.append(" %-7d    %-10d       %-7.6f            %-7.6f\t\t     %-7.6f" % (size, 5000, peak, avg, mpps))
        else:
            out.append(" %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f" % (size, 5000, peak, avg, mpps))
    out.append(SEP)
    return "\n".join(out) + "\n"


def nccl(rng, a, b):
    ranks = []
    pid = {a: rng.randrange(2000, 60000), b: rng.randrange(2000, 60000)}
    bus = ["0000:18:00", "0000:2a:00", "0000:3a:00", "0000:5d:00", "0000:9a:00", "0000:ab:00", "0000:ba:00", "0000:db:00"]
    for r in range(16):
        host = a if r < 8 else b
        ranks.append("#  Rank %2d Group  0 Pid %6d on %11s device  %d [%s] NVIDIA H100 80GB HBM3" % (r, pid[host] + r % 8, host, r % 8, bus[r % 8]))
    out = ["# nccl-tests version 2.17.6 nccl-headers=22703 nccl-library=22703",
           "# Collective test starting: all_reduce_perf",
           "# nThread 1 nGpus 1 minBytes 8388608 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
           "#", "# Using devices"] + ranks + [
           "#",
           "#                                                              out-of-place                       in-place          ",
           "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
           "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         "]
    plateau = 186.0 if SLOW in (a, b) else 368.0
    total = 0.0
    count = 0
    for i in range(23, 34):
        size = 2 ** i
        # bus bandwidth climbs towards the plateau as the size grows (half of it at 16 MiB)
        bw = [plateau * size / (size + (16 << 20)) * rng.uniform(0.99, 1.01) for _ in range(2)]
        cells = []
        for busbw in bw:
            algbw = busbw / (2 * 15 / 16)
            time = size / (algbw * 1e3)
            cells.append("%8.2f %7.2f %7.2f %7d" % (time, algbw, busbw, 0))
            total += busbw
            count += 1
        out.append("%12d  %12d     float     sum      -1 %s %s" % (size, size // 4, cells[0], cells[1]))
    out += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : %.4f " % (total / count), "#",
            "# Collective test concluded: all_reduce_perf", "#"]
    return "\n".join(out) + "\n"


def ibstat(node):
    rate = 200 if node == SLOW else 400
    return "\n".join([
        "CA 'mlx5_0'",
        "\tCA type: MT4129",
        "\tNumber of ports: 1",
        "\tFirmware version: 28.39.2048",
        "\tHardware version: 0",
        "\tNode GUID: %#018x" % guid(node, 0),
        "\tSystem image GUID: %#018x" % guid(node, 0),
        "\tPort 1:",
        "\t\tState: Active",
        "\t\tPhysical state: LinkUp",
        "\t\tRate: %d" % rate,
        "\t\tBase lid: %d" % lid(node),
        "\t\tLMC: 0",
        "\t\tSM lid: 1",
        "\t\tCapability mask: 0xa751e848",
        "\t\tPort GUID: %#018x" % guid(node, 1),
        "\t\tLink layer: InfiniBand"]) + "\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "pairwise")
    rng = random.Random(20260519)
    os.makedirs(os.path.join(out, "perftest"), exist_ok=True)
    os.makedirs(os.path.join(out, "nccl-tests"), exist_ok=True)
    for n in NODES:
        os.makedirs(os.path.join(out, n), exist_ok=True)
        with open(os.path.join(out, n, "ibstat.txt"), "w") as f:
            f.write(ibstat(n))
    for i, a in enumerate(NODES):
        for b in NODES[i + 1:]:
            with open(os.path.join(out, "perftest", "ib_write_bw_%s_%s.txt" % (a, b)), "w") as f:
                f.write(perftest(rng, a, b))
    for i, a in enumerate(NCCL_NODES):
        for b in NCCL_NODES[i + 1:]:
            with open(os.path.join(out, "nccl-tests", "all_reduce_perf_%s_%s.txt" % (a, b)), "w") as f:
                f.write(nccl(rng, a, b))


if __name__ == "__main__":
    main()
