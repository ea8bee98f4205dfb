package org.fabricscope.model.incident;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the time a log line was printed from its own stamp, in every format met in training
 * incidents: RFC 3339 ({@code kubectl logs --timestamps}, JSON), {@code 2026-11-26 15:47:42,123}
 * (Python logging), NCCL 2.26+'s {@code [2026-11-26 15:47:42]}, torchrun's summary
 * {@code time : 2026-11-26_15:47:42}, glog ({@code [E1126 15:47:42.790211 812 file.cpp:12]}, also after
 * {@code [rank1]:}), {@code dmesg -T}'s {@code [Thu Nov 26 15:47:42 2026]}, OpenMPI's
 * {@code Thu Nov 26 15:47:42 2026} and syslog's {@code Nov 26 15:47:42 host}. {@code dmesg}'s seconds
 * since boot are not wall time and give none. Lines that cannot hold a stamp are rejected by their
 * first characters, so calling this for every line is cheap.
 */
public final class Stamps {
    private static final Pattern ISO = Pattern.compile(
            "(\\d{4})-(\\d\\d)-(\\d\\d)[T _](\\d\\d):(\\d\\d):(\\d\\d)(?:[.,](\\d{1,9}))?(Z|[+-]\\d\\d:?\\d\\d)?");
    private static final Pattern GLOG = Pattern.compile(
            "^\\[?[IWEF](\\d\\d)(\\d\\d) (\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d{1,9}))?\\s");
    private static final Pattern DAY_TIME_YEAR = Pattern.compile(
            "^\\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{4})");
    private static final Pattern SYSLOG = Pattern.compile(
            "^([A-Z][a-z]{2}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d{1,9}))? \\S");
    private static final Pattern TORCHRUN_TIME = Pattern.compile("^\\s*time\\s*: (\\d{4}-\\d\\d-\\d\\d_\\d\\d:\\d\\d:\\d\\d)");
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
    /** How far into a line a stamp may start (after a launcher's or kubectl's prefix). */
    private static final int REACH = 48;

    private Stamps() {
    }

    /**
     * Whether the line's start may hold a stamp (a cheap test of its first characters, after a launcher's label: a
     * digit, a bracket, a glog severity letter, a capital letter of a day or month name, a torchrun summary field);
     * lines for
     * which it is false never do.
     */
    public static boolean mayHold(String line) {
        if (line.isEmpty()) {
            return false;
        }
        char c = line.charAt(0);
        if (c >= 'a' && c <= 'z') { // a pdsh host before the line ({@link LauncherLabel}): what follows it
            int i = LauncherLabel.end(line, 0);
            if (i == 0 || i >= line.length()) {
                return false;
            }
            c = line.charAt(i);
        }
        return c >= '0' && c <= '9' || c == '[' || c == ' ' || c == '\t' || c >= 'A' && c <= 'Z';
    }

    /** The line's stamp, or {@link Stamp#NONE}. */
    public static Stamp of(String line) {
        int i = skipTags(line);
        if (i >= line.length()) {
            return Stamp.NONE;
        }
        char c = line.charAt(i);
        if (c >= '0' && c <= '9') {
            Stamp quick = rfc3339(line, i);
            if (quick != null) {
                return quick;
            }
        }
        if (c >= '0' && c <= '9' || c == '[' || c == ' ' || c == '\t') {
            Stamp s = iso(line, i);
            if (s != null) {
                return s;
            }
        }
        String rest = i == 0 ? line : line.substring(i);
        char c0 = rest.charAt(0) == '[' && rest.length() > 1 ? rest.charAt(1) : rest.charAt(0);
        if ((c0 == 'I' || c0 == 'W' || c0 == 'E' || c0 == 'F') && rest.length() > 20) {
            Matcher m = GLOG.matcher(rest);
            if (m.find()) {
                return local(Stamp.NO_YEAR, num(m, 1), num(m, 2), m, 3, 6, false);
            }
        }
        if (c0 >= 'A' && c0 <= 'Z') {
            Matcher m = DAY_TIME_YEAR.matcher(rest);
            if (m.find()) {
                int mon = MONTHS.indexOf(m.group(1)) / 3 + 1;
                return mon <= 0 ? Stamp.NONE : local(num(m, 6), mon, num(m, 2), m, 3, -1, true);
            }
            m = SYSLOG.matcher(rest);
            if (m.find() && MONTHS.indexOf(m.group(1)) % 3 == 0) {
                return local(Stamp.NO_YEAR, MONTHS.indexOf(m.group(1)) / 3 + 1, num(m, 2), m, 3, 6, false);
            }
        }
        if (c0 == ' ' || c0 == 't') {
            Matcher m = TORCHRUN_TIME.matcher(rest);
            if (m.find()) {
                Stamp s = iso(m.group(1), 0);
                return s == null ? Stamp.NONE : s;
            }
        }
        return Stamp.NONE;
    }

