package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --csv}: each table read back by an RFC 4180 parser (same cells, one header), hostile node names
 * (commas, quotes, line breaks, a formula) kept whole and inert, the row limit, and {@code --csv} with a format.
 */
class ExportCsvTest {
    @TempDir
    Path dir;

    /** An RFC 4180 reader: rows of cells. */
    static List<List<String>> parse(String csv) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                i++;
            } else {
                cell.append(c);
            }
        }
        assertFalse(quoted, "an unterminated quote");
        assertTrue(row.isEmpty() && cell.isEmpty(), "the last row ends with CRLF");
        return rows;
    }

    private String csv(String table, String... paths) throws IOException {
        Path out = dir.resolve(table + ".csv");
        List<String> args = new ArrayList<>(List.of("export", "--csv", table, "-o", out.toString()));
        args.addAll(List.of(paths));
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private Path fabric(String spineName) throws IOException {
        String text;
        try (InputStream in = ExportCsvTest.class.getResourceAsStream("/fabrics/two-tier.ibnetdiscover.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return Files.writeString(dir.resolve("fabric.ibnetdiscover.txt"), text.replace("MF0;spine-01:MQM8700/U1", spineName));
    }

    private static FabricModel load(Path f) {
        return new org.fabricscope.importers.FabricImporter().importPaths(List.of(f), org.fabricscope.importers.ImportProgress.NONE,
                org.fabricscope.importers.core.Cancellation.NEVER).model();
    }

    @Test
    void portsTableHasEveryPortOnceWithItsPeer() throws IOException {
        Path f = fabric("MF0;spine-01:MQM8700/U1");
        List<List<String>> rows = parse(csv("ports", f.toString()));
        List<String> header = rows.get(0);
        assertEquals(List.of("node", "guid", "kind", "port", "lid", "state", "physical state", "width", "speed", "peer node",
                "peer guid", "peer port"), header.subList(0, 12));
        FabricModel m = load(f);
        assertEquals(m.nodes().stream().mapToInt(n -> n.ports().size()).sum(), rows.size() - 1);
        for (List<String> r : rows) {
            assertEquals(header.size(), r.size(), r.toString());
        }
        assertTrue(rows.stream().anyMatch(r -> r.get(0).equals("spine-01") && !r.get(9).isEmpty()), "a cabled spine port");
    }

    @Test
    void hostileNamesStayWholeAndInert() throws IOException {
        String name = "=HYPERLINK(\"http://x\",\"a,b\")";
        Path f = fabric(name);
        List<List<String>> rows = parse(csv("ports", f.toString()));
        long spine = rows.stream().filter(r -> r.get(0).equals("'" + name)).count();
        assertTrue(spine > 0, "the name, one cell, with a leading quote: " + rows);
        assertEquals("'-1", CsvTables.cell("-1"), "text that looks like a formula");
        assertEquals("\"a\"\"b\"", CsvTables.cell("a\"b"));
        assertEquals("\"line\nbreak\"", CsvTables.cell("line\nbreak"));
        assertEquals("'@SUM(A1)", CsvTables.cell("@SUM(A1)"));
        assertEquals("plain", CsvTables.cell("plain"));
    }

    @Test
    void findingsPodsAndRanksOfARealIncident() throws IOException {
        Path samples = Path.of("..", "sample-fabrics");
        String incident = samples.resolve("training-incident").toString();
        List<List<String>> findings = parse(csv("findings", incident));
        assertEquals(List.of("id", "severity", "title", "subjects", "evidence", "remedies"), findings.get(0));
        assertTrue(findings.size() > 1);
        List<List<String>> pods = parse(csv("pods", incident));
        assertTrue(pods.stream().anyMatch(r -> r.get(1).equals("gpt-train-master-0") && r.get(4).equals("gpt-train")), pods.toString());
        List<List<String>> ranks = parse(csv("ranks", incident));
        assertEquals("communicator", ranks.get(0).get(0));
        assertTrue(ranks.size() > 2);
    }

    @Test
    void tooManyRowsIsRefusedAndCsvExcludesFormat() throws IOException {
        FabricModel m = load(fabric("MF0;spine-01:MQM8700/U1"));
        CliFailure e = assertThrows(CliFailure.class, () -> CsvTables.of(CsvTables.Table.ports, m, List.of(), 3));
        assertTrue(e.getMessage().contains("more than 3 (OutputLimits.MAX_ELEMENTS)"), e.getMessage());
        CliTest.Run r = CliTest.run("export", "--csv", "ports", "-f", "json", dir.resolve("fabric.ibnetdiscover.txt").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--csv and --format exclude each other"), r.err());
    }
}
