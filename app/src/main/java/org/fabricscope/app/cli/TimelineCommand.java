package org.fabricscope.app.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.reasoning.IncidentReasoner;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabricscope timeline}: every failure, consequence and context event of the inputs in time
 * order, with the root cause marked and each consequence's cause; {@code --json} for scripts.
 */
@Command(name = "timeline", mixinStandardHelpOptions = true,
        description = "Print the incident's events in time order (logs, kernel lines, Kubernetes), the root cause first"
                + " marked, and which failure each consequence follows.")
final class TimelineCommand extends QuickCommand {
    @Option(names = "--json", description = "Print {\"rootCause\": {...}, \"events\": [...], \"lanes\": [...], \"notes\": [...]} as JSON.")
    boolean json;

    @Option(names = "--all", description = "Include context events (informational lines) in the text output.")
    boolean all;

    @Override
    boolean flag(String name) {
        switch (name) {
            case "--json" -> json = true;
            case "--all" -> all = true;
            default -> {
                return false;
            }
        }
        return true;
    }

    @Override
    public Integer call() throws java.io.IOException {
        InputOptions.Loaded in = input.load();
        Incident incident = IncidentReasoner.of(in.analysis().model()); // the one the checks reasoned
        var out = out();
        if (json) {
            out.println(JsonDocs.write(json(incident)));
            return 0;
        }
        IncidentEvent root = incident.rootCause();
        if (root == null) {
            out.println(incident.events().isEmpty() ? "No failure found in the inputs (no line, kernel message or Kubernetes"
                    + " object matched a failure signature)." : "No failure found; the events below are context only.");
        } else {
            out.println("Root cause: " + root.line() + "  [" + root.causeClass().id() + ", " + root.id() + "]");
            out.println("  " + root.evidence().where() + ": " + root.evidence().text());
        }
        incident.notes().forEach(n -> out.println("Note: " + n));
        out.println();
        for (IncidentEvent e : incident.events()) {
            if (!all && e.role() == org.fabricscope.model.incident.Role.CONTEXT) {
                continue;
            }
            String mark = root != null && e.seq() == root.seq() ? "ROOT " : "     ";
            String time = e.stamp().known() ? e.stamp().iso() : "(no time)";
            out.printf("%s%-24s %-7s %-11s %-12s %s: %s%n", mark, time, e.severity().label().toUpperCase(Locale.ROOT),
                    e.role().label(), e.who().lane().isEmpty() ? "-" : e.who().lane(), e.who().label(), e.title());
            Integer cause = incident.causeOf().get(e.seq());
            if (cause != null) {
                IncidentEvent c = incident.event(cause);
                out.printf("%36s after %s%n", "", c.line());
            }
            if (e.evidence() instanceof org.fabricscope.model.core.Evidence.FileLine) {
                out.printf("%36s %s:%d%n", "", e.evidence().source(), e.evidence().line());
            } else { // a query at a time, a stream line: where it was seen, said in full
                out.printf("%36s %s%n", "", e.evidence().where());
            }
        }
        return 0;
    }

    static Map<String, Object> json(Incident incident) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("rootCause", incident.rootCause() == null ? null : event(incident, incident.rootCause()));
        doc.put("events", incident.events().stream().map(e -> event(incident, e)).toList());
        doc.put("lanes", incident.lanes().entrySet().stream().map(l -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lane", l.getKey());
            m.put("events", l.getValue().stream().map(IncidentEvent::seq).toList());
            return m;
        }).toList());
        doc.put("notes", incident.notes());
        return doc;
    }

    static Map<String, Object> event(Incident incident, IncidentEvent e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", e.seq());
        m.put("id", e.id());
        m.put("time", e.stamp().known() ? e.stamp().iso() : null);
        m.put("timeZoned", e.stamp().zoned());
        m.put("timeInferred", e.stamp().inferred());
        m.put("role", e.role().label());
        m.put("class", e.causeClass().id());
        m.put("severity", e.severity().label());
        m.put("title", e.title());
        m.put("subject", who(e.who()));
        m.put("blames", e.blamed().isNobody() ? null : who(e.blamed()));
        m.put("causedBy", incident.causeOf().get(e.seq()));
        m.put("root", incident.rootCause() != null && incident.rootCause().seq() == e.seq());
        m.put("fields", e.fields());
        m.put("remedies", e.remedies());
        m.put("evidence", evidence(e.evidence()));
        m.put("origin", e.origin());
        return m;
    }

    /** source, line, text as always; a query's or a stream line's kind, query and time added. */
    private static Map<String, Object> evidence(org.fabricscope.model.core.Evidence ev) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", ev.source());
        m.put("line", ev.line());
        m.put("text", ev.text());
        if (ev instanceof org.fabricscope.model.core.Evidence.Query q) {
            m.put("kind", q.kind());
            m.put("query", q.query());
            m.put("time", q.time() == null ? null : q.time().toString());
        } else if (ev instanceof org.fabricscope.model.core.Evidence.StreamLine l) {
            m.put("kind", l.kind());
            m.put("time", l.time() == null ? null : l.time().toString());
        }
        return m;
    }

    private static Map<String, Object> who(org.fabricscope.model.incident.reasoning.Who w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", w.label());
        if (w.rank() >= 0) {
            m.put("rank", w.rank());
        }
        putIf(m, "namespace", w.namespace());
        putIf(m, "pod", w.pod());
        putIf(m, "node", w.node());
        putIf(m, "host", w.host());
        putIf(m, "gpu", w.gpu());
        putIf(m, "device", w.device());
        return m;
    }

    private static void putIf(Map<String, Object> m, String k, String v) {
        if (!v.isEmpty()) {
            m.put(k, v);
        }
    }

    static List<String> ids(Incident i) {
        return i.events().stream().map(IncidentEvent::id).toList();
    }
}
