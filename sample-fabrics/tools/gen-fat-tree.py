#!/usr/bin/env python3
"""Generate a random (seeded) 2- or 3-tier InfiniBand fat tree for ibsim.

usage:
  gen-fat-tree.py --seed N --out DIR [--tiers 2|3] [--size small|medium]
                  [--faults K] [--speed EDR|HDR]

Writes three files into DIR (created if missing):
  DIR/fabric.net    ibsim net file (ibnetdiscover-like syntax)
  DIR/faults.txt    ibsim console commands for capture.sh (one per line)
  DIR/fabric.json   what was built: switch counts per tier, CAs, hosts, cables,
                    expected active links per width/speed token, injected faults

Same seed + same options => byte-identical files.  Without --tiers the seed
picks 2 or 3 tiers.  Fault kinds, cycled through when K > 4 (default K = 4):
  symbol_errors        PerformanceSet ... PortCounters.SymbolErrorCounter=<v>
  link_error_recovery  PerformanceSet ... PortCounters.LinkErrorRecoveryCounter=<v>
  unplugged_cable      Unlink (a switch-to-switch cable; applied before the SM
                       sweep) + LinkDownedCounter=1 on both switch ports
  degraded_width       "1x<speed>" on both port lines of the net file
Every fault is on a different cable.  Unplugged cables are always
switch-to-switch and never the last cable between two tiers' switch pair
groups, so every CA stays reachable; fabric.json's "expected" section
therefore holds exactly what ibnetdiscover must show.

Then capture with:
  bash sample-fabrics/tools/capture.sh DIR/fabric.net OUTDIR DIR/faults.txt
stdlib only.
"""
import argparse
import json
import os
import random
import sys
from collections import OrderedDict

MODELS = {
    # speed -> (model name, ports, devid)
    "HDR": ("MQM8700", 40, 0xD2F0),
    "EDR": ("MSB7800", 36, 0xCF08),
}
CA_DEVID = {"HDR": 0x101B, "EDR": 0x1017}   # ConnectX-6 / ConnectX-5
VENDOR = 0x02C9


class Fabric:
    def __init__(self, speed, radix):
        self.speed = speed
        self.radix = radix
        self.switches = OrderedDict()   # name -> {"tier": t, "guid": g, "ports": {p: link}}
        self.cas = OrderedDict()        # name -> {"host": h, "hca": i, "guid": g, "sysimg": s, "ports": {}}
        self.links = []                 # dict(a=(node, port), b=(node, port), kind, token)

    def add_switch(self, name, tier, guid):
        self.switches[name] = {"tier": tier, "guid": guid, "ports": {}, "next": 1}

    def free_port(self, sw):
        s = self.switches[sw]
        p = s["next"]
        if p > self.radix:
            raise ValueError("switch %s out of ports (radix %d)" % (sw, self.radix))
        s["next"] += 1
        return p

    def connect_sw(self, a, b):
        pa, pb = self.free_port(a), self.free_port(b)
        link = {"a": (a, pa), "b": (b, pb), "kind": "switch", "width": "4x"}
        self.switches[a]["ports"][pa] = link
        self.switches[b]["ports"][pb] = link
        self.links.append(link)
        return link

    def connect_ca(self, ca, sw):
        ps = self.free_port(sw)
        link = {"a": (sw, ps), "b": (ca, 1), "kind": "ca", "width": "4x"}
        self.switches[sw]["ports"][ps] = link
        self.cas[ca]["ports"][1] = link
        self.links.append(link)
        return link


def sim_sw(name):
    return "S-" + name


def sim_ca(name):
    return "H-" + name


