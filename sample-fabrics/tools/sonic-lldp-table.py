#!/usr/bin/env python3
"""Prints SONiC's `show lldp table` for one switch from its `lldpcli show neighbors -f xml` capture.

SONiC's `show lldp table` runs sonic-utilities' scripts/lldpshow, which reads `lldpctl -f xml` in the
lldp container and prints one row per neighbour through python-tabulate's default ("simple") layout:
LocalPort, RemoteDevice (chassis name), RemotePortID (port id text), Capability (R for Router, B for
Bridge, O for any other enabled one), RemotePortDescr; rows in natural order of the local port; then a
50-dash line and `Total entries displayed:  N`. This script does the same from a saved XML file (no
tabulate needed: string columns are left-aligned, two spaces apart, under a dash line as wide as each).

usage: sonic-lldp-table.py NODE XMLFILE
"""
import re
import sys
import xml.etree.ElementTree as ET

node, path = sys.argv[1], sys.argv[2]
root = ET.parse(path).getroot()
ctags = {"Router": "R", "Bridge": "B"}
rows = []
for intf in root.findall("interface"):
    port = intf.find("port")
    chassis = intf.find("chassis")
    cap = "".join(ctags.get(c.attrib["type"], "O") for c in chassis.findall("capability") if c.attrib["enabled"] == "on")
    name = chassis.find("name")
    descr = port.find("descr")
    rows.append([intf.attrib["name"], name.text if name is not None else "", port.find("id").text, cap,
                 descr.text if descr is not None else ""])


def key(r):
    return re.findall("[A-Za-z]+", r[0]) + [int(n) for n in re.findall(r"\d+", r[0])]


rows.sort(key=key)
header = ["LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"]
widths = [max(len(x) for x in col) for col in zip(header, *rows)]
fmt = lambda r: "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip()
print(f"admin@{node}:~$ show lldp table")
print("Capability codes: (R) Router, (B) Bridge, (O) Other")
print(fmt(header))
print("  ".join("-" * w for w in widths))
for r in rows:
    print(fmt(r))
print("-" * 50)
print(f"Total entries displayed:  {len(rows)}")
