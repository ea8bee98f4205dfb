#!/usr/bin/env python3
"""A large LLDP keyvalue fabric for timing (not committed output): 16 spines, 64 leaves, 1,024 hosts with two NICs on a
leaf pair, every node's table in one file after "==> NODE <==" markers. usage: gen-big-lldp.py OUT"""
import sys
spines, leaves, hosts_per_leafpair = 16, 64, 32
out = []
def kv(node, entries):
    out.append(f"==> {node} <==")
    for local, remote, rport, switch in entries:
        out.append(f"lldp.{local}.via=LLDP")
        out.append(f"lldp.{local}.chassis.name={remote}")
        out.append(f"lldp.{local}.chassis.Bridge.enabled={'on' if switch else 'off'}")
        out.append(f"lldp.{local}.chassis.Router.enabled={'on' if switch else 'off'}")
        out.append(f"lldp.{local}.chassis.Station.enabled={'off' if switch else 'on'}")
        out.append(f"lldp.{local}.port.ifname={rport}")
leaf_entries = {l: [] for l in range(leaves)}
spine_entries = {s: [] for s in range(spines)}
for l in range(leaves):
    for s in range(spines):
        leaf_entries[l].append((f"Ethernet{4*s}", f"spine-{s:02d}", f"Ethernet{4*l}", True))
        spine_entries[s].append((f"Ethernet{4*l}", f"leaf-{l:02d}", f"Ethernet{4*s}", True))
h = 0
for pair in range(leaves // 2):
    for i in range(hosts_per_leafpair):
        name = f"gpu-node-{h:04d}"
        ent = []
        for r in range(2):
            l = pair * 2 + r
            port = f"Ethernet{4*(spines + i)}"
            nic = f"ens{r+1}f0np0"
            ent.append((nic, f"leaf-{l:02d}", port, True))
            leaf_entries[l].append((port, name, nic, False))
        kv(name, ent)
        h += 1
for l in range(leaves): kv(f"leaf-{l:02d}", leaf_entries[l])
for s in range(spines): kv(f"spine-{s:02d}", spine_entries[s])
open(sys.argv[1], "w").write("\n".join(out) + "\n")
print(h, "hosts", len(out), "lines")
