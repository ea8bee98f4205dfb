package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fabricscope bench}: it imports its input round after round and says, per phase, the spread of the wall and
 * CPU times, then what the import left to the collector (BENCHMARKS.md, issue 27). Times are not asserted (no timed
 * unit tests); what each line must hold is.
 */
class BenchCliTest {
    @TempDir
    Path dir;

    private Path copy(String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = BenchCliTest.class.getResourceAsStream("/fabrics/" + name)) {
            Files.copy(in, p);
        }
        return p;
    }

    @Test
    void saysEachPhaseAndTheImportsCollections() throws IOException {
        Path fabric = copy("two-tier.ibnetdiscover.txt");
        Path log = copy("two-host.nccl.log");
        CliTest.Run summary = CliTest.run("summary", "--json", fabric.toString(), log.toString());
        assertEquals(0, summary.status(), summary.err());
        CliTest.Run r = CliTest.run("bench", "--warmup", "1", "--rounds", "3", fabric.toString(), log.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("1 warm-up + 3 timed rounds"), out);
        // each round built the model summary builds: as many cables
        Matcher counts = Pattern.compile("\\((\\d+) nodes, (\\d+) cables\\)").matcher(out);
        assertTrue(counts.find(), out);
        assertEquals(new com.fasterxml.jackson.databind.ObjectMapper().readTree(summary.out()).get("cables").asLong(),
                Long.parseLong(counts.group(2)), out);
        for (String phase : new String[] {"import+model", "analysis", "layout+colours", "render 1600x1000",
            "map at fit", "1000 cable picks"}) {
            Matcher m = Pattern.compile(Pattern.quote(phase)
                    + " +min +([0-9.]+) ms +median +([0-9.]+) ms +max +([0-9.]+) ms").matcher(out);
            assertTrue(m.find(), phase + " in " + out);
            double min = Double.parseDouble(m.group(1));
            double median = Double.parseDouble(m.group(2));
            double max = Double.parseDouble(m.group(3));
            assertTrue(min <= median && median <= max, phase + ": " + m.group());
        }
        Matcher gc = Pattern.compile("import collections median (\\d+) a round \\(min (\\d+), max (\\d+)\\), "
                + "(\\d+) ms of them median").matcher(out);
        assertTrue(gc.find(), out);
        long min = Long.parseLong(gc.group(2));
        long median = Long.parseLong(gc.group(1));
        long max = Long.parseLong(gc.group(3));
        assertTrue(min <= median && median <= max, gc.group());
        assertTrue(max <= 1_000, "a small import makes at most a few collections: " + gc.group());
    }

    @Test
    void refusesRoundsItCannotTime() throws IOException {
        Path fabric = copy("two-tier.ibnetdiscover.txt");
        CliTest.Run r = CliTest.run("bench", "--rounds", "0", fabric.toString());
        assertEquals(2, r.status(), r.out());
        assertTrue(r.err().contains("bench needs --rounds of at least 1"), r.err());
    }
}
