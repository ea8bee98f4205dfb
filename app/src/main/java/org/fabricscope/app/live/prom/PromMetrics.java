package org.fabricscope.app.live.prom;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metrics read, with the names and labels their exporters give them ({@code docs/prometheus.md}
 * cites each source file and version), and the PMA counter each InfiniBand metric is
 * ({@code ErrorThresholds}' names, so the existing checks judge them).
 */
final class PromMetrics {
    private PromMetrics() {
    }

    /** node_exporter's InfiniBand collector (collector/infiniband_linux.go), labels {@code device}, {@code port}. */
    static final Map<String, String> NODE_EXPORTER = map(
            "node_infiniband_symbol_error_total", "SymbolErrorCounter",
            "node_infiniband_link_error_recovery_total", "LinkErrorRecoveryCounter",
            "node_infiniband_link_downed_total", "LinkDownedCounter",
            "node_infiniband_port_errors_received_total", "PortRcvErrors",
            "node_infiniband_port_receive_remote_physical_errors_total", "PortRcvRemotePhysicalErrors",
            "node_infiniband_port_receive_switch_relay_errors_total", "PortRcvSwitchRelayErrors",
            "node_infiniband_port_discards_transmitted_total", "PortXmitDiscards",
            "node_infiniband_port_constraint_errors_transmitted_total", "PortXmitConstraintErrors",
            "node_infiniband_port_constraint_errors_received_total", "PortRcvConstraintErrors",
            "node_infiniband_local_link_integrity_errors_total", "LocalLinkIntegrityErrors",
            "node_infiniband_excessive_buffer_overrun_errors_total", "ExcessiveBufferOverrunErrors",
            "node_infiniband_vl15_dropped_total", "VL15Dropped",
            "node_infiniband_port_transmit_wait_total", "PortXmitWait");

    /**
     * infiniband-exporter (infiniband-exporter.py): {@code infiniband_<PMA name lower-cased>_total} (a
     * prometheus_client CounterMetricFamily adds {@code _total}), labels {@code component}, {@code local_name},
     * {@code local_guid}, {@code local_port}, {@code remote_guid}, {@code remote_port}, {@code remote_name}.
     */
    static final Map<String, String> IB_EXPORTER = map(
            "infiniband_symbolerrorcounter_total", "SymbolErrorCounter",
            "infiniband_linkerrorrecoverycounter_total", "LinkErrorRecoveryCounter",
            "infiniband_linkdownedcounter_total", "LinkDownedCounter",
            "infiniband_portrcverrors_total", "PortRcvErrors",
            "infiniband_portrcvremotephysicalerrors_total", "PortRcvRemotePhysicalErrors",
            "infiniband_portxmitdiscards_total", "PortXmitDiscards",
            "infiniband_portxmitconstrainterrors_total", "PortXmitConstraintErrors",
            "infiniband_portrcvconstrainterrors_total", "PortRcvConstraintErrors",
            "infiniband_locallinkintegrityerrors_total", "LocalLinkIntegrityErrors",
            "infiniband_excessivebufferoverrunerrors_total", "ExcessiveBufferOverrunErrors",
            "infiniband_vl15dropped_total", "VL15Dropped",
            "infiniband_portxmitwait_total", "PortXmitWait");

    /** DCGM exporter (etc/default-counters.csv): the last Xid, a gauge; labels gpu, UUID, pci_bus_id, device, modelName, hostname. */
    static final String DCGM_XID = "DCGM_FI_DEV_XID_ERRORS";

    /** DCGM exporter error counters judged as rising during the window. */
    static final List<String> DCGM_COUNTERS = List.of(
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
            "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
            "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
            "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
            "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
            "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
            "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
            "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
            "DCGM_FI_DEV_ROW_REMAP_FAILURE");

    /** NCCL Inspector's Prometheus output (plugins/profiler/inspector/inspector_prom.cc), a gauge per collective bucket. */
    static final List<String> NCCL_BUSBW = List.of("nccl_bus_bandwidth_gbs", "nccl_p2p_bus_bandwidth_gbs");

    /** A selector for any of {@code names}: {@code {__name__=~"a|b"}}. */
    static String selector(Iterable<String> names) {
        return "{__name__=~\"" + String.join("|", names) + "\"}";
    }

    /** A GPU's host in DCGM's labels: {@code hostname} (4.x), {@code Hostname} (3.x), else the scrape's instance. */
    static String dcgmHost(PromSeries s) {
        for (String k : List.of("hostname", "Hostname", "node", "instance")) {
            String v = s.label(k);
            if (!v.isEmpty()) {
                return k.equals("instance") ? hostOfInstance(v) : v;
            }
        }
        return "";
    }

    /** The host of a node_exporter series: a {@code node} or {@code nodename} label (relabelled), else {@code instance} without its port. */
    static String nodeHost(PromSeries s) {
        for (String k : List.of("node", "nodename", "hostname", "instance")) {
            String v = s.label(k);
            if (!v.isEmpty()) {
                return k.equals("instance") ? hostOfInstance(v) : v;
            }
        }
        return "";
    }

    /** {@code node-a:9100} gives {@code node-a}; {@code [fe80::1]:9100} gives {@code fe80::1}; a domain keeps its first label only when it is no IP. */
    static String hostOfInstance(String instance) {
        String h = instance;
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end > 0 ? h.substring(1, end) : h;
        }
        int colon = h.lastIndexOf(':');
        if (colon > 0 && h.indexOf(':') == colon) {
            h = h.substring(0, colon);
        }
        return h;
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }
}
