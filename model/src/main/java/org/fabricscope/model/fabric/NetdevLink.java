package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

import java.util.List;

/**
 * A host netdev as iproute2 reports it ({@code ip -d link}, {@code ip addr}, their {@code -j} JSON): its name,
 * MTU ({@code -1} when not printed), operational state ({@code UP}, {@code DOWN}, {@code UNKNOWN}; empty when not
 * printed), MAC address (empty when none) and addresses with prefix ({@code 192.168.10.1/24}, IPv6 too), which
 * join a RoCE GID's IP address to its netdev. {@code evidence} is the netdev's first line.
 */
public record NetdevLink(String netdev, int mtu, String state, String mac, List<String> addresses, Evidence evidence) {
    public NetdevLink {
        state = state == null ? "" : state;
        mac = mac == null ? "" : mac;
        addresses = List.copyOf(addresses);
        if (mtu < -1) {
            throw new IllegalArgumentException("mtu is -1 (unknown) or a size: " + mtu);
        }
    }
}
