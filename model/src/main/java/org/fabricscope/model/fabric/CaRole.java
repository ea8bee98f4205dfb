package org.fabricscope.model.fabric;

/**
 * What a channel adapter is for. Only {@link #HOST} adapters make a switch a leaf and belong to a
 * host: SHARP aggregation nodes and a managed switch's own management CA are inside the switch.
 */
public enum CaRole {
    HOST, SHARP_AGGREGATION, SWITCH_MANAGEMENT, NOT_A_CA
}
