#!/usr/bin/env python3
"""Times CLI builds (made by cli-build.sh) and Python readers against each other, alternated: each round runs every
entry once, the first of a round rotating. An entry is a build folder, or py=INTERPRETER for ibnet-count.py under that
interpreter (give the interpreter itself, not a pyenv shim: the shim is a bash script that costs 45-60 ms).

usage: cli-alternate.py ROUNDS ENTRY[,ENTRY...] ARGS...
e.g.:  cli-alternate.py 16 /tmp/b/base,/tmp/b/now,py=/usr/bin/python3 summary selene.ibnetdiscover.txt
"""
import os
import resource
import statistics
import subprocess
import sys
import time

TOOLS = os.path.dirname(os.path.abspath(__file__))


def command(entry, args):
    if entry.startswith("py="):
        return [entry[3:], os.path.join(TOOLS, "ibnet-count.py"), args[-1]]
    return ["java", "-XX:SharedArchiveFile=%s/cli.jsa" % entry, "-Xlog:cds=off", "-XX:TieredStopAtLevel=1",
            "-XX:Tier3BackEdgeThreshold=5000", "-XX:+UseSerialGC", "-XX:+UseTransparentHugePages",
            "-jar", entry + "/fabricscope-app.jar"] + args


def main():
    rounds = int(sys.argv[1])
    entries = sys.argv[2].split(",")
    args = sys.argv[3:]
    res = {e: [] for e in entries}
    for r in range(rounds):
        k = r % len(entries)
        for e in entries[k:] + entries[:k]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(command(e, args), stdout=subprocess.DEVNULL, check=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            res[e].append((wall, cpu))
    for e in entries:
        ws = [w for w, _ in res[e]]
        print("%-40s wall median %.3f (%.3f-%.3f) cpu median %.3f"
              % (e, statistics.median(ws), min(ws), max(ws), statistics.median([c for _, c in res[e]])))
    if len(entries) >= 2:
        a, b = entries[0], entries[1]
        ratios = [res[b][i][0] / res[a][i][0] for i in range(rounds)]
        print("%s / %s: median ratio %.3f, faster in %d of %d"
              % (b, a, statistics.median(ratios), sum(1 for x in ratios if x < 1), rounds))


if __name__ == "__main__":
    main()
