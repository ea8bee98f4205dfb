package org.fabricscope.model.incident;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * When a line says it was printed: milliseconds since the epoch, read as UTC when the stamp has no
 * zone ({@code zoned} false: glog, torchrun, syslog and NCCL print local time), and whether the stamp
 * held its year (glog's {@code E1126 15:47:42.790} and syslog's {@code Nov 26 15:47:42} do not: such a
 * stamp is placed in year 2000 until {@link #inYear} gives it the incident's). {@link #NONE}: no stamp.
 * {@code inferred}: the line had no stamp of its own and took the last one before it in its file, so the
 * time is a lower bound (the line was printed then or later), not the moment it was printed.
 */
public record Stamp(long millis, boolean yearKnown, boolean zoned, boolean inferred) implements Comparable<Stamp> {
    public static final Stamp NONE = new Stamp(Long.MIN_VALUE, false, false);
    /** The difference between two nodes' clocks tolerated before their stamps order their lines. */
    public static final long SKEW_MS = 2_000;

    /** A stamp the line itself printed. */
    public Stamp(long millis, boolean yearKnown, boolean zoned) {
        this(millis, yearKnown, zoned, false);
    }

    /** This stamp's time given to a later line without a stamp of its own: a lower bound of that line's time. */
    public Stamp asLowerBound() {
        return known() ? new Stamp(millis, yearKnown, zoned, true) : NONE;
    }

    /** Known and printed by the line itself (not {@link #inferred}). */
    public boolean exact() {
        return known() && !inferred;
    }
    /** The year a stamp without one is placed in until it is known. */
    static final int NO_YEAR = 2000;

    public boolean known() {
        return millis != Long.MIN_VALUE;
    }

    /** This stamp moved to {@code year} when it had none; itself otherwise. */
    public Stamp inYear(int year) {
        if (!known() || yearKnown) {
            return this;
        }
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
        try {
            return new Stamp(t.withYear(year).toInstant(ZoneOffset.UTC).toEpochMilli(), true, zoned, inferred);
        } catch (java.time.DateTimeException e) { // 29 February of a year without one
            return this;
        }
    }

    /** The year, or -1 when not known. */
    public int year() {
        return known() && yearKnown ? LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC).getYear() : -1;
    }

    /** ISO 8601 ({@code 2026-11-26T15:47:42.790Z}), or empty for none. */
    public String iso() {
        return known() ? Instant.ofEpochMilli(millis).toString() : "";
    }

    /** {@code 15:47:42.790}, or empty for none. */
    public String clock() {
        if (!known()) {
            return "";
        }
        String s = Instant.ofEpochMilli(millis).toString();
        int t = s.indexOf('T');
        return s.substring(t + 1, s.length() - 1);
    }

    @Override
    public int compareTo(Stamp o) {
        return Long.compare(millis, o.millis);
    }
}
