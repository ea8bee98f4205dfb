package org.fabricscope.importers.lldp;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ip-link and sonic-config-db files past their 64 MiB limit: not read, the diagnostic naming the limit (generated, never committed). */
class RoceFileSizeLimitTest {
    /** {@code head}, then spaces up to {@code size} bytes, made as it is read. */
    private static InputStream padded(String head, long size) {
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            long pos;

            @Override
            public int read() {
                if (pos >= size) {
                    return -1;
                }
                return pos < h.length ? h[(int) pos++] : (pos++ == size - 1 ? '\n' : ' ');
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= size) {
                    return -1;
                }
                int n = (int) Math.min(len, size - pos);
                for (int i = 0; i < n; i++) {
                    b[off + i] = (byte) read();
                }
                return n;
            }
        };
    }

    private static List<Diagnostic> importOne(String name, String head, long size) {
        ImportSource s = new ImportSource(name, size, () -> padded(head, size));
        ImportResult r = new FabricImporter().importSources(List.of(s), new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
        return r.model().diagnostics().stream().filter(d -> d.severity() != Severity.INFO).toList();
    }

    @Test
    void readAllStopsPastItsLimit() throws IOException {
        byte[] ten = "0123456789".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(ten, IpLinkReader.readAll(new ByteArrayInputStream(ten), 10));
        assertNull(IpLinkReader.readAll(new ByteArrayInputStream(ten), 9));
    }

    @Test
    void readLinesSplitsAsSplitDidAndStopsPastItsLimit() throws IOException {
        String[] texts = {"", "\n", "a", "a\n", "a\r\nb\r\n", "a\rb\nc", "\n\n x \n", "caf\u00e9 \u2014 ok\r\n",
            "x".repeat(40_000) + "\r\n" + "y".repeat(40_000)};
        for (String t : texts) {
            byte[] b = t.getBytes(StandardCharsets.UTF_8);
            assertEquals(List.of(t.split("\r?\n", -1)), IpLinkReader.readLines(new ByteArrayInputStream(b), b.length),
                    "as split splits " + t.length() + " chars");
        }
        byte[] bad = {'a', (byte) 0xC3, '\n', (byte) 0xFF, 'b'};
        assertEquals(List.of(new String(bad, StandardCharsets.UTF_8).split("\r?\n", -1)),
                IpLinkReader.readLines(new ByteArrayInputStream(bad), bad.length), "malformed bytes replaced as before");
        byte[] ten = "0123\n56789".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of("0123", "56789"), IpLinkReader.readLines(new ByteArrayInputStream(ten), 10));
        assertNull(IpLinkReader.readLines(new ByteArrayInputStream(ten), 9));
        boolean[] closed = {false};
        IpLinkReader.readLines(new ByteArrayInputStream(ten) {
            @Override
            public void close() {
                closed[0] = true;
            }
        }, 10);
        assertTrue(!closed[0], "the caller's stream is left open");
    }

    @Test
    void overlargeFilesAreNotReadAndTheLimitIsNamed() {
        List<Diagnostic> ip = importOne("gpu-node-01/ip.json", "[{\"ifindex\": 1, \"ifname\": \"lo\", \"mtu\": 65536}]\n",
                IpLinkReader.MAX_BYTES + 1);
        assertEquals(1, ip.size(), ip.toString());
        assertTrue(ip.get(0).message().contains("IpLinkReader.MAX_BYTES") && ip.get(0).source().equals("gpu-node-01/ip.json"), ip.toString());
        List<Diagnostic> cfg = importOne("leaf-01/config_db.json", "{\n    \"DEVICE_METADATA\": {\"localhost\": {\"hostname\": \"leaf-01\"}},\n",
                SonicConfigDbReader.MAX_BYTES + 1);
        assertEquals(1, cfg.size(), cfg.toString());
        assertTrue(cfg.get(0).message().contains("SonicConfigDbReader.MAX_BYTES"), cfg.toString());
    }
}
