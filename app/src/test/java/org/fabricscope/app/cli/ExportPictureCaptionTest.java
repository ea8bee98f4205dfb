package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A picture for a ticket: {@code export -f svg} of the bundled fat-tree sample carries a title (the
 * capture's name and its files' time), the legend and the names of the finding subjects, and matches
 * its golden SVG (the files' time masked: it is the checkout's).
 */
class ExportPictureCaptionTest {
    private static final Path SAMPLE = Path.of("..", "sample-fabrics", "fat-tree-3tier-small");
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "fat-tree-3tier-small.svg");

    @TempDir
    Path dir;

    private String export() throws Exception {
        List<String> args = new ArrayList<>(List.of("export", "-f", "svg", "--width", "1280", "--height", "800"));
        for (String name : Files.readAllLines(SAMPLE.resolve("golden.inputs"))) {
            try (var files = Files.newDirectoryStream(SAMPLE, name.strip())) {
                files.forEach(f -> args.add(f.toString()));
            }
        }
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return r.out();
    }

    private static Element group(Document doc, String cls) {
        NodeList gs = doc.getElementsByTagName("g");
        for (int i = 0; i < gs.getLength(); i++) {
            Element g = (Element) gs.item(i);
            if (cls.equals(g.getAttribute("class"))) {
                return g;
            }
        }
        return null;
    }

    private static List<String> texts(Element g) {
        List<String> out = new ArrayList<>();
        NodeList ts = g.getElementsByTagName("text");
        for (int i = 0; i < ts.getLength(); i++) {
            out.add(ts.item(i).getTextContent());
        }
        return out;
    }

    @Test
    void theSvgCarriesTheTitleTheLegendAndTheSubjectsNames() throws Exception {
        String svg = export();
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        Element title = group(doc, "title");
        assertNotNull(title, "a title group");
        String t = texts(title).get(0);
        assertTrue(t.startsWith("fat-tree-3tier-small \u00b7 files of "), t);
        assertTrue(t.matches(".* files of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \u00b7 Error counters \u00b7 whole fabric"), t);

        Element legend = group(doc, "legend");
        assertNotNull(legend, "a legend group");
        assertEquals(List.of("within thresholds", "over threshold", "error", "degraded", "no counters", "lost link"), texts(legend));

        Element subjects = group(doc, "subject-names");
        assertNotNull(subjects, "the sample's faults are named at fit");
        // the faulty cables' ends and the lost links' switches, at fit; an HCA with its host's name
        assertTrue(texts(subjects).containsAll(List.of("core-01", "core-05", "agg-p1-01", "agg-p2-03", "leaf-p2-03", "leaf-p3-04",
                "cn0023 mlx5_0")), texts(subjects).toString());
        // no two names, nor a name and a group label, overlap
        List<double[]> boxes = new ArrayList<>();
        NodeList rects = subjects.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            double x = Double.parseDouble(r.getAttribute("x"));
            double y = Double.parseDouble(r.getAttribute("y"));
            boxes.add(new double[] {x, y, x + Double.parseDouble(r.getAttribute("width")), y + 14});
        }
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                double[] a = boxes.get(i);
                double[] b = boxes.get(j);
                assertFalse(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3], "names " + i + " and " + j + " overlap");
            }
        }
        // the title and the legend come last, over the map's edges
        assertTrue(svg.indexOf("class=\"title\"") > svg.indexOf("class=\"glyphs\"") || svg.indexOf("class=\"glyphs\"") < 0);
    }

    @Test
    void theSvgMatchesItsGoldenFile() throws Exception {
        String svg = masked(export());
        if (Boolean.getBoolean("fabricscope.golden.update")) {
            Files.writeString(GOLDEN, svg, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(GOLDEN), "golden file " + GOLDEN + " (write it with -Dfabricscope.golden.update=true)");
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), svg,
                "the export changed: look at it, then regenerate with -Dfabricscope.golden.update=true");
    }

    /** The files' time is the checkout's, not the sample's: masked. */
    private static String masked(String svg) {
        return svg.replaceAll("files of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC", "files of TIME");
    }
}
