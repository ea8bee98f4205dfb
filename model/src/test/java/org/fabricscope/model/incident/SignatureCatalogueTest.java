package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * The bundled catalogue: every file loads without a problem, each source is covered, every example
 * (an upstream template instantiated, or a real line) is recognised by the catalogue's matcher with
 * its fields, and every id published so far still exists (ids are a contract: they only grow).
 */
class SignatureCatalogueTest {
    private static final SignatureCatalogue CATALOGUE = SignatureCatalogue.bundled();

    @Test
    void everyBundledFileLoadsWithoutAProblem() {
        assertEquals(List.of(), CATALOGUE.problems().stream().map(SignatureProblem::text).toList());
    }

    /**
     * The bundled files load at every start without compiling their patterns ({@link Regex}, compiled on first
     * use): loaded as a user's file is, every pattern compiled and every example matched, each holds the same
     * signatures and no problem.
     */
    @Test
    void everyBundledFileLoadsAsAUsersFileWould() throws IOException {
        List<String> files;
        try (InputStream in = SignatureCatalogue.class.getResourceAsStream("/org/fabricscope/model/incident/signatures/index.txt")) {
            files = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
        List<String> ids = new ArrayList<>();
        for (String f : files) {
            try (InputStream in = SignatureCatalogue.class.getResourceAsStream("/org/fabricscope/model/incident/signatures/" + f)) {
                SignatureLoader.Result r = SignatureLoader.load(in, "signatures/" + f);
                assertEquals(List.of(), r.problems().stream().map(SignatureProblem::text).toList(), f);
                r.signatures().forEach(sig -> ids.add(sig.id()));
            }
        }
        assertEquals(CATALOGUE.signatures().stream().map(Signature::id).toList(), ids);
        for (Signature sig : CATALOGUE.signatures()) {
            assertEquals(sig.regex().source(), sig.pattern().pattern(), sig.id());
        }
    }

    @Test
    void everySourceIsCovered() {
        Map<String, Long> bySource = CATALOGUE.signatures().stream().collect(Collectors.groupingBy(Signature::source,
                Collectors.counting()));
        for (String source : List.of("nccl", "pytorch", "kernel", "kubernetes")) {
            assertTrue(bySource.getOrDefault(source, 0L) >= 20, source + ": " + bySource);
        }
    }

    @Test
    void everyExampleIsRecognisedWithItsFields() {
        List<String> wrong = new ArrayList<>();
        for (Target t : Target.values()) {
            SignatureCatalogue.Matcher m = CATALOGUE.matcher(t);
            for (Signature s : CATALOGUE.signatures()) {
                if (s.on() != t) {
                    continue;
                }
                for (Signature.Example e : s.examples()) {
                    boolean found = m.all(e.text()).stream()
                            .anyMatch(h -> h.signature() == s && h.fields().equals(e.fields()));
                    if (!found) {
                        wrong.add(s.id() + ": " + e.text());
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aCauseAlwaysSaysWhatToDo() {
        for (Signature s : CATALOGUE.signatures()) {
            if (s.role() == Role.CAUSE) {
                assertTrue(!s.remedies().isEmpty(), s.id());
            }
        }
    }

    @Test
    void publishedIdsStillExist() throws IOException {
        Set<String> ids = new HashSet<>();
        CATALOGUE.signatures().forEach(s -> ids.add(s.id()));
        List<String> published;
        try (InputStream in = getClass().getResourceAsStream("published-signature-ids.txt")) {
            published = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
        List<String> gone = published.stream().filter(id -> !ids.contains(id)).toList();
        assertEquals(List.of(), gone, "published signature ids are a contract: never remove or rename one");
    }
}
