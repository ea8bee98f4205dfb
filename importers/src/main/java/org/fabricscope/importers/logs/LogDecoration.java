package org.fabricscope.importers.logs;

import org.fabricscope.model.incident.LauncherLabel;

/**
 * What launchers and log collectors put before a program's own line, read by hand. In order, each optional:
 * <ol>
 * <li>{@code kubectl logs --prefix}: {@code [pod/NAME/CONTAINER] } (kubectl's {@code pkg/cmd/logs/logs.go});</li>
 * <li>{@code kubectl logs --timestamps}: the kubelet's RFC 3339 time with nanoseconds and a space,
 * {@code 2026-11-28T13:00:00.123456789Z } (Go's {@code RFC3339Nano}: trailing zeros of the fraction dropped, none at
 * all on a whole second; an offset instead of {@code Z} is read too);</li>
 * <li>after that time, the stream and tag of the kubelet's own log files ({@code /var/log/pods/.../0.log}, as a node's
 * log collector or support bundle copies them): {@code stdout F } or {@code stderr P } (CRI's log format,
 * {@code time stream tag log}: {@code cri-api}'s {@code LogStreamStdout}, {@code LogTagFull}, {@code LogTagPartial};
 * a line split as partial is not joined again);</li>
 * <li>OpenMPI's {@code --timestamp-output}: {@code Sat Nov 28 13:00:00 2026} (the C library's {@code ctime} text, a
 * day below 10 padded with a space);</li>
 * <li>OpenMPI's {@code --tag-output}: {@code [1,0]<stdout>:};</li>
 * <li>a launcher's rank tag: {@code [3] } (MPICH's {@code -prepend-rank}, Intel MPI's {@code -l});</li>
 * <li>Slurm's {@code srun --label} {@code 03: } or pdsh's {@code worker-3: } ({@link LauncherLabel});</li>
 * <li>torchrun's worker prefix, {@code [default0]:}: the role and the local rank in brackets and a colon
 * ({@code torch/distributed/elastic}'s default {@code [{role}{local_rank}]:}; {@code --tee} or {@code --log-dir}), or
 * what a {@code --log-line-prefix-template} made of it ({@code [trainer3|1]:}): any bracketed tag without spaces a
 * colon follows, but PyTorch's own {@code [rank3]:} (read by the PyTorch lines) and a line that ends there
 * (torchrun's failure summary's {@code [0]:});</li>
 * <li>NCCL 2.26+'s time before a WARN: {@code [2026-11-28 13:00:00] } ({@code src/debug.cc}: the default
 * {@code NCCL_DEBUG_TIMESTAMP_FORMAT} {@code "[%F %T] "} on the levels of {@code NCCL_DEBUG_TIMESTAMP_LEVELS}, WARN by
 * default).</li>
 * </ol>
 * Not read here: a prefix template without brackets, and a pdsh host of letters only; an NCCL line behind them is
 * still found by its own prefix ({@link NcclPrefix#hostStart}), other lines are read as they are.
 * Each part is taken where it matches, in that order, as the regular expression this replaces took them
 * ({@code NcclLogParser}'s {@code DECORATION}, kept in {@code LogDecorationTest} as the reference the two are compared
 * by). That expression was two thirds of the parser's time on a {@code kubectl logs --timestamps} capture, where every
 * line has a decoration (BENCHMARKS.md "Issue 27, twelfth session"). Digits are ASCII digits and word characters
 * ASCII letters, digits and underscores, as the expression's {@code \d} and {@code \w}.
 */
final class LogDecoration {
    private LogDecoration() {
    }

    /** Where the decorations at the start of {@code s} end: 0 when it has none. */
    static int end(String s) {
        int i = podPrefix(s, 0);
        int time = rfc3339(s, i);
        i = time > i ? criStream(s, time) : i;
        i = openMpiTime(s, i);
        i = mpiTag(s, i);
        i = rankTag(s, i);
        i = LauncherLabel.end(s, i);
        i = roleTag(s, i);
        return warnTime(s, i);
    }

    /** {@code [pod/} then characters other than {@code ]} and space, at least one, then {@code "] "}. */
    private static int podPrefix(String s, int at) {
        if (!s.startsWith("[pod/", at)) {
            return at;
        }
        int i = at + 5;
        int start = i;
        while (i < s.length() && s.charAt(i) != ']' && s.charAt(i) != ' ') {
            i++;
        }
        return i > start && s.startsWith("] ", i) ? i + 2 : at;
    }

    /** {@code YYYY-MM-DDTHH:MM:SS}, optionally {@code .} and digits, then {@code Z} or {@code ±HH[:]MM}, a space. */
    private static int rfc3339(String s, int at) {
        int i = date(s, at, 'T');
        i = time(s, i);
        if (i < 0) {
            return at;
        }
        if (is(s, i, '.') && digit(s, i + 1)) {
            i = digitsFrom(s, i + 1);
        }
        if (is(s, i, 'Z')) {
            i++;
        } else if (is(s, i, '+') || is(s, i, '-')) {
            i = digits(s, i + 1, 2);
            if (i >= 0 && is(s, i, ':')) {
                i++;
            }
            i = digits(s, i, 2);
        } else {
            return at;
        }
        return i >= 0 && is(s, i, ' ') ? i + 1 : at;
    }

