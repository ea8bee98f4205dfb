package org.fabricscope.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.TestSupport;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.host.HostTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Untrusted XML: each hostile or broken file gives a diagnostic with its file and line, reads
 * nothing a DTD names, never throws, and keeps what was read before the problem.
 */
class HostileXmlTest {
    @TempDir
    Path dir;

    static List<Diagnostic> problems(FabricModel m) {
        return TestSupport.atLeast(m, Severity.WARNING);
    }

    static Diagnostic firstError(FabricModel m, String source) {
        return m.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR && d.source().equals(source))
                .findFirst().orElseThrow(() -> new AssertionError(TestSupport.dump(m.diagnostics())));
    }

    @Test
    void externalEntityToAFileIsNotRead() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-CONTENT");
        String xxe = "<?xml version=\"1.0\"?>\n"
                + "<!DOCTYPE system [\n"
                + "  <!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">\n"
                + "]>\n"
                + "<system version=\"1\">\n"
                + "  <cpu numaid=\"0\" arch=\"&xxe;\"><pci busid=\"0000:01:00.0\" class=\"0x030200\" link_speed=\"&xxe;\" link_width=\"16\"/></cpu>\n"
                + "</system>\n";
        ImportResult r = NcclFiles.importTexts("xxe/topo.xml", xxe);
        assertEquals("nccl-topology", r.formats().get("xxe/topo.xml"));
        Diagnostic d = firstError(r.model(), "xxe/topo.xml");
        assertTrue(d.message().contains("DOCTYPE"), d.toString());
        assertTrue(d.line() >= 2 && d.line() <= 4, d.toString());
        assertTrue(r.model().hostTopologies().isEmpty(), "nothing after the DOCTYPE is read");
        assertFalse(r.model().diagnostics().toString().contains("TOP-SECRET"));
    }

    @Test
    void externalEntityInAnAttributeWithoutDoctypeIsAnError() {
        String text = "<system version=\"1\">\n  <cpu numaid=\"0\" arch=\"&xxe;\"/>\n</system>\n";
        ImportResult r = NcclFiles.importTexts("noent.xml", text);
        Diagnostic d = firstError(r.model(), "noent.xml");
        assertEquals(2, d.line(), d.toString());
    }

    @Test
    void billionLaughs() {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE system [\n <!ENTITY lol \"lol\">\n");
        for (int i = 1; i <= 9; i++) {
            sb.append(" <!ENTITY lol").append(i).append(" \"");
            for (int j = 0; j < 10; j++) {
                sb.append("&lol").append(i == 1 ? "" : String.valueOf(i - 1)).append(';');
            }
            sb.append("\">\n");
        }
        sb.append("]>\n<system version=\"1\"><cpu numaid=\"0\" arch=\"&lol9;\"/></system>\n");
        long before = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        ImportResult r = assertDoesNotThrow(() -> NcclFiles.importTexts("lol.xml", sb.toString()));
        Diagnostic d = firstError(r.model(), "lol.xml");
        assertTrue(d.message().contains("DOCTYPE"), d.toString());
        assertEquals(2, d.line(), d.toString());
        assertTrue(r.model().hostTopologies().isEmpty());
        long after = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        assertTrue(after - before < 512L * 1024 * 1024, "no expansion");
    }

    @Test
    void billionLaughsWithAnotherRootStillGetsTheDoctypeDiagnostic() {
        String text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;\">]>\n"
                + "<lolz>&lol2;</lolz>\n";
        ImportResult r = NcclFiles.importTexts("lolz.xml", text);
        assertTrue(firstError(r.model(), "lolz.xml").message().contains("DOCTYPE"));
    }

    @Test
    void hundredThousandDeepNesting() {
        int depth = 100_000;
        StringBuilder sb = new StringBuilder(depth * 40);
        sb.append("<system version=\"1\">\n<cpu numaid=\"0\">\n");
        sb.append("<pci busid=\"0000:01:00.0\" class=\"0x030200\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"/>\n");
        for (int i = 0; i < depth; i++) {
            sb.append("<pci busid=\"0000:").append(Integer.toHexString(0x10000 + i)).append(":00.0\" class=\"0x060400\">");
        }
        for (int i = 0; i < depth; i++) {
            sb.append("</pci>");
        }
        sb.append("\n</cpu>\n</system>\n");
        ImportResult r = assertDoesNotThrow(() -> NcclFiles.importTexts("deep.xml", sb.toString()));
        Diagnostic d = firstError(r.model(), "deep.xml");
        assertTrue(d.message().contains("deeper than 64"), d.toString());
        assertEquals(4, d.line());
        HostTopology t = r.model().hostTopologies().values().iterator().next();
        assertEquals(1, t.gpus().size(), "what was read before is kept");
    }

    @Test
    void truncatedFileKeepsWhatWasRead() {
        String oci = NcclFiles.text(NcclFiles.OCI);
        String cut = oci.substring(0, oci.indexOf("mlx5_9") - 20);
        ImportResult r = NcclFiles.importTexts("cut/topo.xml", cut);
        Diagnostic d = firstError(r.model(), "cut/topo.xml");
        assertTrue(d.message().contains("not well-formed"), d.toString());
        assertTrue(d.line() > 90, d.toString());
        HostTopology t = r.model().hostTopologies().get("cut");
        assertEquals(5, t.gpus().size());
        assertEquals(8, t.nets().size());
    }

    @Test
    void doctypeWithoutEntitiesIsRefused() {
        String text = "<!DOCTYPE system SYSTEM \"http://example.invalid/nccl.dtd\">\n<system version=\"1\"><cpu numaid=\"0\"/></system>";
        ImportResult r = NcclFiles.importTexts("dt.xml", text);
        Diagnostic d = firstError(r.model(), "dt.xml");
        assertTrue(d.message().contains("DOCTYPE"), d.toString());
        assertEquals(1, d.line());
        assertTrue(r.model().hostTopologies().isEmpty());
    }

    @Test
    void hwlocXmlIsRefusedSayingWhatItIs() {
        String text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- hwloc -->\n<topology version=\"2.0\">\n"
                + "  <object type=\"Machine\" os_index=\"0\"/>\n</topology>\n";
        ImportResult r = NcclFiles.importTexts("p5/topology.xml", text);
        assertEquals("hwloc-xml", r.formats().get("p5/topology.xml"));
        assertFalse(r.readAnything());
        Diagnostic d = problems(r.model()).get(0);
        assertTrue(d.message().contains("hwloc"), d.toString());
        // and through the XML reader directly
        FabricModelBuilder b = new FabricModelBuilder();
        new NcclXmlImporter().read(stream(text), "direct.xml", b, Cancellation.NEVER);
        assertTrue(b.build().diagnostics().get(0).message().contains("hwloc"));
    }

    @Test
    void oversizedAttributesAndTooManyAttributesAreBounded() {
        String huge = "x".repeat(100_000);
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            attrs.append(" a").append(i).append("=\"").append(i).append('"');
        }
        String text = "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"" + huge + "\"" + attrs + ">\n"
                + "<pci busid=\"0000:01:00.0\" class=\"0x030200\" link_speed=\"\" link_width=\"16\"/>\n</cpu>\n</system>\n";
        ImportResult r = NcclFiles.importTexts("big.xml", text);
        HostTopology t = r.model().hostTopologies().get("big");
        assertEquals(255, t.cpus().get(0).arch().length());
        assertEquals(1, t.gpus().size());
        assertTrue(TestSupport.dump(r.model().diagnostics()).contains("ignoring those past 16"));
    }

    @Test
    void fileOverTheSizeCapStops() {
        StringBuilder sb = new StringBuilder("<system version=\"1\">\n<cpu numaid=\"0\">\n");
        sb.append("<pci busid=\"0000:01:00.0\" class=\"0x030200\" link_speed=\"\" link_width=\"16\"/>\n");
        sb.append("<!--").append("y".repeat(17 * 1024 * 1024)).append("-->\n</cpu>\n</system>\n");
        FabricModelBuilder b = new FabricModelBuilder();
        assertDoesNotThrow(() -> new NcclXmlImporter().read(stream(sb.toString()), "huge.xml", b, Cancellation.NEVER));
        FabricModel m = b.build();
        assertTrue(TestSupport.dump(m.diagnostics()).contains("larger than 16 MiB"), TestSupport.dump(m.diagnostics()));
        assertEquals(1, m.hostTopologies().get("huge").gpus().size());
    }

    @Test
    void garbageAndEmptyInputNeverThrow() {
        for (String text : new String[] {"<system", "<system version=\"1\"><cpu></system>", "<<<>>>", "<system>\u0000</system>",
                "<graphs version=\"1\"><graph id=\"x\"><channel><gpu/></channel></graph></graphs>"}) {
            FabricModelBuilder b = new FabricModelBuilder();
            assertDoesNotThrow(() -> new NcclXmlImporter().read(stream(text), "g.xml", b, Cancellation.NEVER));
            assertDoesNotThrow(b::build);
        }
    }

    static InputStream stream(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }
}
