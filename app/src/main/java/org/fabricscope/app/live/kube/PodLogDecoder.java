package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Turns the bytes of one followed log stream ({@code GET .../pods/P/log?follow=true&timestamps=true})
 * into {@link LogLine}s, across reconnects, so that no line is lost or delivered twice.
 *
 * <p>Each line the kubelet serves starts with its RFC3339Nano timestamp and a space
 * ({@code 2026-11-22T03:04:05.123456789Z text}). A line counts only once its {@code '\n'} has arrived;
 * the bytes of a line cut off by a disconnect are thrown away and come again after the resume.
 *
 * <p>Resume: the API's {@code sinceTime} has second precision, so a reconnect asks for lines from
 * {@code S} = the newest delivered timestamp truncated to the second, and the server replays every line
 * stamped {@code >= S} in log order. The decoder counts the delivered lines stamped {@code >= S}; the
 * delivered lines form a prefix of the log, so exactly that many lines at the head of the replay are
 * the ones already delivered, and they are dropped. This is exact when several lines share a
 * timestamp, and also when stdout and stderr lines are slightly out of timestamp order. As a guard
 * against a log that changed under us (rotation), a replayed line stamped later than anything
 * delivered ends the skipping at once: it cannot have been delivered.
 *
 * <p>Not thread-safe: one instance per stream, fed by one thread at a time.
 */
final class PodLogDecoder {
    /** Longest line kept, in bytes; the rest of a longer line is dropped. The kubelet itself splits at 16 KB. */
    static final int MAX_LINE = 64 * 1024;
    static final long NONE = Long.MIN_VALUE;
    private static final long NANOS = 1_000_000_000L;

    private final String pod;
    private final String container;

    private byte[] buf = new byte[4096];
    private int len;
    /** Length of the current line so far when it is longer than MAX_LINE (its tail is being dropped). */
    private boolean overlong;

    private long seq;
    /** Newest timestamp delivered, or NONE. */
    private long newest = NONE;
    /** Delivered lines stamped at or after the second of {@code newest} (all delivered lines while newest is NONE). */
    private long sinceSecondCount;
    /** Lines still to drop at the head of the current replay. */
    private long skip;
    private long replayed;

    PodLogDecoder(String pod, String container) {
        this.pod = pod;
        this.container = container;
    }

    /**
     * Prepares for a new connection: drops any partial line and arms the replay filter. Returns the
     * {@code sinceTime} to ask for, in epoch seconds, or {@link #NONE} for the whole log.
     */
    long reconnect() {
        len = 0;
        overlong = false;
        skip = sinceSecondCount;
        return newest == NONE ? NONE : Math.floorDiv(newest, NANOS);
    }

    /** Lines dropped as replays so far, over all reconnects. */
    long replayed() {
        return replayed;
    }

    /** Lines delivered so far. */
    long delivered() {
        return seq;
    }

    /** Bytes of an incomplete last line held back. */
    int pending() {
        return len;
    }

    /** Appends bytes and adds each new complete line to {@code out}. */
    void feed(ByteBuffer bytes, List<LogLine> out) {
        while (bytes.hasRemaining()) {
            int n = bytes.remaining();
            ensure(len + Math.min(n, MAX_LINE + 1));
            int take = Math.min(n, buf.length - len);
            bytes.get(buf, len, take);
            int start = 0;
            int scanFrom = len;
            len += take;
            for (int i = scanFrom; i < len; i++) {
                if (buf[i] == '\n') {
                    if (!overlong) {
                        emit(start, i, out);
                    } else {
                        overlong = false;
                    }
                    start = i + 1;
                }
            }
            int rest = len - start;
            if (start > 0 && rest > 0) {
                System.arraycopy(buf, start, buf, 0, rest);
            }
            len = rest;
            if (len > MAX_LINE && !overlong) {
                // keep the first MAX_LINE bytes as the line; drop the rest up to its newline
                emit(0, MAX_LINE, out);
                overlong = true;
                len = 0;
            } else if (overlong) {
                len = 0;
            }
        }
    }

