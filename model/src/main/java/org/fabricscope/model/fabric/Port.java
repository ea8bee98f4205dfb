package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Evidence;

import java.util.Collections;
import java.util.Map;

/**
 * A physical port of a switch, CA or router: what the tools said of it (LID, width, speed, states,
 * what it could run at) and its PMA error counters. Filled while importing; read-only afterwards.
 */
public final class Port {
    private final FabricNode node;
    private final int number;
    long portGuid;
    int lid;
    int lmc;
    int extNumber;
    LinkWidth width;
    LinkSpeed speed;
    PortState state = PortState.UNKNOWN;
    PhysState physState = PhysState.UNKNOWN;
    LinkWidth couldBeWidth;
    LinkSpeed couldBeSpeed;
    Cable cable;
    /** The interface name an Ethernet port has ({@code Ethernet8}, {@code ens1f0np0}); null for InfiniBand ports. */
    String name;
    /** A RoCE NIC port's QoS settings (mlnx_qos), or null when none were read. */
    RoceQos qos;
    /** A host netdev's MTU, state and addresses (ip -d link, ip addr), or null when none were read. */
    NetdevLink netdevLink;
    /** A switch port's own configuration (SONiC config_db.json), or null when none was read. */
    SwitchPortConfig switchConfig;
    Evidence evidence;
    Evidence stateEvidence;
    Evidence counterEvidence;
    /**
     * Empty and shared until counters are read for this port (most ports of a large fabric never are:
     * two maps per port were 30 MB at ten times Selene); the builder then gives it maps of its own.
     */
    Map<String, Long> counters = Map.of();
    Map<String, Evidence> counterSources = Map.of();
    /** Every reading of the counters, in time order (untimed first, in file order); empty until one is read. */
    java.util.List<CounterSample> counterSamples = java.util.List.of();

    Port(FabricNode node, int number) {
        this.node = node;
        this.number = number;
    }

    public FabricNode node() {
        return node;
    }

    public int number() {
        return number;
    }

    /** Port GUID, 0 when no file gave it (switch ports share the node GUID). */
    public long portGuid() {
        return portGuid;
    }

    /** The port's LID: its own for a CA, the switch's port-0 LID for a switch port; 0 if unknown. */
    public int lid() {
        return lid != 0 ? lid : node.kind() == NodeKind.SWITCH ? node.lid() : 0;
    }

    public int lmc() {
        return lmc;
    }

    /** The front-panel number from {@code [ext N]}, 0 when none was printed. */
    public int extNumber() {
        return extNumber;
    }

    public LinkWidth width() {
        return width;
    }

    public LinkSpeed speed() {
        return speed;
    }

    public PortState state() {
        return state;
    }

    public PhysState physState() {
        return physState;
    }

    /** The width iblinkinfo says the link could run at ("Could be 4X ..."), or null. */
    public LinkWidth couldBeWidth() {
        return couldBeWidth;
    }

    public LinkSpeed couldBeSpeed() {
        return couldBeSpeed;
    }

    /** The cable plugged into this port, or null when none was discovered. */
    public Cable cable() {
        return cable;
    }

    /** The port at the other end of the cable, or null. */
    public Port peer() {
        return cable == null ? null : cable.other(this);
    }

    public Evidence evidence() {
        return evidence;
    }

    public Evidence stateEvidence() {
        return stateEvidence;
    }

    /** Where the last counters of this port were read. */
    public Evidence counterEvidence() {
        return counterEvidence;
    }

    /** Where this counter's value was read (the file that printed it), or null. */
    public Evidence counterEvidence(String counter) {
        Evidence e = counterSources.get(counter);
        return e != null ? e : counterEvidence;
    }

    /** The counters as a series: each reading with its time, in time order; one sample for a file read once. */
    public java.util.List<CounterSample> counterSamples() {
        return java.util.Collections.unmodifiableList(counterSamples);
    }

    /**
     * How fast a counter grew over this port's timed samples, or null when fewer than two samples with
     * times hold it (then only its value, {@link #counter}, says anything).
     */
    public CounterRate counterRate(String name) {
        return counterSamples.size() < 2 ? null : CounterRate.of(name, counterSamples);
    }

    /** PMA counters by their perfquery field name (SymbolErrorCounter, ...). Empty when never read. */
    public Map<String, Long> counters() {
        return counters.isEmpty() ? Map.of() : Collections.unmodifiableMap(counters);
    }

    /** A counter's value, 0 when never read. 64-bit unsigned: compare with {@link Long#compareUnsigned}. */
    public long counter(String name) {
        Long v = counters.get(name);
        return v == null ? 0 : v;
    }

    /** The QoS settings read for this RoCE NIC port ({@code mlnx_qos -i}), or null. */
    public RoceQos qos() {
        return qos;
    }

    /** This host NIC port's netdev as iproute2 reports it ({@code ip -d link}, {@code ip addr}), or null. */
    public NetdevLink netdevLink() {
        return netdevLink;
    }

    /** This switch port's configuration (SONiC {@code config_db.json}), or null. */
    public SwitchPortConfig switchConfig() {
        return switchConfig;
    }

    /** The interface name of an Ethernet port ({@code Ethernet8}, {@code ens1f0np0}), or null (InfiniBand ports have numbers only). */
    public String name() {
        return name;
    }

    /**
     * {@code "<node name>" port N}; an Ethernet port by its name ({@code leaf-01 Ethernet8}), a host NIC's
     * port by its node's name alone when that already ends with it ({@code gpu-node-01 ens1f0np0}).
     */
    public String label() {
        if (name != null) {
            String n = node.displayName();
            return !node.isSwitch() && n.endsWith(" " + name) ? n : n + " " + name;
        }
        return node.displayName() + " port " + number;
    }

    @Override
    public String toString() {
        return node.id() + "[" + number + "]";
    }
}
