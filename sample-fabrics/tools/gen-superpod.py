#!/usr/bin/env python3
"""Write ibnetdiscover output for a Selene-like three-tier, rail-optimised fabric, for scale tests.

Defaults give "ten times Selene": 16 pods x 16 scalable units x 20 DGX hosts x 8 rails:
40,960 HCAs, 2,048 leaves, 2,048 spines, 1,024 cores (46,080 nodes) and 122,880 cables
(every host link, leaf uplink and spine uplink). Switches are 40-port HDR (MQM8700): a leaf has
20 hosts down and 20 uplinks to the 16 spines of its pod's rail plane; a spine 20 down and 20 up
to the cores. Names follow Selene's: leaf groups LG<su>-<rail>, spine groups CSPINE<pod>-<n>,
core groups CCORE<g>-<n>, hosts dgx-<n> with HCAs mlx5_<rail-1>.

usage:
  gen-superpod.py [--pods 16] [--sus 16] [--hosts 20] [--rails 8] [--planes] --out FILE
                  [--errors LEAF:PORT --errors-out FILE]

One InfiniBand subnet has at most 49,151 unicast LIDs (0x0001-0xBFFF), so past about 43,000 HCAs (with their
switches) one subnet cannot hold the fabric: the generator refuses. --planes makes each rail a subnet of its
own (a multi-plane fabric): a rail's spines cable only to that rail's cores, LIDs are counted per plane, and
each plane is written to a file of its own, OUT with ".plane<R>" before its extension, as
`ibnetdiscover -C mlx5_<R-1>` on one host of each plane would print it. 64 pods x 10 SUs x 20 hosts x 8 rails
(102,400 HCAs) needs it.

--errors writes an ibqueryerrors file that reports SymbolErrorCounter == 1873 on that switch
port (for example LG040-03:33, an uplink of scalable unit 40, in pod 3).
Output is deterministic. stdlib only.
"""
import argparse
import sys

SW_GUID = 0x0C42A10300000000
CA_GUID = 0xB8CEF60300000000
MAX_UNICAST_LID = 0xBFFF  # IBA: unicast LIDs 0x0001-0xBFFF, multicast from 0xC000