    /**
     * Skips a launcher's label ({@link LauncherLabel}: {@code srun --label}'s {@code 03: }, pdsh's {@code worker-3: }),
     * the {@code [rank1]:},
     * {@code [default0]:}, {@code [pod/name] } and {@code [1,0]<stderr>:} tags, and any other bracketed tag a colon
     * follows ({@link LauncherLabel#tagEnd}: a torchrun prefix template such as {@code [trainer3|1]:}).
     */
    private static int skipTags(String line) {
        int i = LauncherLabel.end(line, 0);
        while (i < line.length() && line.charAt(i) == '[') {
            int close = line.indexOf(']', i);
            if (close < 0 || close - i > 64) {
                break;
            }
            String tag = line.substring(i + 1, close);
            // any tag a colon follows: torchrun's --log-line-prefix-template is free text
            if (LauncherLabel.tagEnd(line, i) > i || tag.startsWith("rank") || tag.startsWith("default") || tag.startsWith("pod/")
                    || tag.matches("\\d+,\\d+")) {
                i = close + 1;
                if (line.startsWith("<stdout>:", i) || line.startsWith("<stderr>:", i)) {
                    i += 9;
                }
                if (i < line.length() && (line.charAt(i) == ':' || line.charAt(i) == ' ')) {
                    i++;
                }
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * {@code 2026-11-26T15:47:42[.fraction](Z|+hh:mm)} read by hand: the stamp {@code kubectl logs --timestamps}
     * puts on every line, so it must cost little. Null when the line does not start so.
     */
    private static Stamp rfc3339(String l, int i) {
        if (l.length() < i + 20 || l.charAt(i + 4) != '-' || l.charAt(i + 7) != '-' || l.charAt(i + 10) != 'T'
                || l.charAt(i + 13) != ':' || l.charAt(i + 16) != ':') {
            return null;
        }
        int year = digits(l, i, 4);
        int month = digits(l, i + 5, 2);
        int day = digits(l, i + 8, 2);
        int hour = digits(l, i + 11, 2);
        int minute = digits(l, i + 14, 2);
        int second = digits(l, i + 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60
                || hour < 0 || minute < 0 || second < 0) {
            return null;
        }
        int k = i + 19;
        long millis = 0;
        if (k < l.length() && l.charAt(k) == '.') {
            int scale = 100;
            k++;
            while (k < l.length() && Character.isDigit(l.charAt(k))) {
                millis += (l.charAt(k) - '0') * scale;
                scale /= 10;
                k++;
            }
        }
        if (k >= l.length() || l.charAt(k) != 'Z') {
            return null; // an offset or none: the general reader
        }
        try {
            long epoch = LocalDateTime.of(year, month, day, hour, minute, Math.min(second, 59)).toEpochSecond(ZoneOffset.UTC);
            return new Stamp(epoch * 1000 + millis, true, true);
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    private static int digits(String l, int at, int n) {
        int v = 0;
        for (int k = at; k < at + n; k++) {
            char c = l.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + c - '0';
        }
        return v;
    }

    private static Stamp iso(String line, int from) {
        int end = Math.min(line.length(), from + REACH);
        Matcher m = ISO.matcher(line).region(from, end);
        if (!m.find() || m.start() > from + 2) {
            return null;
        }
        int year = num(m, 1);
        String zone = m.group(8);
        if (zone == null) {
            return local(year, num(m, 2), num(m, 3), m, 4, 7, true);
        }
        try {
            String z = zone.equals("Z") ? "Z" : zone.length() == 5 ? zone.substring(0, 3) + ":" + zone.substring(3) : zone;
            LocalDateTime t = LocalDateTime.of(year, num(m, 2), num(m, 3), num(m, 4), num(m, 5), num(m, 6),
                    nanos(m.group(7)));
            return new Stamp(OffsetDateTime.of(t, ZoneOffset.of(z)).toInstant().toEpochMilli(), true, true);
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    /** A stamp read as UTC from its fields: hour, minute and second at groups {@code h..h+2}, fraction at {@code frac}. */
    private static Stamp local(int year, int month, int day, Matcher m, int h, int frac, boolean yearKnown) {
        try {
            LocalDateTime t = LocalDateTime.of(year, month, day, num(m, h), num(m, h + 1), num(m, h + 2),
                    frac < 0 ? 0 : nanos(m.group(frac)));
            return new Stamp(t.toInstant(ZoneOffset.UTC).toEpochMilli(), yearKnown, false);
        } catch (java.time.DateTimeException e) {
            return Stamp.NONE;
        }
    }

    private static int num(Matcher m, int g) {
        return Integer.parseInt(m.group(g));
    }

    private static int nanos(String frac) {
        if (frac == null) {
            return 0;
        }
        String f = (frac + "000000000").substring(0, 9);
        return Integer.parseInt(f);
    }
}
