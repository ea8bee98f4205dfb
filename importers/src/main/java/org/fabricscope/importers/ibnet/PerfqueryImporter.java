package org.fabricscope.importers.ibnet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;

/**
 * Reads {@code perfquery} output, basic and {@code -x}, one port or {@code -a} (port 255, all
 * ports): a {@code # Port counters: Lid N port P (CapMask: ...)} header and libibmad's
 * {@code Name:.....value} lines. Counters are matched to ports by LID and port number when the
 * model is built.
 */
public final class PerfqueryImporter extends LineImporter {
    private static final Pattern HEADER = Pattern.compile(
            "^# Port (extended )?counters: (?:Lid (\\d+)|DR path (\\S+))(?: Gid \\S+)? port (\\d+)(?: \\(.*\\))?\\s*$");
    private static final Pattern FIELD = Pattern.compile("^([A-Za-z][A-Za-z0-9]*):\\.*\\s*(\\S*)\\s*$");

    /** Where a port's counters go: the model builder (files), or a live poller that times them itself. */
    @FunctionalInterface
    public interface CounterSink {
        void counters(int lid, int port, Map<String, Long> counters, Evidence header, boolean allPorts);
    }

    private final CounterSink sink;
    private int lid;
    private int port;
    private Evidence headerEvidence;
    private Map<String, Long> counters;

    /** Counters go to the model builder, matched to ports by LID and port number when it builds. */
    public PerfqueryImporter() {
        this.sink = null;
    }

    /** Counters go to {@code sink} (a poller reading perfquery's output, which stamps them with its poll's time). */
    public PerfqueryImporter(CounterSink sink) {
        this.sink = sink;
    }

    @Override
    protected void line(String raw) {
        String l = raw.strip();
        if (l.isEmpty()) {
            return;
        }
        if (l.startsWith("#")) {
            Matcher h = HEADER.matcher(l);
            if (h.matches()) {
                flush();
                if (h.group(3) != null) {
                    bad("counters addressed by directed route " + h.group(3)
                            + " cannot be matched to a port; run perfquery with a LID");
                    lid = -1;
                } else {
                    lid = checked(() -> Numbers.lid(h.group(2)));
                }
                port = checked(() -> Numbers.port(h.group(4)));
                if (port < 0) {
                    lid = -1;
                }
                headerEvidence = evidence(l);
                counters = new LinkedHashMap<>();
            }
            return;
        }
        if (l.startsWith("ibwarn:") || l.startsWith("ibpanic:")) {
            return; // stderr noise mixed into captures
        }
        Matcher f = FIELD.matcher(l);
        if (!f.matches()) {
            bad("expected a counter line like SymbolErrorCounter:.......0; got: " + IbnetdiscoverImporter.shorten(l));
            return;
        }
        if (counters == null) {
            bad("counter line before any \"# Port counters:\" header");
            return;
        }
        String name = f.group(1);
        String value = f.group(2);
        if (name.equals("PortSelect") || name.startsWith("CounterSelect") || name.equals("CapabilityMask")) {
            return;
        }
        if (lid < 0) {
            return; // counters of a refused header (reported there)
        }
        try {
            counters.put(name, Numbers.unsigned64(value, name));
        } catch (Numbers.OutOfRange e) {
            bad(Numbers.isDecimal(value) ? e.getMessage() + "; that counter is skipped"
                    : "counter " + name + " has no whole-number value: \"" + value + "\"");
        }
    }

    @Override
    protected void end() {
        flush();
    }

    /**
     * A LID or port of a header: out of range, the header's counters are skipped (reported once
     * here) rather than placed on a port the number wrapped to.
     */
    private int checked(java.util.function.IntSupplier field) {
        try {
            return field.getAsInt();
        } catch (Numbers.OutOfRange e) {
            bad(e.getMessage() + "; the counters under this header are skipped");
            return -1;
        }
    }

    private void flush() {
        if (counters != null && !counters.isEmpty() && lid > 0 && sink != null) {
            sink.counters(lid, port, counters, Evidence.at(source, headerEvidence.line(), headerEvidence.text()), port == 255);
        } else if (counters != null && !counters.isEmpty() && lid > 0) {
            builder.counters(lid, port, 0, null, counters,
                    Evidence.at(source, headerEvidence.line(), headerEvidence.text()), port == 255);
        }
        counters = null;
    }
}
