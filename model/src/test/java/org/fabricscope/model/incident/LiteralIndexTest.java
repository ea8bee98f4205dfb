package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class LiteralIndexTest {
    /** One buffer for all of a test's texts, as a Matcher keeps one for all the lines it is given. */
    private final LiteralIndex.Bytes buffer = new LiteralIndex.Bytes();

    private Set<Integer> find(LiteralIndex index, CharSequence text) {
        boolean[] hit = new boolean[index.size()];
        int[] found = new int[index.size()];
        int n = index.find(text, hit, found, buffer);
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            out.add(found[i]);
        }
        return out;
    }

    @Test
    void findsOverlappingAndNestedLiterals() {
        LiteralIndex index = new LiteralIndex(List.of("he", "she", "his", "hers", "out of memory", "é-literal"));
        assertEquals(Set.of(0, 1, 3), find(index, "ushers"));
        assertEquals(Set.of(4), find(index, "CUDA out of memory. Tried"));
        assertEquals(Set.of(5), find(index, "a é-literal"));
        assertEquals(Set.of(), find(index, "nothing to see"));
    }

    @Test
    void findsLiteralsThatOverlapOrShareAnAnchor() {
        // "NCCL WARN" and "WARN Call" overlap; the last three share their rarest 4-gram
        LiteralIndex index = new LiteralIndex(List.of("NCCL WARN", "WARN Call", "XID 79", "XID 79 GPU", "GPU XID 79"));
        assertEquals(Set.of(0, 1), find(index, "h:1:2 [0] NCCL WARN Call to recv"));
        assertEquals(Set.of(2, 3), find(index, "NVRM: XID 79 GPU has fallen off the bus"));
        assertEquals(Set.of(2, 4), find(index, "GPU XID 79"));
        assertEquals(Set.of(), find(index, "NCCL WAR"));
    }

    @Test
    void findsALiteralAtEitherEndOfTheText() {
        LiteralIndex index = new LiteralIndex(List.of("out of memory", "Abort", "RAS "));
        assertEquals(Set.of(0), find(index, "CUDA out of memory"));
        assertEquals(Set.of(0), find(index, "out of memory"));
        assertEquals(Set.of(1), find(index, "Abort"));
        assertEquals(Set.of(2), find(index, "RAS "));
        assertEquals(Set.of(), find(index, "RAS"));
        assertEquals(Set.of(), find(index, "out of memor"));
        assertEquals(Set.of(), find(index, ""));
    }

    @Test
    void nonAsciiTextNeitherHidesNorFakesALiteral() {
        // characters past Latin-1 share their low byte with ASCII ones ('\u0169' & 0xFF is 'i'): the filter
        // may pass them, the comparison in place must not
        LiteralIndex index = new LiteralIndex(List.of("ibv_poll_cq", "Fehler: Zeitüberschreitung", "\u2026 failed"));
        assertEquals(Set.of(), find(index, "\u0169bv_poll_cq"));
        assertEquals(Set.of(0), find(index, "\u00e9\u4e2d\u6587 ibv_poll_cq \ud83d\ude00"));
        assertEquals(Set.of(1), find(index, "NCCL WARN Fehler: Zeitüberschreitung"));
        assertEquals(Set.of(2), find(index, "connect\u2026 failed"));
        assertEquals(Set.of(), find(index, "connect... failed"));
        assertEquals(Set.of(), find(index, "\ufffd\ufffd\ufffd\ufffd"));
    }

    @Test
    void aCarriageReturnIsAnOrdinaryCharacter() {
        // the readers cut CRLF off; a CR left in a text (a CR-only file read as one line) neither joins
        // nor splits a literal
        LiteralIndex index = new LiteralIndex(List.of("Connection reset", "reset by peer"));
        assertEquals(Set.of(0, 1), find(index, "Connection reset by peer\r"));
        assertEquals(Set.of(), find(index, "Connection\rreset by\r\npeer"));
        assertEquals(Set.of(0), find(index, "a\rConnection reset\r"));
    }

    @Test
    void agreesWithIndexOfOnRandomTexts() {
        agreesWithContainsOnRandomTexts(new Random(7), ABC, 60, 5, 2000, 40);
    }

    @Test
    void agreesWithIndexOfOnRandomTextsOfLatinAndWiderCharacters() {
        // 'a', its Latin-1 neighbour, a character whose low byte is 'a' (U+0161), CR and LF
        char[] alphabet = {'a', 'b', '\u00e3', '\u0161', '\r', '\n'};
        agreesWithContainsOnRandomTexts(new Random(11), alphabet, 80, 7, 3000, 60);
    }

    /** {@code count} literals of up to {@code longest} characters, then {@code texts} random texts of under {@code longer} characters. */
    private void agreesWithContainsOnRandomTexts(Random r, char[] alphabet, int count, int longest, int texts, int longer) {
        List<String> literals = literals(r, count, longest, alphabet);
        LiteralIndex index = new LiteralIndex(literals);
        for (int t = 0; t < texts; t++) {
            String text = random(r, r.nextInt(longer), alphabet);
            assertEquals(contained(literals, text), find(index, text), text);
        }
    }

    @Test
    void textsThatBeginAsTheOneBeforeAgreeWithIndexOf() {
        // log lines mostly begin as the line before: the anchors inside the shared beginning are carried
        // over, and must be looked at again in the new text (a literal that starts there may end past it),
        // including where a wider character has the same low byte as the one it replaces
        char[] alphabet = {'a', 'b', 'c', ' ', '\u0161', '\u00e3'};
        Random r = new Random(13);
        List<String> literals = literals(r, 120, 9, alphabet);
        LiteralIndex index = new LiteralIndex(literals);
        String text = random(r, 30, alphabet);
        for (int t = 0; t < 5000; t++) {
            // keep a beginning of the text before, then new characters; now and then the same text again
            int keep = r.nextInt(10) == 0 ? text.length() : r.nextInt(text.length() + 1);
            text = text.substring(0, keep) + random(r, r.nextInt(12), alphabet);
            if (text.isEmpty()) {
                text = random(r, 1 + r.nextInt(40), alphabet);
            }
            assertEquals(contained(literals, text), find(index, text), text);
        }
    }

    @Test
    void aBufferSharedByTwoIndexesCarriesNothingFromOneToTheOther() {
        LiteralIndex warn = new LiteralIndex(List.of("NCCL WARN", "WARN Call"));
        LiteralIndex oom = new LiteralIndex(List.of("CUDA out of memory", "NCCL INFO"));
        String line = "h:1:2 [0] NCCL WARN Call to recv";
        assertEquals(Set.of(0, 1), find(warn, line));
        assertEquals(Set.of(), find(oom, line));
        assertEquals(Set.of(0, 1), find(warn, line));
        assertEquals(Set.of(1), find(oom, "h:1:2 [0] NCCL INFO CUDA out of memor"));
        assertEquals(Set.of(0, 1), find(oom, "h:1:2 [0] NCCL INFO CUDA out of memory"));
    }

    @Test
    void aCallThatThrewLeavesNothingForTheNextText() {
        // a text whose characters cannot all be read fails the call, after anchors were noted for the next text
        LiteralIndex index = new LiteralIndex(List.of("QXYZ", "KLMN"));
        String body = ".".repeat(48) + "QXYZ";
        CharSequence failing = new CharSequence() {
            private int reads;

            @Override
            public int length() {
                return body.length();
            }

            @Override
            public char charAt(int i) {
                if (++reads > body.length()) { // the copy reads each once; the comparison in place fails
                    throw new IllegalStateException("unreadable");
                }
                return body.charAt(i);
            }

            @Override
            public CharSequence subSequence(int from, int to) {
                return body.subSequence(from, to);
            }
        };
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> find(index, failing));
        for (int i = 0; i < 3; i++) {
            assertEquals(Set.of(1), find(index, "KLMN."));
        }
    }

    @Test
    void oneBufferServesLongAndShortTextsAndAnyCharSequence() {
        // the Matcher's buffer is reused line after line: a short text after a long one must not see the
        // long one's bytes past its end, and a text longer than the buffer grows it
        LiteralIndex index = new LiteralIndex(List.of("NCCL WARN", "out of memory", "RAS "));
        String pad = "x".repeat(5000);
        String[] texts = {pad + " NCCL WARN at the end", "NCCL WA", "RN", pad + "out of memory" + pad, "RAS", "RAS ",
            "out of memor", ""};
        List<Set<Integer>> expected = List.of(Set.of(0), Set.of(), Set.of(), Set.of(1), Set.of(), Set.of(2), Set.of(),
            Set.of());
        for (int round = 0; round < 2; round++) {
            for (int t = 0; t < texts.length; t++) {
                CharSequence text = round == 0 ? texts[t] : new StringBuilder(texts[t]);
                assertEquals(expected.get(t), find(index, text), texts[t].length() > 100 ? "a long text" : texts[t]);
            }
        }
    }

    /** {@code count} random literals of 1 to {@code longest} characters of the alphabet. */
    private static List<String> literals(Random r, int count, int longest, char[] alphabet) {
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            literals.add(random(r, 1 + r.nextInt(longest), alphabet));
        }
        return literals;
    }

    /** The literals the text holds, by {@link String#contains}: what the index must find. */
    private static Set<Integer> contained(List<String> literals, String text) {
        Set<Integer> expected = new TreeSet<>();
        for (int i = 0; i < literals.size(); i++) {
            if (text.contains(literals.get(i))) {
                expected.add(i);
            }
        }
        return expected;
    }

    private static String random(Random r, int n, char[] alphabet) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(alphabet[r.nextInt(alphabet.length)]);
        }
        return b.toString();
    }

    private static final char[] ABC = {'a', 'b', 'c'};
}
