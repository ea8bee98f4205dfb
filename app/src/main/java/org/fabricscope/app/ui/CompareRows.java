package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.compare.Change;
import org.fabricscope.model.compare.Comparison;
import org.fabricscope.model.compare.CounterDelta;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.NodeKind;

/**
 * A {@link Comparison} as the Compare tab lists it and the map marks it, without a toolkit: one group per layer
 * (fabric, counters, hosts, training, Kubernetes, findings new / resolved / unchanged), each with its rows or an
 * honest empty line ("no differences" when both captures hold the layer, "not in both captures" otherwise); each
 * row with the subjects the map selects for it (by their keys: GUIDs and port numbers, host and node names) and
 * the marks drawn for it ({@link Mark}: a cable added, removed, moved, its rate changed; a node added or removed; a
 * counter that rose).
 */
record CompareRows(List<Group> groups, List<Mark> marks, String summary) {
    /** What a mark shows; the map draws each kind in its own colour, a removed cable dashed. */
    enum MarkKind { CABLE_ADDED, CABLE_REMOVED, CABLE_MOVED_FROM, CABLE_MOVED_TO, RATE_CHANGED, NODE_ADDED, NODE_REMOVED, COUNTER_ROSE }

    /** A mark on the map: a cable between two ports ({@code guidB} non-zero) or one node (its port, when a counter). */
    record Mark(MarkKind kind, long guidA, int portA, long guidB, int portB, String label) {
        boolean isCable() {
            return guidB != 0;
        }
    }

    /** One listed change: its kind, what it is about, the change in words, the subjects to select, its marks. */
    record Row(String layer, String kind, String subject, String text, List<Subject> subjects, List<Mark> marks) {
        Row {
            subjects = List.copyOf(subjects);
            marks = List.copyOf(marks);
        }
    }

    /** A layer: its title with the count, its rows, or why it has none ({@code empty}). */
    record Group(String layer, String title, List<Row> rows, String empty) {
        Group {
            rows = List.copyOf(rows);
        }
    }

    static final String COUNTERS = "counters";
    static final String FINDINGS_NEW = "findings new";
    static final String FINDINGS_RESOLVED = "findings resolved";
    static final String FINDINGS_UNCHANGED = "findings unchanged";

    private static final Pattern NODE_GUID = Pattern.compile("\\((0x[0-9a-fA-F]{1,16})\\)$");

    /** The rows of {@code c}, the comparison of {@code before} with {@code after}. */
    static CompareRows of(Comparison c, FabricModel before, FabricModel after) {
        Map<String, Cable> cables = new LinkedHashMap<>();
        for (FabricModel m : List.of(after, before)) {
            for (Cable k : m.cables()) {
                cables.putIfAbsent(k.a().label() + " <-> " + k.b().label(), k);
            }
        }
        List<Group> groups = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        for (String layer : Comparison.LAYERS) {
            List<Row> rows = new ArrayList<>();
            for (Change ch : c.changes(layer)) {
                Row r = row(ch, cables, before, after);
                rows.add(r);
                marks.addAll(r.marks());
            }
            groups.add(group(layer, Change.layerTitle(layer), rows, has(layer, before), has(layer, after)));
            if (layer.equals(Change.FABRIC)) {
                List<Row> counters = new ArrayList<>();
                Map<String, List<Mark>> perPort = new LinkedHashMap<>();
                for (CounterDelta d : c.counters()) {
                    Row r = counter(d);
                    counters.add(r);
                    for (Mark m : r.marks()) {
                        perPort.computeIfAbsent(m.guidA() + ":" + m.portA(), k -> new ArrayList<>()).add(m);
                    }
                }
                for (List<Mark> port : perPort.values()) { // one ring a port, naming its first rises
                    Mark first = port.get(0);
                    String label = port.stream().limit(2).map(Mark::label).reduce((x, y) -> x + ", " + y).orElse("")
                            + (port.size() > 2 ? " (+" + (port.size() - 2) + " more)" : "");
                    marks.add(new Mark(MarkKind.COUNTER_ROSE, first.guidA(), first.portA(), 0, 0, "port " + first.portA() + ": " + label));
                }
                groups.add(group(COUNTERS, "Counters", counters, has(COUNTERS, before), has(COUNTERS, after)));
            }
        }
        groups.add(group(FINDINGS_NEW, "Findings new", findings("new", c.findings().added()), true, true));
        groups.add(group(FINDINGS_RESOLVED, "Findings resolved", findings("resolved", c.findings().resolved()), true, true));
        groups.add(group(FINDINGS_UNCHANGED, "Findings unchanged", findings("unchanged", c.findings().unchanged()), true, true));
        String summary = c.isEmpty() ? "No differences: the two captures hold the same in every layer both have"
                : org.fabricscope.model.core.Plural.of(c.changes().size(), "change") + ", "
                        + org.fabricscope.model.core.Plural.of(c.counters().size(), "counter") + " changed, findings "
                        + String.format(java.util.Locale.ROOT, "%d new, %d resolved, %d unchanged", c.findings().added().size(),
                                c.findings().resolved().size(), c.findings().unchanged().size());
        return new CompareRows(groups, marks, summary);
    }

