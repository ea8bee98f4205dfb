#!/usr/bin/env python3
"""Writes a large synthetic NCCL_DEBUG=INFO log for parser benchmarks: the real per-rank log of the
2xH200 capture (NCCL 2.28.9) replayed for RANKS ranks spread over hosts of 8 GPUs, with their host,
pid and device rewritten, the NVLink channel lines turned into NET/IB/GDRDMA lines between hosts,
and ordinary training output interleaved, until the file reaches SIZE megabytes.

usage: gen-nccl-log.py REAL_RANK_LOG OUT [--ranks 1024] [--size-mb 1024]
"""
import argparse
import re


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("real_log")
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=1024)
    ap.add_argument("--size-mb", type=int, default=1024)
    a = ap.parse_args()
    src = open(a.real_log, encoding="utf-8").read().splitlines()
    # the whole prefix, "NCCL INFO " included: each line gets its own below (until 2026-11-27 the level
    # was left in the body, so every generated message read "NCCL INFO NCCL INFO ...")
    prefix = re.compile(r"^vm:\d+:\d+ \[0\] NCCL INFO ")
    body = [prefix.sub("", l) for l in src if prefix.match(l)]
    body = [l.replace("via P2P/CUMEM", "[send] via NET/IB/0/GDRDMA") for l in body]
    limit = a.size_mb * 1024 * 1024
    written = 0
    with open(a.out, "w", encoding="utf-8") as f:
        while written < limit:
            for r in range(a.ranks):
                host = "job-worker-%d" % (r // 8)
                head = "%s:%d:%d [%d] NCCL INFO " % (host, 1000 + r, 1000 + r, r % 8)
                chunk = "".join(head + l + "\n" for l in body)
                chunk += "".join("rank %d step %d loss 0.%04d throughput 1234 samples/s\n" % (r, s, s) for s in range(20))
                f.write(chunk)
                written += len(chunk)
                if written >= limit:
                    break
    print("wrote %d bytes to %s" % (written, a.out))


if __name__ == "__main__":
    main()
