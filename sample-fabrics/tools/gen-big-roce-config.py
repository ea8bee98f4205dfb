#!/usr/bin/env python3
"""For timing (output not committed): the switches' config_db.json and the hosts' ip -j addr of the fabric gen-big-lldp.py
writes (16 spines, 64 leaves, 1,024 hosts), the designed cabling as DEVICE_NEIGHBOR, PFC on 3 and 4. usage: gen-big-roce-config.py OUTDIR"""
import json, os, sys
spines, leaves, hpl = 16, 64, 32
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def cfg(name, ports, neigh):
    d = {"DEVICE_METADATA": {"localhost": {"hostname": name}},
         "PORT": {p: {"admin_status": "up", "mtu": m, "speed": "400000", "alias": "etp%d" % (int(p[8:]) // 4 + 1)} for p, m in ports},
         "PORT_QOS_MAP": {p: {"pfc_enable": "3,4"} for p, _ in ports},
         "DEVICE_NEIGHBOR": {p: {"name": n, "port": np} for p, (n, np) in neigh.items()}}
    os.makedirs(f"{out}/{name}", exist_ok=True)
    json.dump(d, open(f"{out}/{name}/config_db.json", "w"), indent=4, sort_keys=True)
for l in range(leaves):
    ports = [(f"Ethernet{4*s}", "9100") for s in range(spines)] + [(f"Ethernet{4*(spines+i)}", "9000") for i in range(hpl)]
    neigh = {f"Ethernet{4*s}": (f"spine-{s:02d}", f"Ethernet{4*l}") for s in range(spines)}
    pair = l // 2
    for i in range(hpl):
        neigh[f"Ethernet{4*(spines+i)}"] = (f"gpu-node-{pair*hpl+i:04d}", f"ens{l%2+1}f0np0")
    cfg(f"leaf-{l:02d}", ports, neigh)
for s in range(spines):
    cfg(f"spine-{s:02d}", [(f"Ethernet{4*l}", "9100") for l in range(leaves)], {f"Ethernet{4*l}": (f"leaf-{l:02d}", f"Ethernet{4*s}") for l in range(leaves)})
with open(f"{out}/all-hosts-ip.txt", "w") as f:
    for h in range(leaves // 2 * hpl):
        f.write(f"==> gpu-node-{h:04d}/ip-j-addr.json <==\n")
        devs = [{"ifindex": 1, "ifname": "lo", "mtu": 65536, "operstate": "UNKNOWN", "address": "00:00:00:00:00:00", "addr_info": []}]
        for r in range(2):
            devs.append({"ifindex": r + 2, "ifname": f"ens{r+1}f0np0", "mtu": 9000, "operstate": "UP", "address": "0c:42:a1:%02x:%02x:%02x" % (r, h // 256, h % 256),
                         "addr_info": [{"family": "inet", "local": f"192.168.{10+r}.{h%250}", "prefixlen": 16}]})
        f.write(json.dumps(devs, separators=(",", ":")) + "\n")
