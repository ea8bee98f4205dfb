#!/usr/bin/env python3
"""The plain Python reader issue 27 compares `fabricscope summary` with: reads ibnetdiscover output and prints
how many switches, CAs and cables it holds (each cable once, from both ends' port lines). No tiers, no
checks, no error counters: the least a reader of the file must do. stdlib only.

usage: ibnet-count.py FILE...

Time it under the interpreter itself (/usr/bin/python3, or pyenv's versions/X/bin/python3): pyenv's `python3` shim is a
bash script that adds 45-60 ms before Python starts (BENCHMARKS.md, "Issue 27, fifteenth session").
"""
import re
import sys

NODE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"')
PORT = re.compile(r'^\[(\d+)\][^"]*"([^"]+)"\[(\d+)\]')


def main():
    kinds = {"Switch": 0, "Ca": 0, "Rt": 0}
    cables = set()
    for path in sys.argv[1:]:
        node = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("["):
                    m = PORT.match(line)
                    if m and node:
                        a = (node, int(m.group(1)))
                        b = (m.group(2), int(m.group(3)))
                        cables.add((a, b) if a < b else (b, a))
                    continue
                m = NODE.match(line)
                if m:
                    kinds[m.group(1)] += 1
                    node = m.group(3)
    print("Switches %d\nCAs %d\nRouters %d\nCables %d" % (kinds["Switch"], kinds["Ca"], kinds["Rt"], len(cables)))


if __name__ == "__main__":
    main()
