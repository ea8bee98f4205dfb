package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Texts packed in a {@link LineStore} come back as they went in, and evidence that holds them is the same value. */
class LineStoreTest {
    @Test
    void everyTextComesBackTheSame() {
        LineStore store = new LineStore();
        String[] texts = {"", "h:1:2 [0] NCCL INFO Channel 02/1 : 0[1] -> 8[1] [send] via NET/IB/0(1)/GDRDMA",
            "Fehler: Zeitüberschreitung \u00ff\u00e9", "\u4e2d\u6587 \ud83d\ude00 emoji and CJK", "\u0000 a NUL and \r a CR",
            "\ufffd replacement"};
        List<Integer> handles = new ArrayList<>();
        for (String t : texts) {
            handles.add(store.add(t));
        }
        for (int i = 0; i < texts.length; i++) {
            assertTrue(handles.get(i) >= 0, texts[i]);
            assertEquals(texts[i], store.text(handles.get(i)));
        }
    }

    /**
     * Texts the caller says are ASCII (its reader saw the bytes) are packed without the check, between texts that are
     * not, and all come back the same, front-coded against each other either way.
     */
    @Test
    void asciiTextsSaidSoComeBackTheSame() {
        Random r = new Random(29);
        LineStore store = new LineStore();
        LineStore checked = new LineStore(); // the same texts, each looked at
        List<String> texts = new ArrayList<>();
        List<Integer> handles = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            boolean ascii = r.nextInt(4) != 0;
            StringBuilder b = new StringBuilder("job-worker-" + r.nextInt(3) + ":1000:1000 [0] NCCL INFO ");
            for (int k = r.nextInt(80); k > 0; k--) {
                boolean plain = ascii || r.nextInt(8) != 0;
                b.append(plain ? (char) (' ' + r.nextInt(95)) : r.nextBoolean() ? '\u00e9' : '\u4e2d');
            }
            String t = b.toString();
            texts.add(t);
            handles.add(store.add(t, ascii));
            assertEquals(handles.get(i), checked.add(t), "packed where the checked store packs it");
        }
        assertEquals(checked.bytes(), store.bytes(), "the same bytes kept");
        for (int i = 0; i < texts.size(); i++) {
            assertEquals(texts.get(i), store.text(handles.get(i)));
        }
    }

    @Test
    void aTextThatWouldNotComeBackIsNotTaken() {
        LineStore store = new LineStore();
        assertEquals(-1, store.add("a lone surrogate \ud800 here"), "UTF-8 would turn it into '?'");
        assertEquals(-1, store.add("x".repeat(LineStore.CHUNK)), "longer than the largest chunk");
        int h = store.add("still taken after");
        assertEquals("still taken after", store.text(h));
    }

    @Test
    void manyTextsAcrossGrowingChunks() {
        Random r = new Random(3);
        LineStore store = new LineStore();
        List<String> texts = new ArrayList<>();
        List<Integer> handles = new ArrayList<>();
        long chars = 0;
        while (chars < 5L * LineStore.CHUNK) { // past several full-size chunks
            int n = r.nextInt(10) == 0 ? 2000 + r.nextInt(60_000) : r.nextInt(200);
            StringBuilder b = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                int kind = r.nextInt(50);
                b.append(kind == 0 ? '\u00e9' : kind == 1 ? '\u4e2d' : (char) (' ' + r.nextInt(95)));
            }
            String t = b.toString();
            texts.add(t);
            handles.add(store.add(t));
            chars += n;
        }
        for (int i = 0; i < texts.size(); i++) {
            assertTrue(handles.get(i) >= 0);
            assertEquals(texts.get(i), store.text(handles.get(i)), "text " + i);
        }
        assertTrue(store.bytes() < 8L * LineStore.CHUNK, "chunks are filled, not one a text: " + store.bytes());
    }

    @Test
    void textsThatBeginAsTheOneBeforeComeBackTheSame() {
        // each text keeps a random beginning of the one before (past 255 bytes now and then, in either coding,
        // Latin-1 or UTF-8), across restarts and chunks; each is read back in a random order
        Random r = new Random(5);
        LineStore store = new LineStore();
        List<String> texts = new ArrayList<>();
        List<Integer> handles = new ArrayList<>();
        String text = "h:1:2 [0] NCCL INFO ";
        long bytes = 0;
        while (bytes < 3L * LineStore.CHUNK) {
            int keep = r.nextInt(8) == 0 ? text.length() : r.nextInt(text.length() + 1);
            StringBuilder b = new StringBuilder(text.substring(0, keep));
            int n = r.nextInt(20) == 0 ? 300 + r.nextInt(400) : r.nextInt(40);
            for (int i = 0; i < n; i++) {
                int kind = r.nextInt(60);
                b.append(kind == 0 ? '\u00e9' : kind == 1 ? '\u4e2d' : (char) (' ' + r.nextInt(95)));
            }
            text = b.length() > 2000 ? b.substring(b.length() - 2000) : b.toString();
            texts.add(text);
            handles.add(store.add(text));
            bytes += text.length();
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, r);
        for (int i : order) {
            assertTrue(handles.get(i) >= 0);
            assertEquals(texts.get(i), store.text(handles.get(i)), "text " + i);
        }
    }

    @Test
    void aBeginningSharedWithTheTextBeforeIsKeptOnce() {
        LineStore store = new LineStore();
        List<Integer> handles = new ArrayList<>();
        long chars = 0;
        for (int i = 0; i < 200_000; i++) { // enough that the last chunk's unused end does not count
            String t = "job-worker-" + (i / 400) + ":1000:1000 [0] NCCL INFO Channel " + (i % 24) + "/0 : 0[0] -> 1[1] via P2P/IPC";
            handles.add(store.add(t));
            chars += t.length();
        }
        // 45 to 48 of each text's 76 characters are the text before's: kept whole, it took more than the characters
        assertTrue(store.bytes() < chars * 6 / 10, store.bytes() + " bytes for " + chars + " characters");
        assertEquals("job-worker-48:1000:1000 [0] NCCL INFO Channel 15/0 : 0[0] -> 1[1] via P2P/IPC",
                store.text(handles.get(19_599)));
        assertEquals("job-worker-499:1000:1000 [0] NCCL INFO Channel 7/0 : 0[0] -> 1[1] via P2P/IPC",
                store.text(handles.get(199_999)));
    }

    @Test
    void aFewLinesDoNotCostAMegabyte() {
        LineStore store = new LineStore();
        store.add("one cited line");
        assertEquals(LineStore.FIRST, store.bytes());
    }

    @Test
    void packedEvidenceIsTheSameValueAsHeldEvidence() {
        LineStore store = new LineStore();
        Evidence held = Evidence.at("nccl.log", 7, "NCCL WARN Call to ibv_poll_cq failed");
        Evidence packed = Evidence.at("nccl.log", 7, "NCCL WARN Call to ibv_poll_cq failed", store);
        assertEquals(held, packed);
        assertEquals(packed, held);
        assertEquals(held.hashCode(), packed.hashCode());
        assertEquals(held.toString(), packed.toString());
        assertEquals("nccl.log:7", packed.where());
        assertEquals("file", packed.kind());
        assertNotEquals(held, Evidence.at("nccl.log", 8, "NCCL WARN Call to ibv_poll_cq failed", store));
        assertEquals("other", packed.withText("other").text());
        Evidence notTaken = Evidence.at("nccl.log", 9, "lone \udc00", store);
        assertEquals("lone \udc00", notTaken.text(), "held as it is when the store does not take it");
        assertEquals(Evidence.at(null, 0, null), Evidence.at(null, 0, null, store), "nulls read as empty, as before");
    }
}
