package org.fabricscope.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Hostile inputs, continued: real bundles that were rejected, and archive members of every odd kind. */
class HostileBundlesTest extends HostileInputSupport {
    // ---------------------------------------------------------------- real bundles rejected

    @Nested
    class Bundles {
        static final String LONG_DIR = "capture-2026-11-23/rail-2su-hdr/host-group-07/very-long-folder-name-for-gnu-tar-long-names/";

        /** The fixtures were made with GNU tar 1.34: --format=gnu, --format=pax, --format=gnu -S (see the README beside them). */
        Path fixture(String name) throws IOException {
            try (var in = HostileBundlesTest.class.getResourceAsStream("/bundles/" + name)) {
                assertNotNull(in, name);
                return write(name, in.readAllBytes());
            }
        }

        @Test
        void gnuLongNamesAndPaxHeadersAreRead() throws IOException {
            for (String name : new String[] {"gnu-long-name.tar.gz", "pax-long-name.tar.gz"}) {
                Path p = fixture(name);
                ImportResult r = importPaths(p);
                assertEquals(List.of(), problems(r.model(), p.toString()), TestSupport.dump(r.model().diagnostics()));
                String entry = p + "!/" + LONG_DIR + "ibnetdiscover.txt";
                assertTrue(entry.length() - p.toString().length() > 100);
                assertEquals("ibnetdiscover", r.formats().get(entry), r.formats().toString());
                assertEquals(4, r.model().cables().size());
            }
        }

        @Test
        void sparseEntriesAreRefusedAndTheRestRead() throws IOException {
            Path p = fixture("gnu-sparse.tar.gz");
            ImportResult r = importPaths(p);
            Diagnostic d = only(r.model(), p);
            assertEquals(p + "!/sparse.bin", d.source());
            assertMentions(d, "sparse file");
            assertEquals(4, r.model().cables().size(), "the topology after it is read");
        }

        @Test
        void realGnuTarWhenInstalled() throws Exception {
            Path src = dir.resolve("src");
            write("src/" + LONG_DIR + "ibnetdiscover.txt", MalformedInputTest.TOPO);
            for (String format : new String[] {"gnu", "pax", "ustar"}) {
                Path out = dir.resolve(format + ".tar.gz");
                Process tar;
                try {
                    tar = new ProcessBuilder("tar", "--format=" + format, "-czf", out.toString(), "-C", src.toString(), ".")
                            .redirectErrorStream(true).start();
                } catch (IOException e) {
                    org.junit.jupiter.api.Assumptions.assumeTrue(false, "no tar on this machine");
                    return;
                }
                String said = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tar.waitFor() != 0) {
                    assertEquals("ustar", format, "tar --format=" + format + " failed: " + said);
                    assertTrue(said.contains("too long") || said.contains("name"), said); // ustar cannot hold the name
                    continue;
                }
                ImportResult r = importPaths(out);
                assertEquals(List.of(), problems(r.model(), out.toString()), format);
                assertEquals(4, r.model().cables().size(), format);
            }
        }

        @Test
        @org.junit.jupiter.api.Timeout(30)
        void aNamedPipeIsRefusedNotWaitedOn() throws Exception {
            Path fifo = dir.resolve("counters.fifo");
            Process mk;
            try {
                mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            } catch (IOException e) {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, "no mkfifo on this machine");
                return;
            }
            assertEquals(0, mk.waitFor());
            Path good = write("topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(fifo, good);
            Diagnostic d = only(r.model(), fifo);
            assertEquals(Severity.ERROR, d.severity());
            assertMentions(d, "named pipe", "not read");
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        @Test
        void anEntryThatExpandsTooMuchIsSkippedByItself() throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(bos, 1 << 16)) {
                byte[] noise = new byte[2 << 20];
                new Random(3).nextBytes(noise);
                tarEntry(gz, "a-noise.bin", noise); // incompressible: the whole archive's ratio stays low
                tarEntry(gz, "b-zeros.txt", new byte[24 << 20]);
                tarEntry(gz, "c-topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8));
                gz.write(new byte[1024]);
            }
            Path p = write("bomb.tar.gz", bos.toByteArray());
            ImportResult r = importPaths(p);
            List<Diagnostic> errors = problems(r.model(), p + "!/b-zeros.txt");
            assertEquals(1, errors.size(), TestSupport.dump(r.model().diagnostics()));
            assertMentions(errors.get(0), "expands more than " + BundleReader.MAX_RATIO + " times", "per-entry limit",
                    "archive bomb");
            assertEquals(4, r.model().cables().size(), "the entry after the bomb is read");
        }

