package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile flow files: special files and links in a flow folder, files past the size limit, chains past
 * the depth limit, nesting, placeholder scans that backtracked, and expansions into hundreds of megabytes.
 * Each must end quickly with an error naming the file and the limit, and the good flows must still load.
 */
class FlowHostileInputTest {
    @TempDir
    Path dir;

    private static FlowLoader.Loaded load(String json) {
        return FlowLoader.standard().load("hostile.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean hasError(List<FlowError> errors, String file, String contains) {
        return errors.stream().anyMatch(e -> e.source().endsWith(file) && e.message().contains(contains));
    }

    @Test
    void specialFilesAndBrokenLinksInAFlowFolderAreSkippedByNameAndTheGoodFlowStillLoads() throws Exception {
        Files.writeString(dir.resolve("good.json"), FlowLoaderTest.VALID);
        Files.createSymbolicLink(dir.resolve("dangling.json"), dir.resolve("nowhere"));
        Files.createSymbolicLink(dir.resolve("loop.json"), dir.resolve("loop.json"));
        Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));
        Files.createDirectory(dir.resolve("folder.json"));
        try (RandomAccessFile sparse = new RandomAccessFile(dir.resolve("sparse.json").toFile(), "rw")) {
            sparse.setLength(3L << 30); // 3 GB, no blocks on disk
        }
        Path fifo = dir.resolve("fifo.json");
        boolean haveFifo = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;