    private void ensure(int capacity) {
        if (capacity > buf.length) {
            byte[] b = new byte[Math.max(capacity, Math.min(buf.length * 2, MAX_LINE + 4096))];
            System.arraycopy(buf, 0, b, 0, len);
            buf = b;
        }
    }

    private void emit(int from, int to, List<LogLine> out) {
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        int sp = -1;
        for (int i = from; i < Math.min(to, from + 40); i++) {
            if (buf[i] == ' ') {
                sp = i;
                break;
            }
        }
        long ts = sp > 0 ? parseTimestamp(buf, from, sp) : NONE;
        int textFrom = ts == NONE ? from : sp + 1;
        if (ts == NONE) {
            ts = newest;   // a line without a readable stamp belongs with the one before it
        }
        if (skip > 0) {
            if (ts == NONE || ts <= newest) {
                skip--;
                replayed++;
                return;
            }
            skip = 0;
        }
        if (ts != NONE) {
            if (newest == NONE || ts > newest) {
                if (newest == NONE || Math.floorDiv(ts, NANOS) != Math.floorDiv(newest, NANOS)) {
                    sinceSecondCount = 0;
                }
                newest = ts;
            }
            if (Math.floorDiv(ts, NANOS) == Math.floorDiv(newest, NANOS)) {
                sinceSecondCount++;
            }
        } else {
            sinceSecondCount++;
        }
        String text = new String(buf, textFrom, to - textFrom, StandardCharsets.UTF_8);
        out.add(new LogLine(pod, container, ts == NONE ? 0 : ts, text, seq++));
    }

    /**
     * Parses an RFC 3339 timestamp ({@code 2026-11-22T03:04:05.123456789Z}, fraction of 0-9 digits,
     * {@code Z} or a numeric offset) to epoch nanoseconds, or {@link #NONE} if it is not one.
     */
    static long parseTimestamp(byte[] b, int from, int to) {
        int n = to - from;
        if (n < 20 || b[from + 4] != '-' || b[from + 7] != '-' || (b[from + 10] != 'T' && b[from + 10] != 't')
                || b[from + 13] != ':' || b[from + 16] != ':') {
            return NONE;
        }
        int year = digits(b, from, 4);
        int month = digits(b, from + 5, 2);
        int day = digits(b, from + 8, 2);
        int hour = digits(b, from + 11, 2);
        int minute = digits(b, from + 14, 2);
        int second = digits(b, from + 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0
                || minute > 59 || second < 0 || second > 60) {
            return NONE;
        }
        int i = from + 19;
        long nanos = 0;
        if (b[i] == '.') {
            i++;
            int digitsRead = 0;
            while (i < to && b[i] >= '0' && b[i] <= '9') {
                if (digitsRead < 9) {
                    nanos = nanos * 10 + (b[i] - '0');
                    digitsRead++;
                }
                i++;
            }
            if (digitsRead == 0) {
                return NONE;
            }
            for (int k = digitsRead; k < 9; k++) {
                nanos *= 10;
            }
        }
        if (i == to - 1 && (b[i] == 'Z' || b[i] == 'z')) {
            long days = daysFromCivil(year, month, day);
            return ((days * 86400 + hour * 3600L + minute * 60L + second) * NANOS) + nanos;
        }
        try {   // numeric offset: rare in kubelet output, take the slow path
            OffsetDateTime t = OffsetDateTime.parse(new String(b, from, n, StandardCharsets.US_ASCII));
            return t.toEpochSecond() * NANOS + t.getNano();
        } catch (DateTimeParseException e) {
            return NONE;
        }
    }

    private static int digits(byte[] b, int at, int count) {
        int v = 0;
        for (int k = 0; k < count; k++) {
            int d = b[at + k] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    private static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }
}
