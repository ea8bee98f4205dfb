package org.fabricscope.importers.logs;

import java.util.Set;

/**
 * A training script's own print of a step and its time, in the shapes they take: a step word
 * ({@code step}, {@code iter}, {@code iteration}, any case) and its number ({@code step 10}, {@code Step: 10/500},
 * {@code iter=10}, {@code [step 10]}), then a time key ({@code time}, {@code step_time}, {@code iter time},
 * {@code batch_time}) with its value and a unit: {@code time 123.4 ms}, {@code time: 0.45s}, {@code time=0.45 sec},
 * {@code time (ms): 123.4}. A time without a unit says nothing sure and is not read; nor are the times of parts of
 * a step ({@code data time}, {@code data_time}, {@code eval time}, {@code fwd time}, ...) nor times since the start
 * ({@code elapsed time}, {@code total time}). A step word that no number follows (prose) matches nothing.
 */
final class PlainStepLines {
    /** Words before {@code time} that make it something other than the step's time. */
    private static final Set<String> NOT_THE_STEP = Set.of("data", "dataload", "dataloader", "dataloading", "load",
            "loading", "io", "eval", "evaluation", "val", "valid", "validation", "test", "total", "elapsed", "wait",
            "waiting", "idle", "comm", "communication", "fwd", "forward", "bwd", "backward", "optimizer", "opt", "optim",
            "compile", "compilation", "ckpt", "checkpoint", "save", "saving", "run", "remaining", "eta", "cpu", "wall",
            "start", "end", "sync", "allreduce", "prefetch", "h2d", "d2h", "up", "gen", "generation", "inference");

    private PlainStepLines() {
    }

    static StepLine parse(StepPrefix p) {
        String l = p.text;
        int at = stepWord(l, p.body);
        if (at < 0) {
            return null;
        }
        StepCursor c = new StepCursor(l, at);
        c.spaces();
        if (c.skip(":") || c.skip("=") || c.skip("#")) {
            c.spaces();
        }
        long step = c.integer();
        if (!c.ok) {
            return null;
        }
        if (c.skip("/")) {
            c.integer();
        }
        char next = c.peek();
        if (Character.isLetter(next) || next == '.') {
            return null; // "step 2nd", "step 3.5": not a step counter
        }
        for (int t = indexOfTime(l, c.i); t >= 0; t = indexOfTime(l, t + 4)) {
            double ms = timeAt(l, t);
            if (!Double.isNaN(ms)) {
                return StepLine.of(p, "plain", step, -1, ms, Double.NaN, "");
            }
        }
        return null;
    }

    /** Where the number after the first step word from {@code from} starts (after the word), or -1. */
    private static int stepWord(String l, int from) {
        for (int i = from; i < l.length(); i++) {
            char c = l.charAt(i);
            if ((c == 's' || c == 'S' || c == 'i' || c == 'I') && (i == 0 || !Character.isLetterOrDigit(l.charAt(i - 1)))) {
                int end = -1;
                if (l.regionMatches(true, i, "step", 0, 4)) {
                    end = i + 4;
                } else if (l.regionMatches(true, i, "iteration", 0, 9)) {
                    end = i + 9;
                } else if (l.regionMatches(true, i, "iter", 0, 4)) {
                    end = i + 4;
                }
                if (end > 0 && (end == l.length() || !Character.isLetter(l.charAt(end)))) {
                    int k = end;
                    while (k < l.length() && (l.charAt(k) == ' ' || l.charAt(k) == ':' || l.charAt(k) == '='
                            || l.charAt(k) == '#' || l.charAt(k) == '\t')) {
                        k++;
                    }
                    if (k < l.length() && StepCursor.isDigit(l.charAt(k))) {
                        return end;
                    }
                }
            }
        }
        return -1;
    }

    /** The next {@code time} (any case) from {@code from} that is a word of its own or ends a key, or -1. */
    private static int indexOfTime(String l, int from) {
        for (int i = from; i + 4 <= l.length(); i++) {
            if (l.regionMatches(true, i, "time", 0, 4)) {
                boolean endOk = i + 4 == l.length() || !Character.isLetterOrDigit(l.charAt(i + 4));
                boolean startOk = i == 0 || !Character.isLetterOrDigit(l.charAt(i - 1));
                if (endOk && startOk) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** Milliseconds of the time key at {@code t}, or NaN when it is not the step's time with a value and a unit. */
    private static double timeAt(String l, int t) {
        String before = wordBefore(l, t);
        if (NOT_THE_STEP.contains(before)) {
            return Double.NaN;
        }
        StepCursor c = new StepCursor(l, t + 4);
        double unitScale = 0;
        c.spaces();
        if (c.peek() == '(' || c.peek() == '[') { // time (ms): 12.3
            c.i++;
            unitScale = unit(c);
            if (unitScale == 0 || !(c.skip(")") || c.skip("]"))) {
                return Double.NaN;
            }
            c.spaces();
        }
        if (!(c.skip(":") || c.skip("="))) {
            if (c.i == t + 4) {
                return Double.NaN; // "time5": no separator
            }
        }
        c.spaces();
        double v = c.decimal();
        if (!c.ok || !(v >= 0) || Double.isInfinite(v)) {
            return Double.NaN;
        }
        if (unitScale == 0) {
            c.spaces();
            unitScale = unit(c);
            if (unitScale == 0) {
                return Double.NaN;
            }
        }
        if (c.peek() == '/') { // ms/step is a step time; ms/token or s/sample is not
            c.i++;
            if (!(c.skip("step") || c.skip("it") || c.skip("iter") || c.skip("batch"))) {
                return Double.NaN;
            }
        }
        return v * unitScale;
    }

    /** Milliseconds per unit of the unit at the cursor ({@code ms}, {@code s}, {@code sec}, {@code seconds}), or 0. */
    private static double unit(StepCursor c) {
        String s = c.s;
        int i = c.i;
        double scale;
        int end;
        if (s.startsWith("ms", i)) {
            scale = 1;
            end = i + 2;
        } else if (s.startsWith("seconds", i)) {
            scale = 1000;
            end = i + 7;
        } else if (s.startsWith("secs", i)) {
            scale = 1000;
            end = i + 4;
        } else if (s.startsWith("sec", i)) {
            scale = 1000;
            end = i + 3;
        } else if (s.startsWith("s", i)) {
            scale = 1000;
            end = i + 1;
        } else {
            return 0;
        }
        if (end < s.length() && Character.isLetterOrDigit(s.charAt(end))) {
            return 0;
        }
        c.i = end;
        return scale;
    }

    /** The word joined to {@code time} at {@code t} by {@code _}, {@code -} or one space, lower case; "" when none. */
    private static String wordBefore(String l, int t) {
        if (t < 2) {
            return "";
        }
        char sep = l.charAt(t - 1);
        if (sep != '_' && sep != '-' && sep != ' ' && sep != '/') {
            return "";
        }
        int k = t - 1;
        while (k > 0 && Character.isLetterOrDigit(l.charAt(k - 1))) {
            k--;
        }
        return l.substring(k, t - 1).toLowerCase(java.util.Locale.ROOT);
    }
}
