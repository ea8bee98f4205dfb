package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.fabricscope.app.render.MapPalette;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code fabricscope export -f png|svg}: the map as the app shows it at fit, with no display. */
class ExportPictureCliTest {
    private static final Path RAIL = Path.of("..", "sample-fabrics", "rail-2su-hdr");

    @TempDir
    Path dir;

    private Path fabric() throws IOException {
        Path p = dir.resolve("two-tier.ibnetdiscover.txt");
        try (InputStream in = ExportPictureCliTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            Files.copy(in, p);
        }
        return p;
    }

    @Test
    void anEmptyMapIsRefusedAndNothingWritten() {
        Path out = dir.resolve("map.png");
        CliTest.Run r = CliTest.run("export", "-f", "png", "-o", out.toString(),
                Path.of("..", "sample-fabrics", "k8s-incident").toString());
        assertEquals(1, r.status(), r.out());
        assertTrue(r.err().contains("the map is empty: the inputs hold no fabric"), r.err());
        assertFalse(Files.exists(out), "no picture written");
    }

    @Test
    void pngIsWrittenAtTheRequestedSize() throws IOException {
        Path out = dir.resolve("map.png");
        CliTest.Run r = CliTest.run("export", "-f", "png", "--width", "800", "--height", "500", "-o", out.toString(),
                fabric().toString());
        assertEquals(0, r.status(), r.err());
        BufferedImage img = ImageIO.read(out.toFile());
        assertNotNull(img, "a PNG ImageIO can read");
        assertEquals(800, img.getWidth());
        assertEquals(500, img.getHeight());
        int background = MapPalette.defaults().background() & 0xFFFFFF;
        int drawn = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                if ((img.getRGB(x, y) & 0xFFFFFF) != background) {
                    drawn++;
                }
            }
        }
        assertTrue(drawn > 100, "cables and glyphs are drawn: " + drawn);
    }

    @Test
    void pngNeedsAFile() throws IOException {
        CliTest.Run r = CliTest.run("export", "-f", "png", fabric().toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("-o FILE"), r.err());
    }

    @Test
    void svgParsesAndHasOnePathPerCableColour() throws Exception {
        Path out = dir.resolve("map.svg");
        CliTest.Run r = CliTest.run("export", "-f", "svg", "-o", out.toString(), RAIL.resolve("ibnetdiscover.txt").toString(),
                RAIL.resolve("iblinkinfo.txt").toString(), RAIL.resolve("ibqueryerrors.txt").toString());
        assertEquals(0, r.status(), r.err());
        Document doc = svg(Files.readAllBytes(out));
        assertEquals("1600", doc.getDocumentElement().getAttribute("width"));
        NodeList paths = doc.getElementsByTagName("path");
        assertTrue(paths.getLength() >= 2, "thin cables and the emphasised ones");
        java.util.Set<String> strokes = new java.util.HashSet<>();
        int segments = 0;
        for (int i = 0; i < paths.getLength(); i++) {
            Element p = (Element) paths.item(i);
            assertTrue(strokes.add(p.getAttribute("stroke") + "/" + p.getAttribute("stroke-width")), "one path per colour");
            segments += p.getAttribute("d").split("M").length - 1;
        }
        assertTrue(segments > 300, "every link of the rail fabric: " + segments);
        String danger = String.format("#%06x", MapPalette.defaults().danger() & 0xFFFFFF);
        assertTrue(strokes.contains(danger + "/3"), "the 1xHDR link (an ERROR) and the error counters in the error colour: "
                + strokes);
        assertTrue(doc.getElementsByTagName("rect").getLength() > 256, "a rect per glyph");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(text.contains("class=\"lost-link\""), "the lost links are marked");
        assertTrue(text.contains(">leaf-su1-r6<") || text.contains(">spine"), "switch names where readable");
    }

    @Test
    void svgToStandardOutputInTheTransportMode() throws Exception {
        CliTest.Run r = CliTest.run("export", "-f", "svg", "--colour", "transport", "--width", "640", "--height", "400",
                fabric().toString());
        assertEquals(0, r.status(), r.err());
        Document doc = svg(r.out().getBytes(StandardCharsets.UTF_8));
        assertEquals("640", doc.getDocumentElement().getAttribute("width"));
        assertEquals("400", doc.getDocumentElement().getAttribute("height"));
        // no ranks: every cable faint; the cables findings name are drawn again above them, with a halo
        String faint = String.format("#%06x", MapPalette.defaults().faint() & 0xFFFFFF);
        NodeList paths = doc.getElementsByTagName("path");
        java.util.List<Element> plain = new java.util.ArrayList<>();
        int halos = 0;
        for (int i = 0; i < paths.getLength(); i++) {
            Element p = (Element) paths.item(i);
            if (p.getAttribute("class").isEmpty()) {
                plain.add(p);
            } else if (p.getAttribute("class").equals("halo")) {
                halos++;
            }
        }
        assertEquals(1, plain.size());
        assertEquals(faint, plain.get(0).getAttribute("stroke"));
        assertEquals(1, halos, "the faint cables a finding names, under a halo");
    }

    @Test
    void jsonIsUnchangedByThePictureOptions() throws IOException {
        Path f = fabric();
        CliTest.Run plain = CliTest.run("export", "-f", "json", f.toString());
        assertEquals(0, plain.status(), plain.err());
        assertTrue(plain.out().startsWith("{"));
        assertFalse(plain.out().contains("<svg"));
        CliTest.Run bad = CliTest.run("export", "-f", "png", "--colour", "rainbow", "-o", dir.resolve("x.png").toString(),
                f.toString());
        assertNotEquals(0, bad.status());
    }

    private static Document svg(byte[] bytes) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }
}