def build(args, rng):
    tiers = args.tiers or rng.choice([2, 3])
    speed = args.speed or rng.choice(["HDR", "EDR"])
    model, radix, sw_devid = MODELS[speed]
    fab = Fabric(speed, radix)
    small = args.size == "small"
    sw_guid = 0x0C42A10300100000 + (args.seed % 0x1000) * 0x100
    ca_guid_base = 0xB8CEF60300000000 + (args.seed % 0x100) * 0x1000000

    hcas_per_host = rng.choice([1, 2])
    tier_names = {}
    n = 0
    if tiers == 3:
        pods = rng.randint(2, 3) if small else rng.randint(3, 4)
        leaves_per_pod = rng.randint(3, 4) if small else rng.randint(4, 6)
        aggs_per_pod = rng.randint(2, 4)
        core_per_agg = rng.randint(1, 2) if small else rng.randint(2, 3)
        up_leaf_agg = rng.choice([1, 2])
        up_agg_core = 1
        hosts_per_leaf = rng.randint(2, 4) if small else rng.randint(4, 8)
        # leaf port budget: uplinks + (CA cables landing on one leaf)
        hosts_per_leaf = max(1, min(hosts_per_leaf, (radix - aggs_per_pod * up_leaf_agg) // hcas_per_host))
        cores = aggs_per_pod * core_per_agg
        core_names = ["core-%02d" % (i + 1) for i in range(cores)]
        for c in core_names:
            n += 1; fab.add_switch(c, "core", sw_guid + n)
        leaf_names, agg_names = [], []
        for p in range(1, pods + 1):
            pod_aggs = ["agg-p%d-%02d" % (p, a + 1) for a in range(aggs_per_pod)]
            pod_leaves = ["leaf-p%d-%02d" % (p, l + 1) for l in range(leaves_per_pod)]
            for a in pod_aggs:
                n += 1; fab.add_switch(a, "aggregation", sw_guid + n)
            for l in pod_leaves:
                n += 1; fab.add_switch(l, "leaf", sw_guid + n)
            agg_names += pod_aggs
            leaf_names += pod_leaves
            for l in pod_leaves:
                for a in pod_aggs:
                    for _ in range(up_leaf_agg):
                        fab.connect_sw(l, a)
            for ai, a in enumerate(pod_aggs):
                for c in core_names[ai * core_per_agg:(ai + 1) * core_per_agg]:
                    for _ in range(up_agg_core):
                        fab.connect_sw(a, c)
        tier_names = OrderedDict([("leaf", leaf_names), ("aggregation", agg_names), ("core", core_names)])
        params = OrderedDict([("pods", pods), ("leavesPerPod", leaves_per_pod),
                              ("aggregationPerPod", aggs_per_pod), ("coreSwitches", cores),
                              ("coresPerAggregation", core_per_agg),
                              ("uplinksLeafToAggregation", up_leaf_agg),
                              ("uplinksAggregationToCore", up_agg_core)])
        leaf_groups = [leaf_names[i:i + leaves_per_pod] for i in range(0, len(leaf_names), leaves_per_pod)]
    else:
        leaves = rng.randint(4, 8) if small else rng.randint(8, 16)
        spines = rng.randint(2, 4) if small else rng.randint(4, 8)
        up = rng.choice([1, 2])
        hosts_per_leaf = rng.randint(2, 6) if small else rng.randint(6, 12)
        hosts_per_leaf = max(1, min(hosts_per_leaf, (radix - spines * up) // hcas_per_host))
        spine_names = ["spine-%02d" % (i + 1) for i in range(spines)]
        leaf_names = ["leaf-%02d" % (i + 1) for i in range(leaves)]
        for s in spine_names:
            n += 1; fab.add_switch(s, "spine", sw_guid + n)
        for l in leaf_names:
            n += 1; fab.add_switch(l, "leaf", sw_guid + n)
        for l in leaf_names:
            for s in spine_names:
                for _ in range(up):
                    fab.connect_sw(l, s)
        tier_names = OrderedDict([("leaf", leaf_names), ("spine", spine_names)])
        params = OrderedDict([("leaves", leaves), ("spines", spines), ("uplinksLeafToSpine", up)])
        leaf_groups = [leaf_names]

    # hosts: host i of leaf-group g; its HCA k goes to leaf (base + k) of the group
    host_no = 0
    for group in leaf_groups:
        for li, leaf in enumerate(group):
            for h in range(hosts_per_leaf):
                host_no += 1
                host = "cn%04d" % host_no
                sysimg = ca_guid_base + host_no * 0x100
                for k in range(hcas_per_host):
                    ca = "%s-mlx5_%d" % (host, k)
                    fab.cas[ca] = {"host": host, "hca": k, "guid": sysimg + 0x10 + 2 * k,
                                   "sysimg": sysimg, "ports": {}}
                    fab.connect_ca(ca, group[(li + k) % len(group)])
    params["hostsPerLeaf"] = hosts_per_leaf
    params["hcasPerHost"] = hcas_per_host
    return fab, tiers, model, sw_devid, tier_names, params


def pick_faults(fab, rng, k, tiers):
    kinds = ["symbol_errors", "link_error_recovery", "unplugged_cable", "degraded_width"]
    used = set()
    faults = []
    sw_links = [l for l in fab.links if l["kind"] == "switch"]
    all_links = list(fab.links)
    # how many cables leave each switch upward (to keep unplugging safe)
    unplugged_per_switch = {}

    def up_degree(sw):
        return sum(1 for l in fab.switches[sw]["ports"].values() if l["kind"] == "switch")

    for i in range(k):
        kind = kinds[i % len(kinds)]
        pool = sw_links if kind == "unplugged_cable" else all_links
        cands = [l for l in pool if id(l) not in used]
        if kind == "unplugged_cable":
            # keep >= 1 remaining switch-to-switch cable on both ends
            cands = [l for l in cands
                     if up_degree(l["a"][0]) - unplugged_per_switch.get(l["a"][0], 0) > 1
                     and up_degree(l["b"][0]) - unplugged_per_switch.get(l["b"][0], 0) > 1]
        if not cands:
            break
        link = rng.choice(cands)
        used.add(id(link))
        f = OrderedDict([("kind", kind)])
        sw, port = link["a"]
        peer, pport = link["b"]
        if kind == "symbol_errors":
            f["counter"] = "SymbolErrorCounter"; f["value"] = rng.randint(50, 5000)
        elif kind == "link_error_recovery":
            f["counter"] = "LinkErrorRecoveryCounter"; f["value"] = rng.randint(11, 255)
        elif kind == "unplugged_cable":
            link["unplugged"] = True
            unplugged_per_switch[sw] = unplugged_per_switch.get(sw, 0) + 1
            unplugged_per_switch[peer] = unplugged_per_switch.get(peer, 0) + 1
        elif kind == "degraded_width":
            link["width"] = "1x"
        f["switch"] = sw
        f["switchSimId"] = sim_sw(sw)
        f["port"] = port
        f["peer"] = OrderedDict([("name", peer), ("simId", sim_sw(peer) if peer in fab.switches else sim_ca(peer)),
                                 ("port", pport)])
        f["link"] = link
        faults.append(f)
    return faults


def desc_sw(name, model):
    return "MF0;%s:%s/U1" % (name, model)


def desc_ca(fab, ca):
    c = fab.cas[ca]
    return "%s mlx5_%d" % (c["host"], c["hca"])


def write(args, fab, tiers, model, sw_devid, tier_names, params, faults):
    os.makedirs(args.out, exist_ok=True)
    sp = fab.speed
    net = []
    w = net.append
    w("# ibsim net file: %d-tier fat tree, generated by sample-fabrics/tools/gen-fat-tree.py" % tiers)
    w("# options: --seed %d --tiers %d --size %s --faults %d --speed %s"
      % (args.seed, tiers, args.size, args.faults, sp))
    w("")
    w("devid=0x%04x" % sw_devid)
    w("")
    for name, s in fab.switches.items():
        w("vendid=0x%04x" % VENDOR)
        w("switchguid=0x%016x" % s["guid"])
        w('Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid 0 lmc 0' % (fab.radix, sim_sw(name), desc_sw(name, model)))
        for p in sorted(s["ports"]):
            l = s["ports"][p]
            other = l["b"] if l["a"] == (name, p) else l["a"]
            oid = sim_sw(other[0]) if other[0] in fab.switches else sim_ca(other[0])
            w('[%d]\t"%s"[%d]\t\t# lid 0 %s%s' % (p, oid, other[1], l["width"], sp))
        w("")
    w("devid=0x%04x" % CA_DEVID[sp])
    w("")
    for name, c in fab.cas.items():
        l = c["ports"][1]
        w("vendid=0x%04x" % VENDOR)
        w("sysimgguid=0x%016x" % c["sysimg"])
        w("caguid=0x%016x" % c["guid"])
        w('Ca\t1 "%s"\t\t# "%s"' % (sim_ca(name), desc_ca(fab, name)))
        w('[1]\t"%s"[%d]\t\t# lid 0 %s%s' % (sim_sw(l["a"][0]), l["a"][1], l["width"], sp))
        w("")
    with open(os.path.join(args.out, "fabric.net"), "w") as f:
        f.write("\n".join(net) + "\n")

    cmds = ["# faults for fabric.net (gen-fat-tree.py --seed %d); ibsim console commands" % args.seed,
            "# applied by capture.sh: Unlink before the SM sweep, PerformanceSet after SUBNET UP"]
    jf = []
    for f in faults:
        link = f.pop("link")
        sw, port, peer = f["switch"], f["port"], f["peer"]
        cmds.append("# %s: %s port %d <-> %s port %d" % (f["kind"], sw, port, peer["name"], peer["port"]))
        c = []
        if f["kind"] in ("symbol_errors", "link_error_recovery"):
            c.append('PerformanceSet "%s"[%d] PortCounters.%s=%d' % (sim_sw(sw), port, f["counter"], f["value"]))
        elif f["kind"] == "unplugged_cable":
            c.append('Unlink "%s"[%d]' % (sim_sw(sw), port))
            c.append('PerformanceSet "%s"[%d] PortCounters.LinkDownedCounter=1' % (sim_sw(sw), port))
            if peer["name"] in fab.switches:
                c.append('PerformanceSet "%s"[%d] PortCounters.LinkDownedCounter=1' % (peer["simId"], peer["port"]))
        elif f["kind"] == "degraded_width":
            cmds.append("#   (width comes from the net file: %s%s on both port lines)" % (link["width"], sp))
            c.append('Query "%s"[%d]' % (sim_sw(sw), port))
            f["token"] = "1x" + sp
        cmds += c
        f["switchDescription"] = desc_sw(sw, model)
        f["peer"]["description"] = (desc_sw(peer["name"], model) if peer["name"] in fab.switches
                                    else desc_ca(fab, peer["name"]))
        f["consoleCommands"] = c
        jf.append(f)
    with open(os.path.join(args.out, "faults.txt"), "w") as fh:
        fh.write("\n".join(cmds) + "\n")

    unplugged = sum(1 for l in fab.links if l.get("unplugged"))
    tokens = {}
    for l in fab.links:
        if l.get("unplugged"):
            continue
        t = l["width"] + sp
        tokens[t] = tokens.get(t, 0) + 1
    sw_cables = sum(1 for l in fab.links if l["kind"] == "switch")
    hosts = sorted({c["host"] for c in fab.cas.values()})
    doc = OrderedDict()
    doc["generator"] = "sample-fabrics/tools/gen-fat-tree.py"
    doc["seed"] = args.seed
    doc["tiers"] = tiers
    doc["size"] = args.size
    doc["speed"] = sp
    doc["switchModel"] = model
    doc["switchPorts"] = fab.radix
    doc["parameters"] = params
    doc["counts"] = OrderedDict([
        ("switchesPerTier", OrderedDict((t, len(v)) for t, v in tier_names.items())),
        ("switches", len(fab.switches)),
        ("cas", len(fab.cas)),
        ("hosts", len(hosts)),
        ("cables", len(fab.links)),
        ("switchToSwitchCables", sw_cables),
        ("caCables", len(fab.links) - sw_cables),
        ("cablesUnplugged", unplugged),
    ])
    doc["expected"] = OrderedDict([
        ("switches", len(fab.switches)),
        ("cas", len(fab.cas)),
        ("hosts", len(hosts)),
        ("activeLinks", len(fab.links) - unplugged),
        ("linksByToken", OrderedDict(sorted(tokens.items()))),
        ("portsWithErrors", sum(1 for f in jf if f["kind"] in ("symbol_errors", "link_error_recovery"))
                            + sum(2 if f["peer"]["simId"].startswith("S-") else 1
                                  for f in jf if f["kind"] == "unplugged_cable")),
    ])
    doc["switchNames"] = OrderedDict((t, v) for t, v in tier_names.items())
    doc["switchGuids"] = OrderedDict((n, "0x%016x" % s["guid"]) for n, s in fab.switches.items())
    doc["faults"] = jf
    doc["files"] = {"net": "fabric.net", "faults": "faults.txt"}
    with open(os.path.join(args.out, "fabric.json"), "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    return doc


def main():
    ap = argparse.ArgumentParser(description="random seeded fat tree for ibsim")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--tiers", type=int, choices=[2, 3], help="default: chosen by the seed")
    ap.add_argument("--size", choices=["small", "medium"], default="small")
    ap.add_argument("--faults", type=int, default=4, help="number of faults (default 4, one of each kind)")
    ap.add_argument("--speed", choices=["EDR", "HDR"], help="default: chosen by the seed")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fab, tiers, model, sw_devid, tier_names, params = build(args, rng)
    faults = pick_faults(fab, rng, args.faults, tiers)
    doc = write(args, fab, tiers, model, sw_devid, tier_names, params, faults)
    c = doc["counts"]
    sys.stderr.write("gen-fat-tree: seed %d: %d tiers, %d switches %s, %d CAs, %d hosts, %d cables, %d faults -> %s\n"
                     % (args.seed, tiers, c["switches"], dict(c["switchesPerTier"]), c["cas"], c["hosts"],
                        c["cables"], len(doc["faults"]), args.out))


if __name__ == "__main__":
    main()
