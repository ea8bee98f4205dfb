#!/usr/bin/env python3
"""Summarise a capture made by capture.sh into an expected.json.

usage: summarize-capture.py NETFILE CAPDIR [FAULTSFILE] [--name NAME] [--extra JSON]

Reads CAPDIR/ibnetdiscover.txt (real tool output), CAPDIR/nodes.tsv (simulator
node id -> GUID/LID) and CAPDIR/ibqueryerrors.txt, the net file (to know the
peer of a cable that was unplugged) and the faults file, and prints JSON:
observed counts (switches, CAs, hosts = distinct CA system image GUIDs, active
links, links per width/speed token, down-but-cabled ports), every fault with
switch name + port, GUID, LID and peer, and the ibqueryerrors summary numbers.
stdlib only.
"""
import json
import os
import re
import sys
from collections import Counter, OrderedDict

NODE_RE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s+#\s+"([^"]*)"(.*)$')
PORT_RE = re.compile(
    r'^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\](?:\(([0-9a-fA-F]+)\))?'
    r'\s+#.*"([^"]*)"\s+lid\s+(\d+)\s+(\S+)\s*$')
SYSIMG_RE = re.compile(r'^sysimgguid=0x([0-9a-fA-F]+)')
LID_RE = re.compile(r'\blid\s+(\d+)')


def parse_ibnetdiscover(path):
    nodes = OrderedDict()   # id -> dict
    cur = None
    sysimg = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = SYSIMG_RE.match(line)
            if m:
                sysimg = "0x%016x" % int(m.group(1), 16)
                continue
            m = NODE_RE.match(line)
            if m:
                typ, nports, nid, desc, rest = m.groups()
                lm = LID_RE.search(rest)
                cur = {"type": typ, "nports": int(nports), "id": nid, "desc": desc,
                       "guid": "0x%016x" % int(nid.split("-", 1)[1], 16),
                       "sysimgguid": sysimg, "lid": int(lm.group(1)) if lm else None,
                       "ports": OrderedDict()}
                nodes[nid] = cur
                continue
            m = PORT_RE.match(line)
            if m and cur is not None:
                p, lpg, rid, rp, rpg, rdesc, rlid, tok = m.groups()
                cur["ports"][int(p)] = {"peer": rid, "peerPort": int(rp), "peerDesc": rdesc,
                                        "peerLid": int(rlid), "token": tok}
                if cur["type"] != "Switch":
                    lm = LID_RE.search(line.split("#", 1)[1])
                    if lm and cur["lid"] is None:
                        cur["lid"] = int(lm.group(1))
    return nodes