def serial(i):
    """A GUID's low 40 bits: scattered like real serial numbers (an odd multiplier is a bijection mod 2^40),
    so hash tables keyed by GUID see what they see on real fabrics, not runs of consecutive numbers."""
    return (i * 0x9E3779B1) & 0xFFFFFFFFFF


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pods", type=int, default=16)
    ap.add_argument("--sus", type=int, default=16, help="scalable units per pod")
    ap.add_argument("--hosts", type=int, default=20, help="hosts per scalable unit")
    ap.add_argument("--rails", type=int, default=8)
    ap.add_argument("--planes", action="store_true", help="one subnet per rail, one file per plane")
    ap.add_argument("--out", required=True)
    ap.add_argument("--errors", help="SWITCH:PORT to report symbol errors on")
    ap.add_argument("--errors-out", help="ibqueryerrors file to write for --errors")
    a = ap.parse_args()

    up = a.hosts                      # a leaf's uplinks: as many as its hosts (full bisection)
    leaves_per_plane = a.sus          # one leaf per SU in each rail plane of a pod
    spines_per_plane = leaves_per_plane * up // 20
    n_spines = a.pods * a.rails * spines_per_plane
    n_cores = n_spines * 20 // 40
    if leaves_per_plane * up % 20 or n_spines * 20 % 40 or (a.planes and n_cores % a.rails):
        sys.exit("the sizes do not divide into 40-port switches")
    n_leaves = a.pods * a.sus * a.rails
    n_cas = n_leaves * a.hosts
    per_subnet = (n_leaves + n_spines + n_cores + n_cas) // (a.rails if a.planes else 1)
    if per_subnet + 1 > MAX_UNICAST_LID:
        sys.exit("%d nodes do not fit one subnet's unicast LIDs (1-%d); use --planes for a subnet per rail"
                 % (per_subnet, MAX_UNICAST_LID))

    guid = [SW_GUID]
    lid = {}

    def next_guid():
        guid[0] += 1
        return SW_GUID | serial(guid[0] - SW_GUID)

    def next_lid(rail):
        plane = rail if a.planes else 0
        lid[plane] = lid.get(plane, 1) + 1
        return lid[plane]

    # switches: name -> {guid, lid, plane, ports{port: (peer name, peer port)}}
    sw = {}
    order = []

    def add_switch(name, rail):
        sw[name] = {"guid": next_guid(), "lid": next_lid(rail), "plane": rail if a.planes else 0, "ports": {}}
        order.append(name)

    leaf_names = {}
    for p in range(a.pods):
        for s in range(a.sus):
            su = p * a.sus + s + 1
            for r in range(1, a.rails + 1):
                n = "LG%03d-%02d" % (su, r)
                leaf_names[(p, s, r)] = n
                add_switch(n, r)
    spine_names = {}
    for p in range(a.pods):
        for r in range(1, a.rails + 1):
            for k in range(spines_per_plane):
                n = "CSPINE%d-%03d" % (p + 1, (r - 1) * spines_per_plane + k + 1)
                spine_names[(p, r, k)] = n
                add_switch(n, r)
    core_names = []  # without planes: all cores; with planes: the cores of each rail, rail after rail
    per_rail = n_cores // a.rails
    for c in range(n_cores):
        if a.planes:
            n = "CCORE%d-%03d" % (c // per_rail + 1, c % per_rail + 1)
            add_switch(n, c // per_rail + 1)
        else:
            n = "CCORE%d-%03d" % (c * 2 // n_cores + 1, c % (n_cores // 2) + 1)
            add_switch(n, 0)
        core_names.append(n)

    free = {n: 1 for n in sw}

    def cable(x, y):
        px, py = free[x], free[y]
        free[x] += 1
        free[y] += 1
        sw[x]["ports"][px] = (y, py)
        sw[y]["ports"][py] = (x, px)

    # hosts first, so a leaf's ports 1..hosts are its hosts
    cas = []  # (desc, guid, lid, leaf, leaf port)
    host = 0
    for p in range(a.pods):
        for s in range(a.sus):
            for h in range(a.hosts):
                host += 1
                for r in range(1, a.rails + 1):
                    leaf = leaf_names[(p, s, r)]
                    port = free[leaf]
                    free[leaf] += 1
                    g = CA_GUID | (serial(host * 16 + r) & ~1)  # even: the port GUID is g + 1
                    l = next_lid(r)
                    sw[leaf]["ports"][port] = ("ca", len(cas))
                    cas.append(("dgx-%04d mlx5_%d" % (host, r - 1), g, l, leaf, port))
    for p in range(a.pods):
        for r in range(1, a.rails + 1):
            for s in range(a.sus):
                leaf = leaf_names[(p, s, r)]
                for k in range(up):
                    cable(leaf, spine_names[(p, r, (s * up + k) % spines_per_plane)])
    if a.planes:
        for r in range(1, a.rails + 1):
            plane_spines = [spine_names[k] for k in sorted(spine_names) if k[1] == r]
            plane_cores = core_names[(r - 1) * per_rail:r * per_rail]
            for i, sp in enumerate(plane_spines):
                for k in range(20):
                    cable(sp, plane_cores[(i * 20 + k) % per_rail])
    else:
        spines = [spine_names[k] for k in sorted(spine_names)]
        for i, sp in enumerate(spines):
            for k in range(20):
                cable(sp, core_names[(i * 20 + k) % n_cores])

    planes = range(1, a.rails + 1) if a.planes else [0]
    for plane in planes:
        write_plane(a, plane, order, sw, cas)
    if a.errors:
        name, port = a.errors.rsplit(":", 1)
        s = sw[name]
        with open(a.errors_out, "w") as f:
            f.write('Errors for 0x%x "MF0;%s:MQM8700/U1"\n' % (s["guid"], name))
            f.write("   GUID 0x%x port ALL: [SymbolErrorCounter == 1873]\n" % s["guid"])
            f.write("   GUID 0x%x port %s: [SymbolErrorCounter == 1873]\n\n" % (s["guid"], port))
            f.write("## Summary: %d nodes checked, 1 bad nodes found\n" % (len(sw) + len(cas)))
            f.write("##          %d ports checked, 1 ports have errors beyond threshold\n" % (len(sw) * 40))
    sys.stderr.write("%d switches (%d leaves, %d spines, %d cores), %d HCAs, %d nodes\n"
                     % (len(sw), len(leaf_names), n_spines, n_cores, len(cas), len(sw) + len(cas)))


def plane_file(out, plane):
    """OUT itself, or with planes OUT with ".plane<R>" before its extension."""
    if plane == 0:
        return out
    stem, dot, ext = out.rpartition(".")
    return "%s.plane%d.%s" % (stem, plane, ext) if dot and "/" not in ext else "%s.plane%d" % (out, plane)


def write_plane(a, plane, order, sw, cas):
    """One subnet's ibnetdiscover output: its switches, then its HCAs (plane 0: the whole fabric)."""
    with open(plane_file(a.out, plane), "w") as f:
        f.write("#\n# Topology file: generated by gen-superpod.py (%d pods x %d SUs x %d hosts x %d rails%s)\n#\n\n"
                % (a.pods, a.sus, a.hosts, a.rails, ", plane %d" % plane if plane else ""))
        for n in order:
            s = sw[n]
            if s["plane"] != plane:
                continue
            f.write("vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)\n" % (s["guid"], s["guid"], s["guid"]))
            f.write('Switch\t41 "S-%016x"\t\t# "MF0;%s:MQM8700/U1" enhanced port 0 lid %d lmc 0\n' % (s["guid"], n, s["lid"]))
            for port in sorted(s["ports"]):
                peer, pp = s["ports"][port]
                if peer == "ca":
                    desc, g, l, _, _ = cas[pp]
                    f.write('[%d]\t"H-%016x"[1](%x) \t\t# "%s" lid %d 4xHDR\n' % (port, g, g + 1, desc, l))
                else:
                    o = sw[peer]
                    f.write('[%d]\t"S-%016x"[%d]\t\t# "MF0;%s:MQM8700/U1" lid %d 4xHDR\n' % (port, o["guid"], pp, peer, o["lid"]))
            f.write("\n")
        for desc, g, l, leaf, port in cas:
            s = sw[leaf]
            if s["plane"] != plane:
                continue
            f.write("vendid=0x2c9\ndevid=0x101b\nsysimgguid=0x%x\ncaguid=0x%x\n" % (g, g))
            f.write('Ca\t1 "H-%016x"\t\t# "%s"\n' % (g, desc))
            f.write('[1](%x) \t"S-%016x"[%d]\t\t# lid %d lmc 0 "MF0;%s:MQM8700/U1" lid %d 4xHDR\n\n'
                    % (g + 1, s["guid"], port, l, leaf, s["lid"]))


if __name__ == "__main__":
    main()
