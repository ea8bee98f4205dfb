package org.fabricscope.model.fabric;

/** The InfiniBand node types that ibnetdiscover reports (NodeInfo.NodeType). */
public enum NodeKind {
    SWITCH("S"), CA("H"), ROUTER("R");

    private final String idPrefix;

    NodeKind(String idPrefix) {
        this.idPrefix = idPrefix;
    }

    /** The prefix ibnetdiscover puts before the GUID in quoted node ids: S-, H- or R-. */
    public String idPrefix() {
        return idPrefix;
    }
}
