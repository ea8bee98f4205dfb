package org.fabricscope.app.live.poll;

import java.util.List;
import java.util.Locale;

/**
 * The fabric poller reads counters and never clears them: other tools (an exporter, the switch's own
 * monitoring, the next person's {@code ibqueryerrors}) read the same counters, and a cleared counter
 * loses the history they rely on. Every command line the poller runs passes {@link #check} first;
 * one holding a reset or clear option is refused before it is started.
 */
public final class NeverReset {
    /** Options of infiniband-diags that reset or clear counters (perfquery -r/-R, ibqueryerrors -k/-K and --clear*). */
    private static final List<String> RESETTING = List.of("-r", "-R", "--reset_after_read", "--Reset_only", "-k", "-K");

    private NeverReset() {
    }

    /** Whether this argument asks a diag to reset or clear counters. */
    public static boolean resets(String arg) {
        if (RESETTING.contains(arg)) {
            return true;
        }
        String a = arg.toLowerCase(Locale.ROOT);
        if (a.startsWith("--clear") || a.startsWith("--reset")) {
            return true;
        }
        // bundled short options: "-xr" is -x -r
        return arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-'
                && arg.chars().skip(1).anyMatch(c -> c == 'r' || c == 'R' || c == 'k' || c == 'K');
    }

    /** Refuses a command line that would reset or clear a counter. */
    public static void check(List<String> argv) {
        for (String a : argv.subList(Math.min(1, argv.size()), argv.size())) {
            if (resets(a)) {
                throw new IllegalArgumentException("refused to run " + String.join(" ", argv) + ": " + a
                        + " would reset counters, and the fabric poller never resets a counter");
            }
        }
    }
}
