package org.fabricscope.model.forensics;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.fabricscope.model.core.Evidence;

/**
 * One run of a perftest benchmark (linux-rdma/perftest, tag 26.04.17: {@code ib_write_bw},
 * {@code ib_read_bw}, {@code ib_send_bw}, {@code ib_atomic_bw} and the {@code _lat} twins) as one side
 * printed it: the test ({@code verb} as its title names it, {@code RDMA_Write}, {@code Send}, ...;
 * bandwidth or latency; bidirectional), the side (the server prints {@code * Waiting for client to
 * connect... *}), the header ({@code Device}, {@code Link type} {@code IB} or {@code Ethernet},
 * {@code Transport type}, {@code Connection type}, {@code Number of qps}, {@code GID index}, -1 when not
 * printed), the local and remote queue pairs (null when not printed), the result rows, and the lines
 * that say it failed ({@code Couldn't connect to ...}, {@code Failed to modify QP ... to RTR}).
 * {@code version} is what {@code -V} printed in the same capture ({@code Version: 6.29}), else empty:
 * the test output itself does not print it. {@code line} is where the run starts in its file.
 */
public record PerftestRun(String source, int line, String verb, Measure measure, boolean bidirectional, Side side,
                          String device, String linkType, String transport, String connection, int qps, int gidIndex,
                          PerftestEndpoint local, PerftestEndpoint remote, List<PerftestRow> rows, List<Evidence> errors,
                          String version) {
    /** Which kind of test: bandwidth ({@code *_bw}) or latency ({@code *_lat}). */
    public enum Measure { BANDWIDTH, LATENCY }

    /** The side that printed the run: the server waits for the client, the client names the server. */
    public enum Side { CLIENT, SERVER, UNKNOWN }

    public PerftestRun {
        source = source == null ? "" : source;
        verb = verb == null ? "" : verb;
        side = side == null ? Side.UNKNOWN : side;
        device = device == null ? "" : device;
        linkType = linkType == null ? "" : linkType;
        transport = transport == null ? "" : transport;
        connection = connection == null ? "" : connection;
        rows = List.copyOf(rows);
        errors = List.copyOf(errors);
        version = version == null ? "" : version;
    }

    /** The binary that ran: {@code ib_write_bw}, {@code ib_send_lat}, ... ({@code perftest} when the title was not read). */
    public String tool() {
        String v = switch (verb) {
            case "Send", "Send_imm" -> "send";
            case "RDMA_Write", "RDMA_Write_imm" -> "write";
            case "RDMA_Read" -> "read";
            case "Atomic" -> "atomic";
            default -> "";
        };
        return v.isEmpty() ? "perftest" : "ib_" + v + (measure == Measure.LATENCY ? "_lat" : "_bw");
    }

    /** The tool with {@code -b} when bidirectional: runs with the same test are comparable with each other. */
    public String test() {
        return tool() + (bidirectional ? " -b" : "");
    }

    /** No result row, only failure lines. */
    public boolean failed() {
        return rows.isEmpty() && !errors.isEmpty();
    }

    /** The row with the highest average bandwidth (with {@code -a}, the plateau of the large sizes); empty for latency runs. */
    public Optional<PerftestRow> bestBandwidth() {
        return rows.stream().filter(r -> r.bandwidth() != null)
                .max(Comparator.comparingDouble(r -> r.bandwidth().averageGbps()));
    }

    /** The row of the smallest message size with a latency (where latency is the network's, not the copy's); empty for bandwidth runs. */
    public Optional<PerftestRow> smallestLatency() {
        return rows.stream().filter(r -> r.latency() != null && !Double.isNaN(r.latency().usual()))
                .min(Comparator.comparingLong(PerftestRow::bytes));
    }
}
