package org.fabricscope.app.live.kube;

import org.fabricscope.app.live.source.LogLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Line splitting, kubelet timestamps and the resume filter of one stream, without HTTP. */
class PodLogDecoderTest {

    private static List<LogLine> feed(PodLogDecoder d, String text, int chunk) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        List<LogLine> out = new ArrayList<>();
        for (int i = 0; i < b.length; i += chunk) {
            d.feed(ByteBuffer.wrap(b, i, Math.min(chunk, b.length - i)), out);
        }
        return out;
    }

    private static List<String> texts(List<LogLine> l) {
        return l.stream().map(LogLine::text).toList();
    }

    private static long nanos(String rfc3339) {
        Instant t = Instant.parse(rfc3339);
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Test
    void linesSplitAtAnyByteBoundaryAndPartialLinesWait() {
        String log = "2026-11-22T03:04:05.123456789Z héllo\r\n2026-11-22T03:04:05.2Z world\n2026-11-22T03:04:06Z tail-no-newline";
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            PodLogDecoder d = new PodLogDecoder("p", "c");
            List<LogLine> got = feed(d, log, chunk);
            assertEquals(List.of("héllo", "world"), texts(got), "chunk " + chunk);
            assertEquals(nanos("2026-11-22T03:04:05.123456789Z"), got.get(0).epochNanos());
            assertEquals(nanos("2026-11-22T03:04:05.200Z"), got.get(1).epochNanos());
            assertEquals(List.of(0L, 1L), got.stream().map(LogLine::seq).toList());
            assertEquals("tail-no-newline".length() + 21, d.pending(), "the partial line is held, not delivered");
        }
    }

    @Test
    void timestampsOfEveryRfc3339Shape() {
        String[] shapes = {"2026-11-22T03:04:05Z", "2026-11-22T03:04:05.1Z", "2026-11-22T03:04:05.000001Z",
            "2024-02-29T23:59:59.999999999Z", "1999-12-31T00:00:00.5Z", "2026-11-22T04:04:05.25+01:00"};
        for (String s : shapes) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            Instant want = java.time.OffsetDateTime.parse(s).toInstant();
            assertEquals(want.getEpochSecond() * 1_000_000_000L + want.getNano(), PodLogDecoder.parseTimestamp(b, 0, b.length), s);
        }
        for (String bad : new String[] {"hello", "2026-11-22 03:04:05Z", "2026-13-22T03:04:05Z", "2026-11-22T03:04:05.Z"}) {
            byte[] b = bad.getBytes(StandardCharsets.US_ASCII);
            assertEquals(PodLogDecoder.NONE, PodLogDecoder.parseTimestamp(b, 0, b.length), bad);
        }
    }

    @Test
    void lineWithoutStampIsKeptWhole() {
        PodLogDecoder d = new PodLogDecoder("p", "c");
        List<LogLine> got = feed(d, "2026-11-22T03:04:05Z a\nunexpected text\n", 5);
        assertEquals(List.of("a", "unexpected text"), texts(got));
        assertEquals(got.get(0).epochNanos(), got.get(1).epochNanos(), "takes the stamp of the line before");
    }

    /** The server's answer to sinceTime=S: every line stamped at or after S, in log order. */
    private static String replay(List<String[]> log, long sinceSecond) {
        StringBuilder b = new StringBuilder();
        for (String[] l : log) {
            if (Math.floorDiv(nanos(l[0]), 1_000_000_000L) >= sinceSecond) {
                b.append(l[0]).append(' ').append(l[1]).append('\n');
            }
        }
        return b.toString();
    }

    @Test
    void resumeDropsExactlyWhatWasDeliveredEvenWithSharedAndOutOfOrderStamps() {
        List<String[]> log = List.of(
                new String[] {"2026-11-22T03:04:04.9Z", "a"},
                new String[] {"2026-11-22T03:04:05.1Z", "b"},
                new String[] {"2026-11-22T03:04:05.1Z", "c"},       // same stamp as b
                new String[] {"2026-11-22T03:04:05.05Z", "d"},      // stderr line a little out of order
                new String[] {"2026-11-22T03:04:05.1Z", "e"},       // same stamp as b again
                new String[] {"2026-11-22T03:04:05.1Z", "e"},       // a repeated line, same stamp, same text
                new String[] {"2026-11-22T03:04:06.3Z", "f"});
        for (int delivered = 1; delivered < log.size(); delivered++) {
            PodLogDecoder d = new PodLogDecoder("p", "c");
            StringBuilder first = new StringBuilder();
            for (String[] l : log.subList(0, delivered)) {
                first.append(l[0]).append(' ').append(l[1]).append('\n');
            }
            first.append(log.get(delivered)[0]).append(" par");   // cut mid-line
            List<LogLine> got = new ArrayList<>(feed(d, first.toString(), 3));
            long since = d.reconnect();
            assertEquals(Math.floorDiv(got.stream().mapToLong(LogLine::epochNanos).max().orElseThrow(), 1_000_000_000L), since);
            got.addAll(feed(d, replay(log, since), 4));
            assertEquals(log.stream().map(l -> l[1]).toList(), texts(got), "cut after " + delivered + " lines");
            for (int i = 0; i < got.size(); i++) {
                assertEquals(i, got.get(i).seq());
            }
        }
    }

    @Test
    void aReplayThatNoLongerHoldsTheDeliveredLinesLosesNothingNew() {
        // the log was rotated between the two connections: the replay starts with lines never seen
        PodLogDecoder d = new PodLogDecoder("p", "c");
        List<LogLine> got = new ArrayList<>(feed(d, "2026-11-22T03:04:05.1Z a\n2026-11-22T03:04:05.2Z b\n", 8));
        d.reconnect();
        got.addAll(feed(d, "2026-11-22T03:04:05.3Z c\n2026-11-22T03:04:05.4Z d\n", 8));
        assertEquals(List.of("a", "b", "c", "d"), texts(got));
    }

    @Test
    void repeatedReconnectsWithoutNewLinesDeliverNothingTwice() {
        PodLogDecoder d = new PodLogDecoder("p", "c");
        String log = "2026-11-22T03:04:05.1Z a\n2026-11-22T03:04:05.1Z b\n";
        List<LogLine> got = new ArrayList<>(feed(d, log, 100));
        for (int i = 0; i < 3; i++) {
            d.reconnect();
            got.addAll(feed(d, log, 5));
        }
        assertEquals(List.of("a", "b"), texts(got));
        assertEquals(6, d.replayed());
    }

    @Test
    void overlongLineIsCutAndTheNextLineSurvives() {
        PodLogDecoder d = new PodLogDecoder("p", "c");
        String big = "x".repeat(PodLogDecoder.MAX_LINE * 2);
        List<LogLine> got = feed(d, "2026-11-22T03:04:05Z " + big + "\n2026-11-22T03:04:06Z next\n", 1000);
        assertEquals(2, got.size());
        assertTrue(got.get(0).text().length() < PodLogDecoder.MAX_LINE && got.get(0).text().startsWith("xxx"));
        assertEquals("next", got.get(1).text());
    }
}
