package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** {@link LogDecoration} ends where the regular expression it replaced ends, on every kind of line and its near misses. */
class LogDecorationTest {
    /** The parser's expression before {@link LogDecoration}: the reference. */
    private static final Pattern DECORATION = Pattern.compile(
            "^(?:\\[pod/[^\\] ]+\\] )?"
                    + "(?:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d) (?:std(?:out|err) [FP] )?)?"
                    + "(?:\\w{3} \\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d \\d{4})?"
                    + "(?:\\[\\d+,\\d+\\]<std(?:out|err)>:)?"
                    + "(?:\\[\\d+\\] )?"
                    + "(?:(?=[A-Za-z.]{0,62}[0-9-])[A-Za-z0-9](?:[A-Za-z0-9.-]{0,61}[A-Za-z0-9])?: )?"
                    + "(?:\\[(?!rank\\d+\\]:)[^\\x00-\\x20\\[\\]]{1,63}\\]:(?=[\\x00-\\x20]*[^\\x00-\\x20]))?"
                    + "(?:\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\] )?");

    private static final List<String> PARTS = List.of(
            "[pod/trainer-worker-0/pytorch] ", "[pod/a] ", "[pod/x y] ", "[pod/] ", "[pod/abc]",
            "2026-11-28T13:00:00.123456789Z ", "2026-11-28T13:00:00Z ", "2026-11-28T13:00:00+05:30 ",
            "2026-11-28T13:00:00-0800 ", "stdout F ", "stderr P ", "stdout X ", "stdin F ", "stderr F", "2026-11-28T13:00:00.Z ", "2026-11-28T13:00:00.5+05:3 ", "2026-11-28 13:00:00Z ",
            "Sat Nov 28 13:00:00 2026", "Sat Nov  8 13:00:00 2026", "Mon Jan 1 01:02:03 1999", "Sat Nov 28 13:00:00 202",
            "[1,0]<stdout>:", "[12,345]<stderr>:", "[1,0]<stdin>:", "[1,]<stdout>:",
            "[0] ", "[17] ", "[] ", "[3]",
            "0: ", "03: ", "12:", ": ", "[default0]:", "[trainer12]:", "[rank3]:", "[rank]:", "[default]:", "[0]:",
            "[d-x.y_1]:", "[a1]", "worker-3: ", "node01: ", "localhost: ", "RuntimeError: ", "a-: ", "-a: ", "gpu.a100-3: ",
            "torch.distributed.DistBackendError: ", "x2:", "GPU-07: ", "[trainer3|1]:", "[3]:", "[\u00e9]:", "[a\tb]:", "\t", "\u0001", "[default0-abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvwxyz-0123456789]:",
            "[2026-11-28 13:00:00] ", "[2026-11-28T13:00:00] ",
            "job-worker-0:1000:1000 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM", "NCCL WARN x", "",
            " ", "[", "2026", "Sat", "\u0661\u0662", "\uD83D\uDE00");

    private static final String PUNCTUATION = " :-.+Z]T[a_,<";

    @Test
    void endsWhereTheExpressionEnds() {
        Random random = new Random(12);
        for (int n = 0; n < 300_000; n++) {
            StringBuilder line = new StringBuilder();
            for (int k = random.nextInt(5); k >= 0; k--) {
                line.append(PARTS.get(random.nextInt(PARTS.size())));
            }
            String s = mutate(line.toString(), random);
            assertEquals(reference(s), LogDecoration.end(s), () -> "\"" + s + "\"");
        }
    }

    @Test
    void takesEachKindOfDecoration() {
        assertEquals(0, LogDecoration.end("host:1:1 [0] NCCL INFO x"));
        for (String d : List.of("[pod/w-0/c] ", "2026-11-28T13:00:00.123Z ", "Sat Nov 28 13:00:00 2026", "[1,0]<stdout>:",
                "[3] ", "[2026-11-28 13:00:00] ", "[pod/w-0/c] 2026-11-28T13:00:00+01:00 [1,0]<stderr>:[3] ", "7: ",
                "015: ", "[default3]:", "[trainer-a.b_2]:", "[trainer3|1]:", "12: [default1]:", "worker-3: ", "2026-11-28T13:00:00.123456789+00:00 stdout F ",
                "2026-11-28T13:00:00Z stderr P [default0]:", "node01: [default0]:", "[default0]:[2026-11-28 13:00:00] ")) {
            assertEquals(d.length(), LogDecoration.end(d + "host:1:1 [0] NCCL INFO x"), d);
        }
        assertTrue(LogDecoration.end("2026-11-28T13:00:00 host:1:1") == 0, "a time without a zone is not kubectl's");
        assertEquals(0, LogDecoration.end("[rank3]:[E1126 15:47:42.790211 812 file.cpp:12] x"),
                "PyTorch's own rank tag is left to the PyTorch lines");
        assertEquals(0, LogDecoration.end("[0]:"), "torchrun's failure summary entry is not a worker prefix");
        for (String message : List.of("RuntimeError: x", "torch.distributed.DistBackendError: NCCL error", "localhost: x")) {
            assertEquals(0, LogDecoration.end(message), message);
        }
    }

    private static int reference(String s) {
        Matcher m = DECORATION.matcher(s);
        return m.lookingAt() ? m.end() : 0;
    }

    /** The line, or a near miss of it: a character dropped, doubled or replaced by a digit, a letter or punctuation. */
    private static String mutate(String s, Random random) {
        if (s.isEmpty() || random.nextInt(3) == 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s);
        for (int k = random.nextInt(3); k >= 0 && b.length() > 0; k--) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(4)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, b.charAt(at));
                case 2 -> b.setCharAt(at, (char) ('0' + random.nextInt(10)));
                default -> b.setCharAt(at, PUNCTUATION.charAt(random.nextInt(PUNCTUATION.length())));
            }
        }
        return b.toString();
    }
}
