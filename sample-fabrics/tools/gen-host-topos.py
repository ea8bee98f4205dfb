#!/usr/bin/env python3
"""Writes one NCCL topology file per host of a captured fabric, shaped like a real 8-GPU HGX H100
host (the OCI BM.GPU.H100.8 dump in shared/reference/nccl-topo: two CPU sockets, four Broadcom PCIe
switches per socket, each with one GPU and one ConnectX NIC behind it, every GPU NVLinked to four
NVSwitches), with each NIC's net GUID and name taken from the host's HCAs in ibnetdiscover output,
so FabricScope can join GPU -> NIC -> HCA -> leaf end to end.

NCCL prints a net's GUID as a host integer of the big-endian verbs value, so on x86 the bytes come
out reversed relative to ibnetdiscover's sysimgguid; this writes them the way NCCL does.

Faults (--fault HOST:KIND:INDEX, repeatable): pcie-x8 (GPU INDEX trained at x8), gdr-off (NIC INDEX
with gdr 0, as without nvidia-peermem).

usage: gen-host-topos.py IBNETDISCOVER OUTDIR [--fault HOST:KIND:N ...]
"""
import argparse
import os
import re
import struct
import sys

CA_BLOCK = re.compile(r'^sysimgguid=0x([0-9a-fA-F]+)$')
CA_LINE = re.compile(r'^Ca\s+\d+\s+"H-([0-9a-fA-F]+)"\s+#\s+"(.*)"\s*$')


def read_hosts(path):
    """{host: {"mlx5_N": sysimgguid}} from ibnetdiscover output."""
    hosts = {}
    sysimg = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            m = CA_BLOCK.match(line)
            if m:
                sysimg = int(m.group(1), 16)
                continue
            m = CA_LINE.match(line)
            if m:
                words = m.group(2).split()
                if len(words) >= 2 and words[1].startswith("mlx5_"):
                    hosts.setdefault(words[0], {})[words[1]] = sysimg
                sysimg = None
    return hosts


def nccl_guid(sysimg):
    """The value NCCL prints: the big-endian GUID read as a little-endian integer."""
    return struct.unpack("<Q", struct.pack(">Q", sysimg))[0]


def topo(host, hcas, faults):
    out = ['<system version="1">']
    nvswitches = ["0000:1a:00.0", "0000:1b:00.0", "0000:1c:00.0", "0000:1d:00.0"]
    for socket in range(2):
        affinity = ("00000000,000000ff,ffffffff,ffff0000,00000000,00ffffff,ffffffff" if socket == 0
                    else "ffffffff,ffffff00,00000000,0000ffff,ffffffff,ff000000,00000000")
        out.append('  <cpu numaid="%d" affinity="%s" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">'
                   % (socket, affinity))
        for slot in range(4):
            i = socket * 4 + slot
            base = 0x08 + socket * 0x7a + slot * 0x17
            sw, gsw, nsw = base, base + 5, base + 2
            gpu_bus, nic_bus = gsw + 2, nsw + 2
            width = 8 if ("pcie-x8", i) in faults else 16
            gdr_nic = 0 if ("gdr-off", i) in faults else 1
            name = "mlx5_%d" % i
            guid = hcas.get(name)
            out.append('    <pci busid="0000:%02x:00.0" class="0x060400" vendor="0x1000" device="0xc030" '
                       'subsystem_vendor="0x1000" subsystem_device="0x0072" link_speed="32.0 GT/s PCIe" link_width="16">' % sw)
            out.append('      <pci busid="0000:%02x:00.0" class="0x060400" vendor="0x1000" device="0xc030" '
                       'subsystem_vendor="0x1000" subsystem_device="0x1003" link_speed="32.0 GT/s PCIe" link_width="16">' % gsw)
            out.append('        <pci busid="0000:%02x:00.0" class="0x030200" vendor="0x10de" device="0x2330" '
                       'subsystem_vendor="0x10de" subsystem_device="0x16c1" link_speed="32.0 GT/s PCIe" link_width="%d">'
                       % (gpu_bus, width))
            out.append('          <gpu dev="%d" sm="90" rank="%d" gdr="1">' % (i, i))
            for k, target in enumerate(nvswitches):
                out.append('            <nvlink target="%s" count="%d" tclass="0x068000"/>' % (target, 5 if k % 2 == 0 else 4))
            out.append('          </gpu>')
            out.append('        </pci>')
            out.append('      </pci>')
            out.append('      <pci busid="0000:%02x:00.0" class="0x060400" vendor="0x1000" device="0xc030" '
                       'subsystem_vendor="0x1000" subsystem_device="0x1003" link_speed="32.0 GT/s PCIe" link_width="16">' % nsw)
            out.append('        <pci busid="0000:%02x:00.0" class="0x020700" vendor="0x15b3" device="0x101b" '
                       'subsystem_vendor="0x15b3" subsystem_device="0x0007" link_speed="16.0 GT/s PCIe" link_width="16">' % nic_bus)
            out.append('          <nic>')
            out.append('            <net name="%s" dev="%d" speed="200000" port="1" latency="0.000000" guid="0x%016x" '
                       'maxconn="131072" gdr="%d"/>' % (name, i, nccl_guid(guid) if guid else 0, gdr_nic))
            out.append('          </nic>')
            out.append('        </pci>')
            out.append('      </pci>')
            out.append('    </pci>')
        out.append('  </cpu>')
    out.append('</system>')
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ibnetdiscover")
    ap.add_argument("outdir")
    ap.add_argument("--fault", action="append", default=[], help="HOST:pcie-x8|gdr-off:INDEX")
    ap.add_argument("--copies", type=int, default=1,
                    help="write this many copies of each host (host-cN) for benchmarks")
    a = ap.parse_args()
    faults = {}
    for f in a.fault:
        host, kind, idx = f.split(":")
        faults.setdefault(host, set()).add((kind, int(idx)))
    hosts = read_hosts(a.ibnetdiscover)
    if not hosts:
        sys.exit("no '<host> mlx5_N' HCAs in " + a.ibnetdiscover)
    os.makedirs(a.outdir, exist_ok=True)
    n = 0
    for host in sorted(hosts):
        for c in range(a.copies):
            name = host if a.copies == 1 else "%s-c%d" % (host, c)
            with open(os.path.join(a.outdir, name + ".topo.xml"), "w", encoding="utf-8") as f:
                f.write(topo(host, hosts[host], faults.get(host, set())))
            n += 1
    print("wrote %d topology files to %s" % (n, a.outdir), file=sys.stderr)


if __name__ == "__main__":
    main()
