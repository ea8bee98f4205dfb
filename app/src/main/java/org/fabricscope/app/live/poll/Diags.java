package org.fabricscope.app.live.poll;

import java.time.Duration;
import java.util.List;

/**
 * Runs one infiniband-diags command and returns what it printed. The poller's only way to the fabric,
 * so tests can put a recording or scripted runner in its place ({@link ProcessDiags} is the real one).
 */
public interface Diags {
    /** What a command printed and how it ended. */
    record Output(int exitCode, String stdout, String stderr) {
        /** The tool's own {@code iberror:} line, else the first line of stderr that says something (not libumad2sim's notice), or "". */
        public String firstError() {
            for (String l : stderr.split("\n")) {
                if (l.contains("iberror:")) {
                    String s = l.strip();
                    return s.length() > 200 ? s.substring(0, 197) + "..." : s;
                }
            }
            for (String l : stderr.split("\n")) {
                String s = l.strip();
                s = s.replaceFirst("^ibwarn: \\[\\d+\\] ", "");
                if (!s.isEmpty() && !s.startsWith("sim_connect:")) {
                    return s.length() > 200 ? s.substring(0, 197) + "..." : s;
                }
            }
            return "";
        }
    }

    /**
     * Runs {@code argv} (program first) within {@code timeout}. A program that cannot be started, does not
     * end in time or prints past the output limit is a {@link DiagsException} with one line for the user.
     */
    Output run(List<String> argv, Duration timeout) throws DiagsException;

    /** A command that could not be run or read: one line, naming the command. */
    final class DiagsException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean missing;

        public DiagsException(String message, boolean missing) {
            super(message, null, false, false);
            this.missing = missing;
        }

        /** Whether the program is not installed (not found on the PATH). */
        public boolean missing() {
            return missing;
        }
    }
}
