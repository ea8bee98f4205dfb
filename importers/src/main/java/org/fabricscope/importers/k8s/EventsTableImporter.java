package org.fabricscope.importers.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.k8s.K8sEvent;

/**
 * Reads {@code kubectl get events} as a table (no {@code -o}): {@code LAST SEEN  TYPE  REASON  OBJECT
 * MESSAGE}, with a leading {@code NAMESPACE} column under {@code -A} and the extra columns of
 * {@code -o wide}. Columns are cut at the header's positions (kubectl's tabwriter pads with at
 * least three spaces); the message runs to the end of the line when it is the last column. Without
 * {@code -A} the namespace is not printed and stays unknown (empty): such events attach to a pod by
 * name alone. A header of more than {@link #MAX_COLUMNS} columns is no kubectl table (kubectl prints
 * at most eleven): it is refused with one diagnostic and the rows under it are skipped; a row is cut
 * only at the columns read, so reading is linear in the file whatever the header.
 */
public final class EventsTableImporter extends LineImporter {
    private static final Pattern COLUMN = Pattern.compile("\\S+(?: SEEN)?");
    private static final java.util.Set<String> KNOWN = java.util.Set.of("NAMESPACE", "TYPE", "REASON", "OBJECT",
            "MESSAGE", "SOURCE", "COUNT", "LAST SEEN");
    private static final Pattern REPEAT = Pattern.compile("\\(x(\\d+) over");
    /** {@code 3m12s (x5 over 10m)}: the part after the age. */
    private static final Pattern REPEAT_TAIL = Pattern.compile("\\s*\\(x\\d+ over[^)]*\\)\\s*$");

    /** Most columns of a header (kubectl's widest events table, {@code -A -o wide}, has eleven). */
    public static final int MAX_COLUMNS = 64;

    private List<String> names;
    private List<Integer> starts;
    /** The index in {@link #names} of each column read, in order of its start. */
    private int[] wanted;
    /** A header was refused: its rows are skipped without a diagnostic each. */
    private boolean refused;
    private int skippedRows;

    @Override
    protected void begin() {
        names = null;
        starts = null;
        wanted = null;
        refused = false;
        skippedRows = 0;
    }

    @Override
    protected void end() {
        if (skippedRows > 0) {
            builder.diagnostic(org.fabricscope.model.core.Diagnostic.warning(source, 0, skippedRows
                    + " rows under a header of more than " + MAX_COLUMNS + " columns skipped"));
        }
    }

    /** One row; a count out of range skips it with a diagnostic. */
    @Override
    protected void line(String raw) {
        try {
            record(raw);
        } catch (Numbers.OutOfRange e) {
            bad(e.getMessage() + "; event skipped");
        }
    }

    private void record(String raw) {
        String l = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (l.isBlank()) {
            return;
        }
        if (l.contains("LAST SEEN") && l.contains("REASON") && l.contains("MESSAGE")) {
            names = new ArrayList<>();
            starts = new ArrayList<>();
            refused = false;
            Matcher m = COLUMN.matcher(l);
            while (m.find()) {
                if (names.size() == MAX_COLUMNS) {
                    bad("events header has more than " + MAX_COLUMNS + " columns (EventsTableImporter.MAX_COLUMNS): "
                            + "no kubectl table; the rows under it are skipped");
                    names = null;
                    refused = true;
                    return;
                }
                names.add(m.group());
                starts.add(m.start());
            }
            List<Integer> read = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                if (KNOWN.contains(names.get(i))) {
                    read.add(i);
                }
            }
            wanted = read.stream().mapToInt(Integer::intValue).toArray();
            return;
        }
        if (refused) {
            skippedRows++;
            return;
        }
        if (names == null) {
            bad("expected the header \"LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\" first");
            return;
        }
        String ns = "";
        String type = "";
        String reason = "";
        String object = "";
        String message = "";
        String source = null;
        String lastSeen = "";
        int count = 1;
        for (int i : wanted) {
            int from = starts.get(i);
            boolean last = i == names.size() - 1;
            int to = last ? l.length() : Math.min(l.length(), starts.get(i + 1));
            String v = from < l.length() ? l.substring(from, Math.max(from, to)).strip() : "";
            switch (names.get(i)) {
                case "NAMESPACE" -> ns = v;
                case "TYPE" -> type = v;
                case "REASON" -> reason = v;
                case "OBJECT" -> object = v;
                case "MESSAGE" -> message = v;
                case "SOURCE" -> source = v;
                case "COUNT" -> count = Numbers.isDecimal(v) ? Math.max(1, Numbers.nonNegativeInt(v, "event count")) : 1;
                case "LAST SEEN" -> {
                    lastSeen = REPEAT_TAIL.matcher(v).replaceFirst("");
                    Matcher x = REPEAT.matcher(v);
                    if (x.find()) {
                        count = Numbers.nonNegativeInt(x.group(1), "event count");
                    }
                }
                default -> { }
            }
        }
        int slash = object.indexOf('/');
        if (type.isEmpty() || reason.isEmpty() || slash <= 0) {
            bad("expected an event row under the header (TYPE, REASON, kind/name); got: "
                    + (l.length() > 120 ? l.substring(0, 117) + "..." : l));
            return;
        }
        String kind = kindOf(object.substring(0, slash));
        builder.k8s().event(K8sEvent.of(ns, kind, object.substring(slash + 1), type, reason, message, count, source,
                evidence(l), lastSeen));
    }

    /** {@code pod} -> Pod, {@code pytorchjob.kubeflow.org} -> PyTorchJob-ish: the resource's first label, capitalised. */
    private static String kindOf(String resource) {
        String r = resource.toLowerCase(Locale.ROOT);
        int dot = r.indexOf('.');
        if (dot > 0) {
            r = r.substring(0, dot);
        }
        return switch (r) {
            case "pod" -> "Pod";
            case "node" -> "Node";
            case "pytorchjob" -> "PyTorchJob";
            case "mpijob" -> "MPIJob";
            default -> r.isEmpty() ? "" : Character.toUpperCase(r.charAt(0)) + r.substring(1);
        };
    }
}
