package org.fabricscope.app.live.poll;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.ibnet.IblinkinfoImporter;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;

/**
 * One reading of iblinkinfo, read by FabricScope's own iblinkinfo reader (the one that reads captured
 * files): every port it listed with its state ({@code Active/LinkUp}, {@code Down/Polling}), and the
 * perfquery commands that reach the ports that carry a link (a switch by its LID, a CA port by its own).
 * Immutable.
 */
final class LinkTable {
    /** One port as listed. */
    record Row(long nodeGuid, String node, boolean isSwitch, int port, int lid, String state) {
        String key() {
            return nodeGuid + "/" + port;
        }
    }

    /**
     * A perfquery target: a LID and the ports behind it to read, and the node's GUID (0 where iblinkinfo gave
     * none), which names the node across LID changes.
     */
    record Target(int lid, List<Integer> ports, String node, long guid) {
        String portList() {
            StringBuilder sb = new StringBuilder();
            for (int p : ports) {
                sb.append(sb.length() == 0 ? "" : ",").append(p);
            }
            return sb.toString();
        }
    }

    private final Map<String, Row> rows;
    private final List<Target> targets;
    private final List<Diagnostic> diagnostics;
    private final String text;

    private LinkTable(Map<String, Row> rows, List<Target> targets, List<Diagnostic> diagnostics, String text) {
        this.rows = rows;
        this.targets = targets;
        this.diagnostics = diagnostics;
        this.text = text;
    }

    /** Reads iblinkinfo's output; lines it cannot read become diagnostics naming {@code source} and the line. */
    static LinkTable read(String text, String source) {
        FabricModelBuilder scratch = new FabricModelBuilder();
        try (TextLines lines = new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))) {
            new IblinkinfoImporter().read(lines, source, scratch, Cancellation.NEVER);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array does not fail
        }
        FabricModel m = scratch.build();
        Map<String, Row> rows = new LinkedHashMap<>();
        List<Target> targets = new ArrayList<>();
        for (FabricNode n : m.nodes()) {
            TreeSet<Integer> swPorts = new TreeSet<>();
            for (Port p : n.ports()) {
                if (p.number() == 0) {
                    continue;
                }
                Row r = new Row(n.guid(), n.displayName(), n.isSwitch(), p.number(), n.isSwitch() ? n.lid() : p.lid(),
                        state(p.state(), p.physState()));
                rows.put(r.key(), r);
                if (p.state() == PortState.DOWN || r.lid() <= 0) {
                    continue; // no link: no counters worth a MAD
                }
                if (n.isSwitch()) {
                    swPorts.add(p.number());
                } else {
                    targets.add(new Target(p.lid(), List.of(p.number()), n.displayName(), n.guid()));
                }
            }
            if (!swPorts.isEmpty()) {
                targets.add(new Target(n.lid(), List.copyOf(swPorts), n.displayName(), n.guid()));
            }
        }
        return new LinkTable(rows, List.copyOf(targets), List.copyOf(m.diagnostics()), text);
    }

    /** {@code Active/LinkUp}, {@code Down/Polling}, as iblinkinfo prints them. */
    static String state(PortState s, PhysState phys) {
        String a = s == null ? "Unknown" : cap(s.name());
        String b = phys == null ? "Unknown" : switch (phys) {
            case LINK_UP -> "LinkUp";
            case ERROR_RECOVERY -> "ErrorRecovery";
            case PHY_TEST -> "PhyTest";
            default -> cap(phys.name());
        };
        return a + "/" + b;
    }

    private static String cap(String name) {
        return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
    }

    Map<String, Row> rows() {
        return rows;
    }

    List<Target> targets() {
        return targets;
    }

    List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** What iblinkinfo printed (read again into the model at each rebuild). */
    String text() {
        return text;
    }

    /** Ports whose state differs from {@code before}'s, or that appeared or vanished: {@code [before, now]} rows. */
    List<Row[]> changesSince(LinkTable before) {
        List<Row[]> out = new ArrayList<>();
        for (Row now : rows.values()) {
            Row was = before.rows.get(now.key());
            if (was == null ? false : !was.state().equals(now.state())) {
                out.add(new Row[] {was, now});
            }
        }
        for (Row was : before.rows.values()) {
            if (!rows.containsKey(was.key()) && was.state().startsWith("Active")) {
                out.add(new Row[] {was, null});
            }
        }
        for (Row now : rows.values()) {
            if (!before.rows.containsKey(now.key()) && now.state().startsWith("Active") && !before.rows.isEmpty()) {
                out.add(new Row[] {null, now});
            }
        }
        return out;
    }
}
