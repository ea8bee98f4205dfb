package org.fabricscope.importers.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.fabricscope.model.core.JsonTrees;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Kubernetes readers build their trees from the parsers of {@link KubeMappers#jsonFactory()} and
 * {@link KubeMappers#yamlFactory()} with {@link JsonTrees}, where they asked the mappers before: the same trees,
 * node types included, or the same error, on random YAML and JSON documents and their cuts and mutations
 * (duplicate keys, anchors and aliases, {@code !!binary}, YAML's numbers, nulls and booleans).
 */
class KubeTreesTest {

    private static String mapper(ObjectMapper m, byte[] text) {
        try {
            JsonNode n = m.readTree(text);
            return n == null ? "null" : n.getNodeType() + " " + n;
        } catch (Exception | StackOverflowError e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String trees(JsonFactory f, byte[] text) {
        try (JsonParser p = f.createParser(text)) {
            JsonNode n = JsonTrees.readNext(p);
            return n.getNodeType() + " " + n;
        } catch (Exception | StackOverflowError e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static final List<String> SCALARS = List.of("1", "-7", "2147483648", "9223372036854775808", "0x1F", "1.5", "1e3",
            ".nan", ".inf", "-.inf", "~", "null", "true", "false", "yes", "\"quoted: text\"", "'single'", "plain text",
            "!!binary aGVsbG8=", "!!str 12", "2024-01-02T03:04:05Z", "\"\"", "rdma/hca", "8Gi", "*a");

    private static String yaml(Random r, int depth, String indent) {
        int k = depth > 3 ? 2 : r.nextInt(3);
        StringBuilder b = new StringBuilder();
        if (k == 0) {
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                b.append(indent).append("k").append(r.nextInt(3)).append(":");
                if (r.nextBoolean()) {
                    b.append(r.nextInt(4) == 0 ? " &a" : "").append('\n').append(yaml(r, depth + 1, indent + "  "));
                } else {
                    b.append(' ').append(SCALARS.get(r.nextInt(SCALARS.size()))).append('\n');
                }
            }
        } else if (k == 1) {
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                b.append(indent).append("- ").append(SCALARS.get(r.nextInt(SCALARS.size()))).append('\n');
            }
        } else {
            b.append(indent).append("leaf: ").append(SCALARS.get(r.nextInt(SCALARS.size()))).append('\n');
        }
        return b.toString();
    }

    private static String json(Random r, int depth) {
        int k = depth > 3 ? 3 : r.nextInt(4);
        if (k == 0) {
            StringBuilder b = new StringBuilder("{");
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                b.append(i > 0 ? "," : "").append("\"k").append(r.nextInt(3)).append("\": ").append(json(r, depth + 1));
            }
            return b.append('}').toString();
        }
        if (k == 1) {
            return "[" + json(r, depth + 1) + ", " + json(r, depth + 1) + "]";
        }
        return List.of("1", "-1", "2147483648", "99999999999999999999", "1.25", "\"s\"", "true", "null").get(r.nextInt(8));
    }

    private static void same(ObjectMapper m, JsonFactory f, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(mapper(m, bytes), trees(f, bytes), text);
    }

    /** 1,500 random documents, each whole, cut short and with one character replaced by one of {@code junk}. */
    private static void randomly(ObjectMapper m, JsonFactory f, java.util.function.Function<Random, String> document,
                                 String junk) {
        Random r = new Random(18);
        for (int i = 0; i < 1_500; i++) {
            String t = document.apply(r);
            same(m, f, t);
            same(m, f, t.substring(0, r.nextInt(t.length())));
            int at = r.nextInt(t.length());
            same(m, f, t.substring(0, at) + junk.charAt(r.nextInt(junk.length())) + t.substring(at + 1));
        }
    }

    @Test
    void yamlTreesAreTheMappersOnRandomDocumentsTheirCutsAndMutations() {
        randomly(KubeMappers.yaml(), KubeMappers.yamlFactory(), r -> (r.nextBoolean() ? "---\n" : "") + yaml(r, 0, ""),
                ":-[]{}&*!'\" \n");
    }

    @Test
    void jsonTreesAreTheMappersOnRandomDocumentsTheirCutsAndMutations() {
        randomly(KubeMappers.json(), KubeMappers.jsonFactory(), r -> json(r, 0), "{}[],:\"x 1-");
    }

    @Test
    void yamlEdges() {
        ObjectMapper m = KubeMappers.yaml();
        JsonFactory f = KubeMappers.yamlFactory();
        for (String t : new String[] {"", "---\n", "a: 1\na: 2\n", "a: &x {b: 1}\nc: *x\n", "bin: !!binary aGk=\n",
                "- 1\n- two\n", "x: " + "[".repeat(80) + "]".repeat(80) + "\n", "--- 1\n--- 2\n"}) {
            same(m, f, t);
        }
    }
}