    /** {@code stdout } or {@code stderr }, then {@code F} or {@code P} and a space; {@code at} when not there. */
    static int criStream(String s, int at) {
        if (!(s.startsWith("stdout ", at) || s.startsWith("stderr ", at)) || !(is(s, at + 7, 'F') || is(s, at + 7, 'P'))
                || !is(s, at + 8, ' ')) {
            return at;
        }
        return at + 9;
    }

    /** Three word characters, a space, three more, spaces, digits, a space, {@code HH:MM:SS}, a space, four digits. */
    private static int openMpiTime(String s, int at) {
        int i = words(s, at, 3);
        if (i < 0 || !is(s, i, ' ')) {
            return at;
        }
        i = words(s, i + 1, 3);
        if (i < 0 || !is(s, i, ' ')) {
            return at;
        }
        while (is(s, i, ' ')) {
            i++;
        }
        if (!digit(s, i)) {
            return at;
        }
        i = digitsFrom(s, i);
        if (!is(s, i, ' ')) {
            return at;
        }
        i = time(s, i + 1);
        if (i < 0 || !is(s, i, ' ')) {
            return at;
        }
        i = digits(s, i + 1, 4);
        return i < 0 ? at : i;
    }

    /** {@code [digits,digits]<stdout>:} or {@code <stderr>:}. */
    private static int mpiTag(String s, int at) {
        if (!is(s, at, '[') || !digit(s, at + 1)) {
            return at;
        }
        int i = digitsFrom(s, at + 1);
        if (!is(s, i, ',') || !digit(s, i + 1)) {
            return at;
        }
        i = digitsFrom(s, i + 1);
        if (s.startsWith("]<stdout>:", i) || s.startsWith("]<stderr>:", i)) {
            return i + 10;
        }
        return at;
    }

    /** {@code [digits] }. */
    private static int rankTag(String s, int at) {
        if (!is(s, at, '[') || !digit(s, at + 1)) {
            return at;
        }
        int i = digitsFrom(s, at + 1);
        return s.startsWith("] ", i) ? i + 2 : at;
    }

    /**
     * A bracketed tag a colon follows ({@link LauncherLabel#tagEnd}), and more than white space after it; not
     * {@code [rankN]:}.
     */
    private static int roleTag(String s, int at) {
        int end = LauncherLabel.tagEnd(s, at);
        if (end == at || s.startsWith("rank", at + 1) && digit(s, at + 5) && digitsFrom(s, at + 5) == end - 2) {
            return at;
        }
        for (int k = end; k < s.length(); k++) {
            if (s.charAt(k) > ' ') {
                return end;
            }
        }
        return at; // torchrun's failure summary names its entries "[0]:", on a line of their own
    }

    /** {@code [YYYY-MM-DD HH:MM:SS] }. */
    private static int warnTime(String s, int at) {
        if (!is(s, at, '[')) {
            return at;
        }
        int i = time(s, date(s, at + 1, ' '));
        return i >= 0 && s.startsWith("] ", i) ? i + 2 : at;
    }

    /** {@code YYYY-MM-DD} and the separator after it; -1 when not there (or {@code at} is -1). */
    private static int date(String s, int at, char separator) {
        int i = digits(s, at, 4);
        i = i >= 0 && is(s, i, '-') ? digits(s, i + 1, 2) : -1;
        i = i >= 0 && is(s, i, '-') ? digits(s, i + 1, 2) : -1;
        return i >= 0 && is(s, i, separator) ? i + 1 : -1;
    }

    /** {@code HH:MM:SS}; -1 when not there (or {@code at} is -1). */
    private static int time(String s, int at) {
        int i = digits(s, at, 2);
        i = i >= 0 && is(s, i, ':') ? digits(s, i + 1, 2) : -1;
        return i >= 0 && is(s, i, ':') ? digits(s, i + 1, 2) : -1;
    }

    /** The index after exactly {@code n} digits from {@code at}; -1 when they are not all there (or at is -1). */
    private static int digits(String s, int at, int n) {
        if (at < 0 || at + n > s.length()) {
            return -1;
        }
        for (int i = at; i < at + n; i++) {
            if (!digit(s, i)) {
                return -1;
            }
        }
        return at + n;
    }

    /** The index after the run of digits that starts at {@code at}. */
    private static int digitsFrom(String s, int at) {
        int i = at;
        while (digit(s, i)) {
            i++;
        }
        return i;
    }

    /** The index after exactly {@code n} word characters from {@code at}, or -1. */
    private static int words(String s, int at, int n) {
        if (at + n > s.length()) {
            return -1;
        }
        for (int i = at; i < at + n; i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
                return -1;
            }
        }
        return at + n;
    }

    private static boolean digit(String s, int i) {
        if (i < 0 || i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        return c >= '0' && c <= '9';
    }

    private static boolean is(String s, int i, char c) {
        return i >= 0 && i < s.length() && s.charAt(i) == c;
    }
}
