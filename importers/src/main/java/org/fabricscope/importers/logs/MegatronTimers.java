package org.fabricscope.importers.logs;

import java.util.List;

/**
 * Megatron-LM's timer block, printed by the last rank after each {@code training_log} line
 * ({@code megatron/core/timers.py} core_v0.19.0 {@code Timers.log}, normalised by the log interval: milliseconds per
 * iteration), one block per source at a time. Of its timers only {@code forward-backward} (the forward and backward
 * passes of every micro-batch with the pipeline's sends and receives; the optimizer step is not in it) is kept:
 * <ul>
 * <li>{@code --timing-log-option minmax} (the default): {@code (min, max) time across ranks (ms):} then
 * {@code     forward-backward ...........: (1234.56, 1240.12)}: the fastest and slowest rank's time, formats
 * {@code megatron-timers-min} and {@code megatron-timers-max}, rank -1 (the block does not say which ranks);</li>
 * <li>{@code max}: {@code max time across ranks (ms):} then {@code     forward-backward ....: 1240.12};</li>
 * <li>{@code all}: {@code times across ranks (ms):} then {@code   forward-backward:} and one
 * {@code      rank  3: 1234.56} line per rank: format {@code megatron-timers} with that rank.</li>
 * </ul>
 * The step is the iteration of the last Megatron line of the same source (-1 before any). Lines are given
 * with their prefix read ({@link StepPrefix}); the block ends at the first line of another shape.
 */
final class MegatronTimers {
    private static final String FWD_BWD = "forward-backward";

    private enum Mode { NONE, MIN_MAX, MAX, ALL }

    private Mode mode = Mode.NONE;
    /** In the {@code all} block: whether the rank lines now are the forward-backward timer's. */
    private boolean fwdBwd;

    boolean open() {
        return mode != Mode.NONE;
    }

    /** Whether the line opens a block (and it is now open). */
    boolean header(StepPrefix p) {
        String body = p.text.substring(p.body).strip();
        mode = switch (body) {
            case "(min, max) time across ranks (ms):" -> Mode.MIN_MAX;
            case "max time across ranks (ms):" -> Mode.MAX;
            case "times across ranks (ms):" -> Mode.ALL;
            default -> Mode.NONE;
        };
        fwdBwd = false;
        return open();
    }

    /**
     * Reads a line of the open block into {@code out} (at {@code step}); false when the line is not part of it,
     * which closes the block.
     */
    boolean offer(StepPrefix p, long step, List<StepLine> out) {
        String l = p.text;
        boolean indented = p.body > 0 && p.body < l.length() && l.charAt(p.body - 1) == ' ';
        String t = l.substring(p.body).strip();
        boolean ok = indented && switch (mode) {
            case MIN_MAX, MAX -> timerLine(p, t, step, out);
            case ALL -> allLine(p, t, step, out);
            case NONE -> false;
        };
        if (!ok) {
            mode = Mode.NONE;
        }
        return ok;
    }

    /** {@code forward-backward ......: (1.00, 2.00)} or {@code ...: 2.00}. */
    private boolean timerLine(StepPrefix p, String t, long step, List<StepLine> out) {
        int colon = t.lastIndexOf(": ");
        if (colon < 0 || t.isEmpty() || !Character.isLetter(t.charAt(0))) {
            return false;
        }
        String name = t.substring(0, colon);
        int dots = name.indexOf(" .");
        name = dots >= 0 ? name.substring(0, dots) : name.strip();
        StepCursor c = new StepCursor(t, colon + 2);
        double min = Double.NaN;
        double max;
        if (mode == Mode.MIN_MAX) {
            c.lit("(");
            min = c.decimal();
            c.lit(", ");
            max = c.decimal();
            c.lit(")");
        } else {
            max = c.decimal();
        }
        if (!c.ok || !c.atEnd()) {
            return false;
        }
        if (name.equals(FWD_BWD)) {
            if (mode == Mode.MIN_MAX) {
                out.add(cross(p, "megatron-timers-min", -1, step, min));
            }
            out.add(cross(p, "megatron-timers-max", -1, step, max));
        }
        return true;
    }

    /** {@code   forward-backward:} (two spaces) or {@code      rank  3: 1234.56} (five). */
    private boolean allLine(StepPrefix p, String t, long step, List<StepLine> out) {
        if (t.startsWith("rank ")) {
            StepCursor c = new StepCursor(t, 5);
            c.spaces();
            long rank = c.integer();
            c.lit(": ");
            double ms = c.decimal();
            if (!c.ok || !c.atEnd() || rank > Integer.MAX_VALUE) {
                return false;
            }
            if (fwdBwd) {
                out.add(cross(p, "megatron-timers", (int) rank, step, ms));
            }
            return true;
        }
        if (t.endsWith(":") && t.indexOf(' ') < 0 && t.length() > 1) {
            fwdBwd = t.equals(FWD_BWD + ":");
            return true;
        }
        return false;
    }

    /** A time the last rank reports of another rank (or of the fastest / slowest): no host of its own. */
    private static StepLine cross(StepPrefix p, String format, int rank, long step, double ms) {
        return new StepLine(format, rank, -1, "", step, -1, ms, Double.NaN, "", p.epochMillis());
    }

}