        FlowLibrary lib = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> FlowLibrary.builtIn().plus(dir));

        assertNotNull(lib.flow("my-flow"), "the good file loads: " + lib.errors());
        List<FlowError> errs = lib.errors();
        assertTrue(hasError(errs, "dangling.json", "symbolic link that leads nowhere"), errs.toString());
        assertTrue(hasError(errs, "loop.json", "symbolic link that cannot be followed"), errs.toString());
        assertTrue(hasError(errs, "zero.json", "not a regular file (a character device)"), errs.toString());
        assertTrue(hasError(errs, "folder.json", "a folder, not a flow file"), errs.toString());
        assertTrue(hasError(errs, "sparse.json", "FlowLoader.MAX_BYTES"), errs.toString());
        if (haveFifo) {
            assertTrue(hasError(errs, "fifo.json", "not a regular file (a FIFO)"), errs.toString());
        }
    }

    @Test
    void aFlowFolderThatIsADanglingLinkIsAnErrorNotASilence() throws IOException {
        Path link = dir.resolve("flows");
        Files.createSymbolicLink(link, dir.resolve("gone"));
        FlowLibrary lib = FlowLibrary.builtIn().plus(link);
        assertTrue(hasError(lib.errors(), "flows", "leads nowhere"), lib.errors().toString());
        assertEquals(FlowLibrary.builtIn().flows(), lib.flows());
    }

    @Test
    void bytesPastTheLimitAreRefusedByName() {
        FlowLoader.Loaded l = FlowLoader.standard().load("big.json", new byte[FlowLoader.MAX_BYTES + 1]);
        assertNull(l.flow());
        assertTrue(l.errors().get(0).message().contains("FlowLoader.MAX_BYTES"), l.errors().toString());
    }

    /** A flow of {@code n} steps, each leading to the next, the last to the conclusion. */
    static String chain(int n) {
        StringBuilder b = new StringBuilder("{\"id\": \"chain\", \"title\": \"Chain\", \"entry\": {\"findings\": [\"tcp-fallback\"]},"
                + " \"steps\": [");
        for (int i = 0; i < n; i++) {
            String next = i + 1 < n ? "s" + (i + 1) : "end";
            b.append(i == 0 ? "" : ",").append("{\"id\": \"s").append(i).append("\", \"question\": \"Q?\", "
                    + "\"ask\": {\"fact\": \"pfc-enabled\"}, \"yes\": \"").append(next).append("\", \"no\": \"").append(next)
                    .append("\"}");
        }
        return b.append("], \"conclusions\": [{\"id\": \"end\", \"text\": \"End.\", \"remedies\": [\"r\"]}]}").toString();
    }

    @Test
    void chainsPastTheDepthLimitAreRefusedAndLongerOnesDoNotOverflowTheStack() {
        FlowLoader.Loaded ok = load(chain(FlowLoader.MAX_DEPTH));
        assertEquals(List.of(), ok.errors(), "a chain of exactly the limit loads");
        FlowLoader.Loaded deep = load(chain(FlowLoader.MAX_DEPTH + 1));
        assertNull(deep.flow());
        assertTrue(deep.errors().get(0).message().contains("FlowLoader.MAX_DEPTH"), deep.errors().toString());
        FlowLoader.Loaded huge = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> load(chain(5000)));
        assertNull(huge.flow());
        assertTrue(huge.errors().stream().anyMatch(e -> e.message().contains("FlowLoader.MAX_STEPS")), huge.errors().toString());
    }

    @Test
    void deeplyNestedJsonIsAnErrorOfItsFile() {
        String nested = "[".repeat(200_000) + "]".repeat(200_000);
        FlowLoader.Loaded l = load("{\"id\": " + nested + "}");
        assertNull(l.flow());
        assertEquals(1, l.errors().size(), l.errors().toString());
    }

    @Test
    void errorsOfOneFileAreCappedWithACount() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < 5000; i++) {
            b.append("\"junk").append(i).append("\": 1,");
        }
        FlowLoader.Loaded l = load(b.append("\"id\": \"x\"}").toString());
        assertEquals(FlowLoader.MAX_ERRORS + 1, l.errors().size());
        assertTrue(l.errors().get(FlowLoader.MAX_ERRORS).message().contains("FlowLoader.MAX_ERRORS"));
    }

    @Test
    void placeholderScansAreLinear() {
        String spaces = "{{" + " ".repeat(1_000_000);
        String manyOpen = "{{a ".repeat(250_000);
        String braces = "{{{".repeat(300_000) + "}";
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertEquals(List.of(), Templates.names(spaces));
            assertEquals(List.of(), Templates.names(manyOpen));
            assertEquals(List.of(), Templates.names(braces));
            String open = "{{" + " ".repeat(200_000);
            assertTrue(open.equals(Templates.render(open, Map.of(), Map.of())), "an unclosed placeholder is text");
        });
        // the scan finds what the pattern found
        assertEquals(List.of("pod", "answer:a", "", "node"), Templates.names("{{ pod }} {{answer:a}}{{}} {x{{{node\t}} }} {{y}"));
        assertEquals("on w1 and <node>, {{ {x}}", Templates.render("on {{pod}} and {{ node }}, {{ {x}}", Map.of("pod", "w1"), Map.of()));
    }

    @Test
    void aFlowTextOfAnOpenPlaceholderAndAMillionSpacesLoadsQuickly() {
        String json = FlowLoaderTest.VALID.replace("Nothing to do.", "{{" + " ".repeat(900_000));
        FlowLoader.Loaded l = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> load(json));
        assertEquals(List.of(), l.errors());
    }

    @Test
    void expansionsAreBoundedPerTextAndPerRun() {
        String big = "x".repeat(1_000_000);
        String text = "{{pod}}".repeat(1000); // a gigabyte, unbounded
        String one = Templates.render(text, Map.of("pod", big), Map.of());
        assertTrue(one.length() < Templates.MAX_TEXT_CHARS + 200, "length " + one.length());
        assertTrue(one.endsWith("Templates.MAX_TEXT_CHARS = " + Templates.MAX_TEXT_CHARS + " characters]"), one.substring(one.length() - 120));

        Templates.Budget budget = new Templates.Budget(1_000_000, "FlowEngine.MAX_RENDERED_CHARS");
        long total = 0;
        String last = "";
        for (int i = 0; i < 20; i++) {
            last = Templates.render(text, Map.of("pod", big), Map.of(), budget);
            total += last.length();
        }
        assertTrue(total < 1_000_000 + 20 * 200, "total " + total);
        assertTrue(last.contains("FlowEngine.MAX_RENDERED_CHARS = 1000000"), last);
    }

    @Test
    void aWalkStopsRenderingRemediesOnceTheRunBudgetIsSpent() {
        FlowFacts facts = FlowFacts.standard().with(new FlowFacts.Fact("big", "a huge value", List.of(), "tests",
                (c, call) -> new Answer(Verdict.YES, "big", List.of(), List.of(), Map.of("pod", "p".repeat(200_000)))));
        StringBuilder remedies = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            remedies.append(i == 0 ? "" : ",").append("\"{{pod}}{{pod}}\"");
        }
        String json = "{\"id\": \"huge\", \"title\": \"H\", \"entry\": {\"findings\": [\"tcp-fallback\"]}, \"steps\": ["
                + "{\"id\": \"a\", \"question\": \"{{pod}}\", \"ask\": {\"fact\": \"big\"}, \"yes\": \"end\", \"no\": \"end\"}],"
                + " \"conclusions\": [{\"id\": \"end\", \"text\": \"{{pod}}\", \"remedies\": [" + remedies + "]}]}";
        FlowLoader.Loaded l = new FlowLoader(facts, FlowContext.catalogue().keySet()).load("huge.json", json.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(), l.errors());
        FlowResult r = new FlowEngine(facts).run(l.flow(), FlowEngineTest.context(FlowEngineTest.finding("tcp-fallback",
                org.fabricscope.model.core.Severity.ERROR)), Map.of());
        long total = r.conclusion().text().length() + r.conclusion().remedies().stream().mapToLong(String::length).sum()
                + r.steps().stream().mapToLong(s -> s.question().length()).sum();
        assertTrue(total <= FlowEngine.MAX_RENDERED_CHARS + 1000, "rendered " + total);
        String lastRemedy = r.conclusion().remedies().get(r.conclusion().remedies().size() - 1);
        assertTrue(lastRemedy.contains("more remedies not rendered") && lastRemedy.contains("FlowEngine.MAX_RENDERED_CHARS"), lastRemedy);
    }
}