    private static Group group(String layer, String title, List<Row> rows, boolean inBefore, boolean inAfter) {
        String empty = !rows.isEmpty() ? "" : inBefore && inAfter ? "no differences"
                : !inBefore && !inAfter ? "not in either capture" : "not in both captures (only the " + (inBefore ? "old" : "new") + " one has it)";
        return new Group(layer, rows.isEmpty() ? title : title + " (" + rows.size() + ")", rows, empty);
    }

    /** Whether a capture holds the layer at all: "no differences" needs both. */
    static boolean has(String layer, FabricModel m) {
        return switch (layer) {
            case Change.FABRIC -> !m.nodes().isEmpty();
            case COUNTERS -> m.nodes().stream().anyMatch(n -> n.ports().stream().anyMatch(p -> !p.counters().isEmpty()));
            case Change.HOSTS -> !m.hostEvidence().isEmpty() || !m.trainingLog().processes().isEmpty();
            case Change.TRAINING -> !m.trainingLog().ranks().isEmpty() || !m.trainingLog().processes().isEmpty();
            case Change.KUBERNETES -> !m.k8sNodes().isEmpty();
            default -> true;
        };
    }

    private static Row row(Change ch, Map<String, Cable> cables, FabricModel before, FabricModel after) {
        List<Subject> subjects = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        if (ch.layer().equals(Change.FABRIC) && ch.field().equals("node")) {
            Matcher g = NODE_GUID.matcher(ch.subject());
            if (g.find()) {
                long guid = Long.parseUnsignedLong(g.group(1).substring(2), 16);
                FabricNode n = after.node(guid) != null ? after.node(guid) : before.node(guid);
                subjects.add(n != null && n.kind() == NodeKind.SWITCH ? new Subject.SwitchRef(guid, ch.subject())
                        : new Subject.HcaRef(guid, ch.subject()));
                marks.add(new Mark(ch.kind().equals(Change.ADDED) ? MarkKind.NODE_ADDED : MarkKind.NODE_REMOVED, guid, 0, 0, 0,
                        ch.kind()));
            }
        } else if (ch.layer().equals(Change.FABRIC) && ch.field().equals("device")) {
            Matcher g = NODE_GUID.matcher(ch.subject());
            if (g.find()) {
                long guid = Long.parseUnsignedLong(g.group(1).substring(2), 16);
                subjects.add(new Subject.HcaRef(guid, ch.subject()));
                marks.add(new Mark(MarkKind.RATE_CHANGED, guid, 0, 0, 0, "device"));
            }
        } else if (ch.layer().equals(Change.FABRIC)) {
            cableMark(cables.get(ch.kind().equals(Change.MOVED) ? ch.before() : ch.subject()), switch (ch.kind()) {
                case Change.ADDED -> MarkKind.CABLE_ADDED;
                case Change.REMOVED -> MarkKind.CABLE_REMOVED;
                case Change.MOVED -> MarkKind.CABLE_MOVED_FROM;
                default -> MarkKind.RATE_CHANGED;
            }, ch, subjects, marks);
            if (ch.kind().equals(Change.MOVED)) {
                cableMark(cables.get(ch.after()), MarkKind.CABLE_MOVED_TO, ch, subjects, marks);
            }
        } else if (ch.layer().equals(Change.KUBERNETES) && ch.subject().startsWith("node ")) {
            subjects.add(new Subject.K8sNodeRef(ch.subject().substring(5), ch.subject()));
        } else if (after.host(ch.subject()) != null || before.host(ch.subject()) != null
                || after.hostEvidence(ch.subject()) != null) {
            subjects.add(new Subject.HostRef(ch.subject(), ch.subject()));
        }
        return new Row(ch.layer(), ch.kind(), ch.subject(), ch.text(), subjects, marks);
    }

    private static void cableMark(Cable k, MarkKind kind, Change ch, List<Subject> subjects, List<Mark> marks) {
        if (k == null) {
            return;
        }
        long ga = k.a().node().guid();
        long gb = k.b().node().guid();
        subjects.add(new Subject.CableRef(ga, k.a().number(), gb, k.b().number(), ch.subject()));
        marks.add(new Mark(kind, ga, k.a().number(), gb, k.b().number(), kind == MarkKind.RATE_CHANGED
                ? ch.before() + " -> " + ch.after() : ch.kind()));
    }

    private static Row counter(CounterDelta d) {
        String label = d.before() != null && d.after() != null
                ? "+" + Long.toUnsignedString(d.delta()) + " " + d.counter() : d.counter() + (d.before() == null ? " read" : " not read");
        List<Mark> marks = d.grew() ? List.of(new Mark(MarkKind.COUNTER_ROSE, d.guid(), d.portNumber(), 0, 0, label)) : List.of();
        String kind = d.before() == null ? Change.ADDED : d.after() == null ? Change.REMOVED : d.reset() ? "reset" : "rose";
        return new Row(COUNTERS, kind, d.port() + " (" + Guids.format(d.guid()) + ")", d.text(),
                List.of(new Subject.PortRef(d.guid(), d.portNumber(), d.port())), marks);
    }

    private static List<Row> findings(String kind, List<Finding> fs) {
        List<Row> rows = new ArrayList<>();
        for (Finding f : fs) {
            rows.add(new Row("findings", kind, f.id(), f.severity().name().toLowerCase(java.util.Locale.ROOT) + " " + f.id()
                    + ": " + f.title(), f.refs(), List.of()));
        }
        return rows;
    }
}
