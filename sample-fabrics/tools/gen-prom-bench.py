#!/usr/bin/env python3
"""Writes a large InfiniBand counter history for the Prometheus source's benchmark (BENCHMARKS.md).

PORTS HCA ports (hosts h00001.. with mlx5_0..mlx5_7, port 1) with node_exporter's 13 InfiniBand error
counters (collector/infiniband_linux.go, v1.12.0-25: node_infiniband_<counter>_total{device,port}, plus
job and instance as Prometheus adds them), one sample every STEP seconds for HOURS hours ending at END:
every counter 0 but PortXmitWait (growing slowly everywhere) and, on one port in 100, SymbolErrorCounter
rising through the last two hours. Written as VictoriaMetrics' JSON line import format
(/api/v1/import: one series a line with all its values and timestamps), so that 65,000 series of 5,760
samples stream through a pipe:

  python3 gen-prom-bench.py --end $(date +%s) | curl -s --data-binary @- http://127.0.0.1:8428/api/v1/import

usage: gen-prom-bench.py --end UNIX_SECONDS [--ports 5000] [--hours 24] [--step 15]
The same arguments always write the same bytes.
"""
import argparse
import sys

COUNTERS = ["symbol_error_total", "link_error_recovery_total", "link_downed_total", "port_errors_received_total",
            "port_receive_remote_physical_errors_total", "port_receive_switch_relay_errors_total",
            "port_discards_transmitted_total", "port_constraint_errors_transmitted_total",
            "port_constraint_errors_received_total", "local_link_integrity_errors_total",
            "excessive_buffer_overrun_errors_total", "vl15_dropped_total", "port_transmit_wait_total"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--end", type=int, required=True)
    ap.add_argument("--ports", type=int, default=5000)
    ap.add_argument("--hours", type=float, default=24)
    ap.add_argument("--step", type=int, default=15)
    a = ap.parse_args()
    n = int(a.hours * 3600 // a.step)
    start = a.end - n * a.step
    stamps = "[" + ",".join(str((start + i * a.step) * 1000) for i in range(n)) + "]"
    zeros = "[" + ",".join("0" for _ in range(n)) + "]"
    wait = "[" + ",".join(str(i * a.step * 500 // 3600) for i in range(n)) + "]"
    rise_from = n - int(7200 // a.step)
    rising = "[" + ",".join(str(max(0, i - rise_from) * a.step * 40 // 3600) for i in range(n)) + "]"
    out = sys.stdout
    for p in range(a.ports):
        host = "h%05d" % (p // 8 + 1)
        dev = "mlx5_%d" % (p % 8)
        for c in COUNTERS:
            values = wait if c == "port_transmit_wait_total" else rising if c == "symbol_error_total" and p % 100 == 7 else zeros
            out.write('{"metric":{"__name__":"node_infiniband_%s","job":"node","instance":"%s:9100","device":"%s","port":"1"},'
                      '"values":%s,"timestamps":%s}\n' % (c, host, dev, values, stamps))
    sys.stderr.write("%d ports, %d series, %d samples each, %s to %s\n" % (a.ports, a.ports * len(COUNTERS), n, start, a.end))


if __name__ == "__main__":
    main()