        static byte[] xz(byte[] data) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (org.tukaani.xz.XZOutputStream xz = new org.tukaani.xz.XZOutputStream(bos, new org.tukaani.xz.LZMA2Options(1))) {
                xz.write(data);
            }
            return bos.toByteArray();
        }

        static byte[] tar(Object... nameAndData) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            for (int i = 0; i < nameAndData.length; i += 2) {
                tarEntry(bos, (String) nameAndData[i], (byte[]) nameAndData[i + 1]);
            }
            bos.write(new byte[1024]);
            return bos.toByteArray();
        }

        @Test
        void tarXzAndXzAreRead() throws IOException {
            byte[] topo = MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8);
            Path txz = write("bundle.tar.xz", xz(tar("capture/ibnetdiscover.txt", topo)));
            ImportResult r = importPaths(txz);
            assertEquals(List.of(), problems(r.model(), txz.toString()), TestSupport.dump(r.model().diagnostics()));
            assertEquals("ibnetdiscover", r.formats().get(txz + "!/capture/ibnetdiscover.txt"), r.formats().toString());
            assertEquals(4, r.model().cables().size());

            Path one = write("ibnetdiscover.txt.xz", xz(topo));
            ImportResult single = importPaths(one);
            assertEquals("ibnetdiscover", single.formats().get(dir.resolve("ibnetdiscover.txt").toString()),
                    single.formats().toString());
            assertEquals(4, single.model().cables().size());
        }

        @Test
        void anXzEntryThatExpandsTooMuchIsSkippedByItself() throws IOException {
            byte[] noise = new byte[2 << 20];
            new Random(5).nextBytes(noise);
            Path p = write("bomb.tar.xz", xz(tar("a-noise.bin", noise, "b-zeros.txt", new byte[24 << 20],
                    "c-topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8))));
            ImportResult r = importPaths(p);
            List<Diagnostic> errors = problems(r.model(), p + "!/b-zeros.txt");
            assertEquals(1, errors.size(), TestSupport.dump(r.model().diagnostics()));
            assertMentions(errors.get(0), "expands more than " + BundleReader.MAX_RATIO + " times", "archive bomb");
            assertEquals(4, r.model().cables().size(), "the entry after the bomb is read");
        }

        @Test
        void anXzStreamAskingForAHugeDictionaryIsRefusedNotAllocated() throws IOException {
            byte[] b = xz(tar("topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8)));
            // The block header follows the 12-byte stream header: size, flags, LZMA2 filter id 0x21, one
            // property byte (the dictionary size), padding, CRC32. Ask for a 1 GiB dictionary (code 36).
            int start = 12;
            int size = ((b[start] & 0xff) + 1) * 4;
            assertEquals(0x21, b[start + 2], "LZMA2 filter");
            b[start + 4] = 36;
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(b, start, size - 4);
            long c = crc.getValue();
            for (int i = 0; i < 4; i++) {
                b[start + size - 4 + i] = (byte) (c >>> (8 * i));
            }
            Path p = write("huge-dict.tar.xz", b);
            Path good = write("good/topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(p, good);
            Diagnostic d = only(r.model(), p);
            assertMentions(d, "xz archive needs 1024 MiB", "more than the 128 MiB allowed");
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        @Test
        void aDamagedXzIsOneDiagnostic() throws IOException {
            byte[] b = xz(tar("topo.txt", MalformedInputTest.TOPO.getBytes(StandardCharsets.UTF_8)));
            for (int i = 40; i < b.length - 40; i += 7) {
                b[i] ^= 0x5a;
            }
            Path p = write("damaged.tar.xz", b);
            Path good = write("good/topo.txt", MalformedInputTest.TOPO);
            ImportResult r = importPaths(p, good);
            assertTrue(problems(r.model(), p).stream().anyMatch(d -> d.message().contains("damaged")),
                    TestSupport.dump(r.model().diagnostics()));
            assertEquals(4, r.model().cables().size(), "the file beside it is read");
        }

        /** One ustar entry: header, data, padding. */
        static void tarEntry(OutputStream out, String name, byte[] data) throws IOException {
            byte[] h = new byte[512];
            put(h, 0, name);
            put(h, 100, "0000644");
            put(h, 108, "0000000");
            put(h, 116, "0000000");
            put(h, 124, String.format("%011o", data.length));
            put(h, 136, "00000000000");
            h[156] = '0';
            put(h, 257, "ustar");
            h[262] = 0;
            put(h, 263, "00");
            for (int i = 148; i < 156; i++) {
                h[i] = ' ';
            }
            long sum = 0;
            for (byte b : h) {
                sum += b & 0xff;
            }
            put(h, 148, String.format("%06o", sum));
            h[154] = 0;
            out.write(h);
            out.write(data);
            out.write(new byte[(512 - data.length % 512) % 512]);
        }

        static void put(byte[] h, int off, String s) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(b, 0, h, off, b.length);
        }
    }
}
