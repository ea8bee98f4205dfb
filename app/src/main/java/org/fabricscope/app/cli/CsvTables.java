package org.fabricscope.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.training.Rank;

/**
 * The tables of {@code export --csv}: ports with their counters, pods, ranks, findings, as RFC 4180 CSV (a header
 * row, CRLF line ends, fields quoted when they hold a comma, quote or line break). Text from the inputs is made
 * inert for spreadsheets: a text cell that starts with {@code = + - @}, a tab or a carriage return gets a leading
 * {@code '} (so no formula runs); numbers are written as numbers.
 */
final class CsvTables {
    /** The tables by their command-line names. */
    enum Table { ports, pods, ranks, findings }

    private final StringBuilder out = new StringBuilder();

    private CsvTables() {
    }

    /** The table as CSV; a {@link CliFailure} past {@code maxRows} data rows, before anything is written. */
    static String of(Table table, FabricModel model, List<Finding> findings, int maxRows) {
        long n = switch (table) {
            case ports -> model.nodes().stream().mapToLong(x -> x.ports().size()).sum();
            case pods -> model.pods().size();
            case ranks -> model.trainingLog().ranks().size();
            case findings -> findings.size();
        };
        if (n > maxRows) {
            throw new CliFailure(1, "the " + table + " table has " + n + " rows, more than " + maxRows
                    + " (OutputLimits.MAX_ELEMENTS); nothing written");
        }
        CsvTables t = new CsvTables();
        switch (table) {
            case ports -> t.ports(model);
            case pods -> t.pods(model);
            case ranks -> t.ranks(model);
            case findings -> t.findings(findings);
        }
        return t.out.toString();
    }

    private void ports(FabricModel m) {
        TreeSet<String> counters = new TreeSet<>();
        for (FabricNode n : m.nodes()) {
            for (Port p : n.ports()) {
                counters.addAll(p.counters().keySet());
            }
        }
        List<Object> header = new ArrayList<>(List.of("node", "guid", "kind", "port", "lid", "state", "physical state", "width",
                "speed", "peer node", "peer guid", "peer port"));
        header.addAll(counters);
        row(header);
        List<FabricNode> nodes = new ArrayList<>(m.nodes());
        nodes.sort(java.util.Comparator.comparing(FabricNode::displayName, org.fabricscope.model.core.NaturalOrder.INSTANCE)
                .thenComparingLong(FabricNode::guid));
        for (FabricNode n : nodes) {
            List<Port> ports = new ArrayList<>(n.ports());
            ports.sort(java.util.Comparator.comparingInt(Port::number));
            for (Port p : ports) {
                Port peer = p.peer();
                List<Object> r = new ArrayList<>(List.of(n.displayName(), Guids.format(n.guid()), n.kind().name().toLowerCase(Locale.ROOT),
                        p.number(), p.lid(), text(p.state()), text(p.physState()), p.width() == null ? "" : p.width().token(),
                        p.speed() == null ? "" : p.speed().name(), peer == null ? "" : peer.node().displayName(),
                        peer == null ? "" : Guids.format(peer.node().guid()), peer == null ? "" : (Object) peer.number()));
                for (String c : counters) {
                    Long v = p.counters().get(c);
                    r.add(v == null ? "" : (Object) new java.math.BigInteger(Long.toUnsignedString(v)));
                }
                row(r);
            }
        }
    }

    private void pods(FabricModel m) {
        row(List.of("namespace", "pod", "node", "phase", "job", "replica type", "replica index", "restarts", "exit codes", "source"));
        for (K8sPod p : m.pods()) {
            var j = p.job();
            row(List.of(p.namespace(), p.name(), text(p.node()), text(p.phase()), j == null ? "" : text(j.jobName()),
                    j == null ? "" : text(j.replicaType()), j == null || j.replicaIndex() == null ? "" : (Object) j.replicaIndex(),
                    p.restarts(), text(p.exitCodes()), where(p.evidence())));
        }
    }

    private void ranks(FabricModel m) {
        row(List.of("communicator", "rank", "nranks", "host", "pid", "cuda device", "bus id", "nccl version", "network",
                "net devices", "source"));
        for (Rank r : m.trainingLog().ranks()) {
            row(List.of(text(r.commId()), r.rank(), r.nranks(), text(r.host()), r.pid(), r.cudaDev(), text(r.busId()),
                    text(r.ncclVersion()), text(r.network()), String.join(" ", r.netDevices()), where(r.evidence())));
        }
    }

    private void findings(List<Finding> findings) {
        row(List.of("id", "severity", "title", "subjects", "evidence", "remedies"));
        for (Finding f : findings) {
            row(List.of(f.id(), f.severity().label(), f.title(), String.join("; ", f.subjects()),
                    String.join("; ", f.evidence().stream().map(e -> e.where() + ": " + e.text()).toList()),
                    String.join("; ", f.remedies())));
        }
    }

    private static String where(Evidence e) {
        return e == null ? "" : e.where();
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    private void row(List<?> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            Object c = cells.get(i);
            out.append(c instanceof Number ? c.toString() : cell(String.valueOf(c)));
        }
        out.append("\r\n");
    }

    /** A text cell: inert for spreadsheets, then quoted when it must be. */
    static String cell(String v) {
        String s = v;
        if (!s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
            s = "'" + s;
        }
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }
}
