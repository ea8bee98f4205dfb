package org.fabricscope.importers.logs;

import org.fabricscope.model.incident.LauncherLabel;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.Stamps;

/**
 * What the start of a trainer's line says about who printed it, read by hand: ANSI colour codes
 * dropped (torchtitan colours its step line), then a launcher's label first ({@link LauncherLabel}: {@code srun
 * --label}'s {@code 03: }, pdsh's {@code worker-1: }), {@code kubectl logs --prefix}'s
 * {@code [pod/NAME/CONTAINER] } (the pod), {@code --timestamps}' RFC 3339 stamp, torchrun's
 * {@code [rankN]:} (a global rank) or {@code [defaultN]:} (its default {@code [role][local rank]} prefix:
 * a local rank), and OpenMPI's {@code [job,N]<stdout>:} (rank N), in any order and with the spaces between.
 * {@link #body} is where the trainer's own text starts. Made only for lines that passed
 * {@link StepTimeLines#mayHold}.
 */
final class StepPrefix {
    /** The line without ANSI escape sequences. */
    final String text;
    /** Where the text after the tags starts. */
    final int body;
    final int rank;
    final int localRank;
    /** The pod of a {@code kubectl logs --prefix} tag, "" when none. */
    final String pod;

    private StepPrefix(String text, int body, int rank, int localRank, String pod) {
        this.text = text;
        this.body = body;
        this.rank = rank;
        this.localRank = localRank;
        this.pod = pod;
    }

    static StepPrefix of(String raw) {
        String l = raw.indexOf('\u001b') >= 0 ? stripAnsi(raw) : raw;
        int i = 0;
        int rank = -1;
        int local = -1;
        String pod = "";
        while (i < l.length()) {
            char c = l.charAt(i);
            if (c == ' ' || c == '\t') {
                i++;
            } else if (c >= '0' && c <= '9' && rfc3339End(l, i) > 0) {
                i = LogDecoration.criStream(l, rfc3339End(l, i)); // and the kubelet's log file's stream and tag
            } else if (i == 0 && LauncherLabel.end(l, i) > i) { // srun --label's task id or pdsh's host, first
                i = LauncherLabel.end(l, i);
            } else if (c == '[' && l.startsWith("pod/", i + 1)) {
                int close = l.indexOf(']', i);
                if (close < 0 || close - i > 300) {
                    break;
                }
                int slash = l.indexOf('/', i + 5);
                pod = l.substring(i + 5, slash > 0 && slash < close ? slash : close);
                i = close + 1;
            } else if (c == '[' && (l.startsWith("rank", i + 1) || l.startsWith("default", i + 1))) {
                int from = i + (l.charAt(i + 1) == 'r' ? 5 : 8);
                int n = digitsThenClose(l, from);
                if (n < 0 || !l.startsWith("]:", from + n)) {
                    break;
                }
                int v = Integer.parseInt(l, from, from + n, 10);
                if (l.charAt(i + 1) == 'r') {
                    rank = v;
                } else {
                    local = v;
                }
                i = from + n + 2;
            } else if (c == '[' && openMpiTag(l, i) > 0) {
                int comma = l.indexOf(',', i);
                rank = Integer.parseInt(l, comma + 1, l.indexOf(']', i), 10);
                i = openMpiTag(l, i);
            } else {
                break;
            }
        }
        return new StepPrefix(l, i, rank, local, pod);
    }

    /** Whether the trainer's text starts with {@code lit}. */
    boolean bodyStartsWith(String lit) {
        return text.startsWith(lit, body);
    }

    /**
     * When the line was printed, from its own stamp ({@link Stamps}: RFC 3339, Python logging's and DeepSpeed's
     * {@code [2024-05-01 10:00:00,123]}, Megatron's {@code [2024-05-01 10:00:00.123456]}, torchtitan's
     * {@code [titan] 2024-05-01 10:00:00,123}); a stamp without a zone is read as UTC; -1 when none (or no year).
     */
    long epochMillis() {
        Stamp s = Stamps.of(text);
        if (!s.known()) {
            int titan = text.indexOf("[titan] ");
            if (titan >= 0 && titan <= body + 1) {
                s = Stamps.of(text.substring(titan + 8));
            } else if (body > 0 && body < text.length()) {
                s = Stamps.of(text.substring(body));
            }
        }
        return s.known() && s.yearKnown() ? s.millis() : -1;
    }

    /** The length of the digits at {@code from} that a {@code ]} follows, or -1. */
    private static int digitsThenClose(String l, int from) {
        int k = from;
        while (k < l.length() && k - from < 7 && StepCursor.isDigit(l.charAt(k))) {
            k++;
        }
        return k > from && k < l.length() && l.charAt(k) == ']' ? k - from : -1;
    }

    /** The end of {@code [1,0]<stdout>:} at {@code i}, or -1. */
    private static int openMpiTag(String l, int i) {
        int k = i + 1;
        int comma = -1;
        while (k < l.length() && k - i < 16 && (StepCursor.isDigit(l.charAt(k)) || l.charAt(k) == ',' && comma < 0)) {
            if (l.charAt(k) == ',') {
                comma = k;
            }
            k++;
        }
        if (comma <= i + 1 || k == comma + 1 || k >= l.length() || l.charAt(k) != ']') {
            return -1;
        }
        if (l.startsWith("<stdout>:", k + 1) || l.startsWith("<stderr>:", k + 1)) {
            return k + 10;
        }
        return -1;
    }

    /** The end of an RFC 3339 stamp ({@code 2024-05-01T10:00:00[.frac](Z|+hh:mm)}) at {@code i} and its space, or -1. */
    private static int rfc3339End(String l, int i) {
        if (l.length() < i + 20 || l.charAt(i + 4) != '-' || l.charAt(i + 7) != '-' || l.charAt(i + 10) != 'T'
                || l.charAt(i + 13) != ':' || l.charAt(i + 16) != ':') {
            return -1;
        }
        int k = i + 19;
        if (l.charAt(k) == '.') {
            k++;
            while (k < l.length() && StepCursor.isDigit(l.charAt(k))) {
                k++;
            }
        }
        if (k < l.length() && l.charAt(k) == 'Z') {
            k++;
        } else if (k + 5 < l.length() && (l.charAt(k) == '+' || l.charAt(k) == '-')) {
            k += l.charAt(k + 3) == ':' ? 6 : 5;
        } else {
            return -1;
        }
        return k < l.length() && l.charAt(k) == ' ' ? k + 1 : k == l.length() ? k : -1;
    }

    /** Drops ANSI escape sequences: CSI ({@code ESC [ params final}) and two-character escapes. */
    static String stripAnsi(String l) {
        StringBuilder b = new StringBuilder(l.length());
        int i = 0;
        while (i < l.length()) {
            char c = l.charAt(i);
            if (c != '\u001b') {
                b.append(c);
                i++;
            } else if (i + 1 < l.length() && l.charAt(i + 1) == '[') {
                int k = i + 2;
                while (k < l.length() && (l.charAt(k) < 0x40 || l.charAt(k) > 0x7e)) {
                    k++;
                }
                i = k + 1;
            } else {
                i += 2;
            }
        }
        return b.toString();
    }
}
