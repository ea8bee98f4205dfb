#!/usr/bin/env python3
"""Writes the counter history of a small InfiniBand fabric as four exporters would have it scraped.

Constructed, not captured. The fabric is the host side of sample-fabrics/fat-tree-3tier-small (its
ibnetdiscover -p: the HCA ports of HOSTS hosts, cn0020-cn0024 first and the leaf switch ports they are cabled to,
with their real GUIDs, names and port numbers), so that the Prometheus source's join to that capture can
be tested. Metric names and labels are those the exporters define (docs/prometheus.md cites the files):
  node_exporter v1.12.0-25 collector/infiniband_linux.go   node_infiniband_<counter>_total{device,port}
  infiniband-exporter v0.0.7 infiniband-exporter.py         infiniband_<pma name>_total{component,local_name,
                                                            local_guid,local_port,remote_guid,remote_port,remote_name}
  dcgm-exporter 4.5.3-4.8.2 etc/default-counters.csv        DCGM_FI_DEV_*{gpu,UUID,pci_bus_id,device,modelName,hostname}
  NCCL 2.30 plugins/profiler/inspector/inspector_prom.cc   nccl_bus_bandwidth_gbs{version,slurm_job_id,node,gpu,...}
The scrape targets add job and instance, as Prometheus does.

The history (one sample per STEP seconds from START for HOURS hours) holds, inside the incident window
(the last hour before START + HOURS h - 10 min, printed on stderr as --at and --window):
  * symbol errors rising on cn0021 mlx5_0 port 1 (150 in the window, both exporters) and on its leaf end;
  * a link flap on cn0022 mlx5_1 port 1 (LinkDownedCounter +1, 20 min into the window), and on its leaf end;
  * Xid 79 on GPU 3 of cn0023 (30 min into the window);
  * PCIe replays rising on GPU 1 of cn0024;
  * healthy noise: PortXmitWait growing slowly everywhere (under 1000/h), data counters, and a port
    (cn0020 mlx5_0) with 5,000 old symbol errors that do not grow.

usage: gen-prom-history.py --start UNIX_SECONDS [--hours 2] [--step 60] [--hosts 8] [--format openmetrics|prometheus]
       [--fabric sample-fabrics/fat-tree-3tier-small/ibnetdiscover-p.txt] > history.txt
openmetrics: timestamps in seconds, '# EOF' at the end (promtool tsdb create-blocks-from openmetrics);
prometheus: the text exposition format with millisecond timestamps (VictoriaMetrics /api/v1/import/prometheus).
The same arguments always write the same bytes.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FABRIC = os.path.join(HERE, "..", "fat-tree-3tier-small", "ibnetdiscover-p.txt")

NODE_EXPORTER = [  # collector/infiniband_linux.go, the error counters and two data counters
    "symbol_error_total", "link_error_recovery_total", "link_downed_total", "port_errors_received_total",
    "port_receive_remote_physical_errors_total", "port_receive_switch_relay_errors_total",
    "port_discards_transmitted_total", "port_constraint_errors_transmitted_total",
    "port_constraint_errors_received_total", "local_link_integrity_errors_total",
    "excessive_buffer_overrun_errors_total", "vl15_dropped_total", "port_transmit_wait_total",
    "port_data_received_bytes_total", "port_data_transmitted_bytes_total"]
NODE_TO_PMA = {
    "symbol_error_total": "SymbolErrorCounter", "link_error_recovery_total": "LinkErrorRecoveryCounter",
    "link_downed_total": "LinkDownedCounter", "port_errors_received_total": "PortRcvErrors",
    "port_receive_remote_physical_errors_total": "PortRcvRemotePhysicalErrors",
    "port_receive_switch_relay_errors_total": "PortRcvSwitchRelayErrors",
    "port_discards_transmitted_total": "PortXmitDiscards",
    "port_constraint_errors_transmitted_total": "PortXmitConstraintErrors",
    "port_constraint_errors_received_total": "PortRcvConstraintErrors",
    "local_link_integrity_errors_total": "LocalLinkIntegrityErrors",
    "excessive_buffer_overrun_errors_total": "ExcessiveBufferOverrunErrors", "vl15_dropped_total": "VL15Dropped",
    "port_transmit_wait_total": "PortXmitWait", "port_data_received_bytes_total": "PortRcvData",
    "port_data_transmitted_bytes_total": "PortXmitData"}
IB_EXPORTER = [  # infiniband-exporter.py counter_info (CounterMetricFamily adds _total)
    "SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
    "PortRcvRemotePhysicalErrors", "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
    "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitWait", "PortXmitData",
    "PortRcvData"]
DCGM = ["DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
        "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE"]
GPUS = 4
STORY = ["cn0020", "cn0021", "cn0022", "cn0023", "cn0024"]  # the hosts the history's events happen on

LINE = re.compile(r"^CA\s+\d+\s+(\d+)\s+0x([0-9a-f]+)\s+\S+\s+\S+\s+-\s+SW\s+\d+\s+(\d+)\s+0x([0-9a-f]+)\s+"
                  r"\(\s+'([^']*)'\s+-\s+'([^']*)'\s+\)")


def links(path, hosts):
    """(ca_port, ca_guid, sw_port, sw_guid, ca_name, sw_name) of the HCA cables of the first `hosts` hosts."""
    out = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                out.append((int(m.group(1)), int(m.group(2), 16), int(m.group(3)), int(m.group(4), 16),
                            m.group(5), m.group(6)))
    everyone = sorted({l[4].split()[0] for l in out})
    names = (STORY + [h for h in everyone if h not in STORY])[:max(hosts, len(STORY))]
    return sorted((l for l in out if l[4].split()[0] in names), key=lambda l: l[4])


def labels(d):
    return "{" + ",".join('%s="%s"' % (k, v.replace("\\", "\\\\").replace('"', '\\"')) for k, v in sorted(d.items())) + "}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--hours", type=float, default=2)
    ap.add_argument("--step", type=int, default=60)
    ap.add_argument("--hosts", type=int, default=8)
    ap.add_argument("--format", choices=["openmetrics", "prometheus"], default="openmetrics")
    ap.add_argument("--fabric", default=DEFAULT_FABRIC)
    a = ap.parse_args()
    n = int(a.hours * 3600 // a.step) + 1
    times = [a.start + i * a.step for i in range(n)]
    end = times[-1] - 600
    w0 = end - 3600  # the incident window: [w0, end]
    cables = links(a.fabric, a.hosts)
    sys.stderr.write("--at %d --window 1h (%d HCA cables, %d samples per series)\n" % (end, len(cables), n))

    def value(pma, name, port, t):
        """A counter of one port end at time t: the story above, else quiet noise."""
        host = name.split()[0]
        if pma == "SymbolErrorCounter":
            if name == "cn0021 mlx5_0" or (port == "sw" and "cn0021 mlx5_0" in extra.get(name, ())):
                return 7 + max(0, min(t, end) - w0) * 150 // 3600
            if name == "cn0020 mlx5_0":
                return 5000
            return 0
        if pma == "LinkDownedCounter":
            if name == "cn0022 mlx5_1" or (port == "sw" and "cn0022 mlx5_1" in extra.get(name, ())):
                return 2 + (1 if t >= w0 + 1200 else 0)
            return 2
        if pma == "PortXmitWait":
            return (t - a.start) * 500 // 3600 + len(host)
        if pma in ("PortXmitData", "PortRcvData"):
            return (t - a.start) * 12_500_000_000 // 4
        return 0

    extra = {}  # a leaf port's peer, so its counters follow the HCA end's story
    out = []

    def series(name, lab, f):
        for t in times:
            v = f(t)
            stamp = ("%d" % (t * 1000)) if a.format == "prometheus" else ("%d" % t)
            out.append("%s%s %s %s\n" % (name, labels(lab), v, stamp))

    # node_exporter, one scrape target per host
    for metric in NODE_EXPORTER:
        if a.format == "openmetrics":
            out.append("# TYPE node_infiniband_%s counter\n" % metric[:-len("_total")])
        for (cp, cg, sp, sg, cn, sn) in cables:
            host, dev = cn.split()
            lab = {"job": "node", "instance": host + ":9100", "device": dev, "port": str(cp)}
            series("node_infiniband_" + metric, lab, lambda t, m=metric, cn=cn: value(NODE_TO_PMA[m], cn, "ca", t))
    # infiniband-exporter, one target for the fabric; both ends of each cable
    for pma in IB_EXPORTER:
        if a.format == "openmetrics":
            out.append("# TYPE infiniband_%s counter\n" % pma.lower())
        for (cp, cg, sp, sg, cn, sn) in cables:
            ends = [("ca", cn, cg, cp, sg, sp, sn), ("switch", sn + "#" + str(sp), sg, sp, cg, cp, cn)]
            for comp, key, lg, lp, rg, rp, rn in ends:
                name = cn if comp == "ca" else sn
                if comp == "switch":
                    extra[key] = (cn,)
                lab = {"job": "infiniband", "instance": "ibexporter:9683", "component": comp, "local_name": name,
                       "local_guid": "0x%x" % lg, "local_port": str(lp), "remote_guid": "0x%x" % rg,
                       "remote_port": str(rp), "remote_name": rn}
                series("infiniband_%s_total" % pma.lower(), lab,
                       lambda t, pma=pma, key=key, comp=comp: value(pma, key, "sw" if comp == "switch" else "ca", t))
    # DCGM exporter, one target per host
    hosts = sorted({c[4].split()[0] for c in cables})
    for metric in DCGM:
        if a.format == "openmetrics":
            gauge = metric in ("DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_ROW_REMAP_FAILURE")
            out.append("# TYPE %s %s\n" % (metric, "gauge" if gauge else "unknown"))
        for h in hosts:
            for g in range(GPUS):
                lab = {"job": "dcgm", "instance": h + ":9400", "gpu": str(g), "UUID": "GPU-%08x-0000-4000-8000-%012x"
                       % (0x5f3c0000 + hosts.index(h), g), "pci_bus_id": "00000000:%02X:00.0" % (0x18 + 0x20 * g),
                       "device": "nvidia%d" % g, "modelName": "NVIDIA H100 80GB HBM3", "hostname": h}

                def dcgm(t, metric=metric, h=h, g=g):
                    if metric == "DCGM_FI_DEV_XID_ERRORS":
                        return 79 if (h, g) == ("cn0023", 3) and t >= w0 + 1800 else 0
                    if metric == "DCGM_FI_DEV_PCIE_REPLAY_COUNTER" and (h, g) == ("cn0024", 1):
                        return 3 + max(0, min(t, end) - w0) * 40 // 3600
                    return 0
                series(metric, lab, dcgm)
    # NCCL Inspector, through node_exporter's textfile collector
    if a.format == "openmetrics":
        out.append("# TYPE nccl_bus_bandwidth_gbs gauge\n")
    for h in hosts:
        lab = {"job": "node", "instance": h + ":9100", "version": "v5.0", "slurm_job_id": "4242", "node": h, "gpu": "0",
               "comm_name": "0x7f3a2c001b20", "n_nodes": str(len(hosts)), "nranks": str(len(hosts) * GPUS),
               "collective": "AllReduce", "message_size": "128-256MB", "algo_proto": "Ring_Simple"}
        series("nccl_bus_bandwidth_gbs", lab,
               lambda t, h=h: 181.5 if not (h == "cn0022" and w0 + 1200 <= t < w0 + 1500) else 12.25)
    if a.format == "openmetrics":
        out.append("# EOF\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