def parse_netfile(path):
    """sim node id -> {desc, type, ports: {p: (peer sim id, peer port)}}"""
    nodes = {}
    cur = None
    hdr = re.compile(r'^(Switch|Ca|Hca|Rt)\s+(\d+)\s+"([^"]+)"(?:\s+#\s*"([^"]*)")?')
    prt = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
    with open(path) as f:
        for line in f:
            m = hdr.match(line)
            if m:
                typ, n, nid, desc = m.groups()
                cur = {"type": "Switch" if typ == "Switch" else "Ca", "desc": desc or nid, "ports": {}}
                nodes[nid] = cur
                continue
            m = prt.match(line)
            if m and cur is not None:
                cur["ports"][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return nodes


def parse_nodes_tsv(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            nid, typ, guid, lid = line.rstrip("\n").split("\t")
            out[nid] = {"type": typ, "guid": guid, "lid": int(lid)}
    return out


def parse_faults(path):
    faults = []
    if not path:
        return faults
    target = re.compile(r'"([^"]+)"\[(\d+)\]')
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            s = re.sub(r'^(pre|post):\s*', '', s)
            verb = s.split()[0].lower()
            m = target.search(s)
            if not m:
                continue
            node, port = m.group(1), int(m.group(2))
            if verb == "performanceset":
                cm = re.search(r'\]\s+(\w+)\.(\w+)=(\d+)', s)
                faults.append({"cmd": "PerformanceSet", "node": node, "port": port,
                               "attribute": cm.group(1), "counter": cm.group(2),
                               "value": int(cm.group(3))})
            elif verb == "unlink":
                faults.append({"cmd": "Unlink", "node": node, "port": port})
            elif verb == "query":
                faults.append({"cmd": "Query", "node": node, "port": port})
    return faults


def main():
    args = [a for a in sys.argv[1:]]
    name = None
    extra = {}
    if "--name" in args:
        i = args.index("--name"); name = args[i + 1]; del args[i:i + 2]
    if "--extra" in args:
        i = args.index("--extra"); extra = json.load(open(args[i + 1])); del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    netfile, capdir = args[0], args[1]
    faultsfile = args[2] if len(args) > 2 else None

    disc = parse_ibnetdiscover(capdir + "/ibnetdiscover.txt")
    net = parse_netfile(netfile)
    simnodes = parse_nodes_tsv(capdir + "/nodes.tsv")
    guid2sim = {v["guid"]: k for k, v in simnodes.items()}
    by_guid = {n["guid"]: n for n in disc.values()}

    switches = [n for n in disc.values() if n["type"] == "Switch"]
    cas = [n for n in disc.values() if n["type"] == "Ca"]
    hosts = {n["sysimgguid"] for n in cas}
    links = set()
    tokens = Counter()
    for n in disc.values():
        for p, e in n["ports"].items():
            a = (n["id"], p)
            b = (e["peer"], e["peerPort"])
            key = tuple(sorted([a, b]))
            if key not in links:
                links.add(key)
                tokens[e["token"]] += 1
    sw_links = sum(1 for k in links if k[0][0].startswith("S-") and k[1][0].startswith("S-"))

    def sim_desc(simid):
        return net[simid]["desc"] if simid in net else simid

    def endpoint(simid, port):
        sn = simnodes.get(simid, {})
        d = {"name": sim_desc(simid), "simNodeId": simid, "port": port,
             "nodeGuid": sn.get("guid"), "lid": sn.get("lid")}
        if sn.get("type") == "Ca" and sn.get("guid"):
            d["portGuid"] = "0x%016x" % (int(sn["guid"], 16) + port)
            dn = by_guid.get(sn["guid"])
            if dn:
                d["lid"] = dn["lid"]
        files = [fn for fn in ("perfquery-%s-%d.txt" % (d["lid"], port),
                               "perfquery-x-%s-%d.txt" % (d["lid"], port))
                 if os.path.exists(os.path.join(capdir, fn))]
        if files:
            d["captureFiles"] = files
        return d

    faults_out = []
    raw = parse_faults(faultsfile)
    unplugged = {(f["node"], f["port"]) for f in raw if f["cmd"] == "Unlink"}
    queried = {(f["node"], f["port"]) for f in raw if f["cmd"] == "Query"}
    for f in raw:
        if f["cmd"] == "Query":
            continue
        peer = net.get(f["node"], {}).get("ports", {}).get(f["port"])
        ent = OrderedDict()
        if f["cmd"] == "Unlink":
            ent["kind"] = "unplugged_cable"
        else:
            if (f["node"], f["port"]) in unplugged or (peer and tuple(peer) in unplugged):
                ent["kind"] = "unplugged_cable_counter"
            else:
                ent["kind"] = {"SymbolErrorCounter": "symbol_errors",
                               "LinkErrorRecoveryCounter": "link_error_recovery",
                               "LinkDownedCounter": "link_downed"}.get(f["counter"], "counter")
            ent["counter"] = f["counter"]
            ent["value"] = f["value"]
        ent["at"] = endpoint(f["node"], f["port"])
        if peer:
            ent["peer"] = endpoint(peer[0], peer[1])
        faults_out.append(ent)
    # degraded links: any link narrower than the most common width
    widths = Counter()
    for t, c in tokens.items():
        widths[re.match(r'(\d+)x', t).group(1) if re.match(r'(\d+)x', t) else t] += c
    main_width = widths.most_common(1)[0][0] if widths else None
    for key in sorted(links):
        (aid, ap), (bid, bp) = key
        a = disc[aid]
        tok = a["ports"][ap]["token"]
        m = re.match(r'(\d+)x', tok)
        if m and m.group(1) != main_width:
            # report from the switch side
            if not aid.startswith("S-") and bid.startswith("S-"):
                aid, ap, bid, bp = bid, bp, aid, ap
            asim = guid2sim.get(disc[aid]["guid"])
            bsim = guid2sim.get(disc[bid]["guid"])
            # a "Query" line in the faults file names the end to report from
            if (bsim, bp) in queried and (asim, ap) not in queried:
                asim, ap, bsim, bp = bsim, bp, asim, ap
            faults_out.append(OrderedDict([
                ("kind", "degraded_width"), ("token", tok),
                ("at", endpoint(asim, ap)), ("peer", endpoint(bsim, bp))]))

    qe = {}
    try:
        txt = open(capdir + "/ibqueryerrors.txt").read()
        m = re.search(r'## Summary: (\d+) nodes checked, (\d+) bad nodes found', txt)
        m2 = re.search(r'##\s+(\d+) ports checked, (\d+) ports have errors beyond threshold', txt)
        if m and m2:
            qe = {"nodesChecked": int(m.group(1)), "badNodes": int(m.group(2)),
                  "portsChecked": int(m2.group(1)), "portsWithErrors": int(m2.group(2))}
    except OSError:
        pass

    out = OrderedDict()
    if name:
        out["name"] = name
    out.update(extra)
    out["observed"] = OrderedDict([
        ("switches", len(switches)),
        ("cas", len(cas)),
        ("hosts", len(hosts)),
        ("activeLinks", len(links)),
        ("switchToSwitchLinks", sw_links),
        ("caLinks", len(links) - sw_links),
        ("linksByToken", OrderedDict(sorted(tokens.items()))),
        ("switchPorts", sum(n["nports"] for n in switches)),
    ])
    out["ibqueryerrors"] = qe
    out["faults"] = faults_out
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
