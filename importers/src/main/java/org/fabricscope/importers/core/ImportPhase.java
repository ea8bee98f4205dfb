package org.fabricscope.importers.core;

/**
 * When a format's files are read, in this order (files of one phase in the order they were
 * given). Later phases can refer to what earlier ones defined: ports and link state need the
 * nodes of the topology, counters are matched when the model is built, host and Kubernetes layers
 * join to the fabric, and logs name the ranks' hosts and pods.
 */
public enum ImportPhase {
    /**
     * Formats recognised only to be skipped (a simulator's input, another tool's XML): their
     * reader runs as soon as the file is recognised, in file order, and only reports why the
     * file is not read. Such a file adds nothing to the model and does not count as read.
     */
    SKIPPED,
    /** {@code --node-name-map} files and {@code error_thresholds}: import-wide settings. */
    NAMES_AND_THRESHOLDS,
    /** {@code ibnetdiscover}: nodes and cables. */
    TOPOLOGY,
    /** {@code ibnetdiscover -p} and {@code -l}: more about the topology's nodes and ports. */
    TOPOLOGY_DETAIL,
    /** {@code iblinkinfo}: port and physical state. */
    LINK_STATE,
    /** {@code perfquery}, {@code ibqueryerrors}. */
    COUNTERS,
    /** NCCL topology and graph XML, {@code nvidia-smi topo -m}. */
    HOSTS,
    /** kubectl output and job manifests. */
    KUBERNETES,
    /** NCCL / PyTorch logs. */
    LOGS
}
