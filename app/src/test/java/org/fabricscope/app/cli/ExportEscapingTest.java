package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.fabricscope.app.render.XmlText;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.builder.GraphTypeBuilder;
import org.jgrapht.nio.dot.DOTImporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Node names with control characters, markup, quotes and backslashes (node descriptions are whatever a
 * switch or host was told to call itself): every export format stays well-formed, read back by a real
 * parser of that format, and the markup comes back as text.
 */
class ExportEscapingTest {
    /** NUL-free but hostile: SOH, an ANSI colour, U+FFFE, markup, a trailing backslash. */
    static final String SPINE = "spine\u0001<x>&\u001b[31m\uFFFE\\";
    static final String HOST = "gpu-01\u000b <script>alert(1)</script> \\N\\";

    @TempDir
    Path dir;

    private Path hostileFabric() throws IOException {
        String text;
        try (InputStream in = ExportEscapingTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        text = text.replace("MF0;spine-01:MQM8700/U1", SPINE).replace("gpu-01 mlx5_0", HOST);
        return Files.writeString(dir.resolve("hostile.ibnetdiscover.txt"), text, StandardCharsets.UTF_8);
    }

    private String export(String format) throws IOException {
        Path out = dir.resolve("out." + format);
        CliTest.Run r = CliTest.run("export", "-f", format, "-o", out.toString(), hostileFabric().toString());
        assertEquals(0, r.status(), r.err());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static Document parseXml(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static void assertNoForbidden(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            assertFalse(c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c >= 0x7F && c <= 0x9F || c == '\uFFFE',
                    "character " + (int) c + " at " + i);
        }
    }

    @Test
    void graphmlIsWellFormedAndKeepsTheMarkupAsText() throws Exception {
        String xml = export("graphml");
        assertNoForbidden(xml);
        Document d = parseXml(xml);
        List<String> names = new ArrayList<>();
        NodeList data = d.getElementsByTagNameNS("*", "data");
        for (int i = 0; i < data.getLength(); i++) {
            names.add(data.item(i).getTextContent());
        }
        assertTrue(names.contains(XmlText.clean(SPINE)), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.contains("<script>alert(1)</script>")), "markup as text: " + names);
    }

    @Test
    void svgIsWellFormed() throws Exception {
        String svg = export("svg");
        assertNoForbidden(svg);
        Document d = parseXml(svg);
        NodeList titles = d.getElementsByTagNameNS("*", "title");
        boolean found = false;
        for (int i = 0; i < titles.getLength(); i++) {
            found |= titles.item(i).getTextContent().equals(XmlText.clean(SPINE));
        }
        assertTrue(found, "the spine's glyph title, markup as text");
        assertEquals(0, d.getElementsByTagNameNS("*", "script").getLength(), "no script element");
    }

    @Test
    void dotIsReadBackWithTheSameNames() throws Exception {
        String dot = export("dot");
        assertNoForbidden(dot);
        var g = GraphTypeBuilder.<String, DefaultEdge>undirected().allowingMultipleEdges(true).allowingSelfLoops(true)
                .vertexSupplier(new java.util.function.Supplier<String>() {
                    int n;

                    @Override
                    public String get() {
                        return "v" + n++;
                    }
                }).edgeClass(DefaultEdge.class).buildGraph();
        DOTImporter<String, DefaultEdge> importer = new DOTImporter<>();
        Map<String, String> labels = new HashMap<>();
        importer.addVertexAttributeConsumer((p, a) -> {
            if (p.getSecond().equals("name")) {
                labels.put(p.getFirst(), a.getValue());
            }
        });
        importer.importGraph(g, new StringReader(dot));
        assertEquals(8, g.vertexSet().size(), "every node read back: " + labels);
        assertTrue(labels.containsValue(XmlText.clean(SPINE)), "the trailing backslash did not eat the quote: " + labels);
        assertTrue(labels.containsValue(XmlText.clean(HOST)), labels.toString());
        assertTrue(labels.values().stream().anyMatch(v -> v.contains("<script>")), labels.toString());
    }

    @Test
    void jsonIsReadBackWithTheSameNames() throws Exception {
        JsonNode j = new ObjectMapper().readTree(export("json"));
        List<String> names = new ArrayList<>();
        j.get("nodes").forEach(n -> names.add(n.get("name").asText()));
        assertTrue(names.stream().anyMatch(n -> n.startsWith("spine") && n.contains("<x>&")), names.toString());
    }

    @Test
    void dotQuotingCannotBeEscaped() {
        assertEquals("\"a\\\\\\\"b\\\\\"", ExportCommand.quoteId("a\\\"b\\"));
        assertEquals("x\uFFFDy\\\\", ExportCommand.dotText("x\u0007y\\"));
    }

    @Test
    void xmlTextReplacesWhatXmlForbids() {
        assertEquals("a\uFFFDb\uFFFD\uFFFD\tc\nd", XmlText.clean("a\u0000b\u0085\uFFFF\tc\nd"));
        assertEquals("\uFFFDz \uD83D\uDE00", XmlText.clean("\uD800z \uD83D\uDE00"), "a lone surrogate replaced, a pair kept");
        assertEquals("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;", XmlText.escape("<img src=x onerror=\"alert(1)\"> & '"));
        assertEquals("same", XmlText.clean("same"));
    }
}
