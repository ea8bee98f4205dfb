package org.fabricscope.importers.lldp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.JsonTrees;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code lldpcli show neighbors -f json} and {@code -f json0}. In {@code json} a value is a string, an
 * object or, when repeated, an array; an object with one key is keyed by a name: {@code "interface"} is
 * {@code {"Ethernet0": {...}}} for one neighbour and an array of such objects for several, {@code "chassis"}
 * is {@code {"spine-01": {"id": {"type": "mac", "value": ...}, ...}}} when the neighbour sent a system name
 * and the bare object when it did not. {@code json0} keeps one shape: every value an array of objects, names
 * in {@code "name"}, text in {@code "value"}. Source: lldpd {@code src/client/json_writer.c} (both modes).
 */
final class LldpJson {
    static final int MAX_DEPTH = 64;
    /** Parsers under constraints, their trees built by {@link JsonTrees} as the mapper's {@code readTree} builds them. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(1024 * 1024).maxNumberLength(64).build())
            .build();

    /** The JSON was not lldpcli's, or not JSON: the message says where. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;
        final int line;

        Malformed(String message, int line) {
            super(message);
            this.line = line;
        }
    }

    private LldpJson() {
    }

    static List<LldpNeighbour> parse(String source, LldpSections.Section s) throws Malformed {
        String text = String.join("\n", s.lines());
        JsonNode root;
        try (JsonParser p = FACTORY.createParser(text)) {
            root = JsonTrees.readNext(p);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : s.firstLine() + e.getLocation().getLineNr() - 1;
            String m = e.getOriginalMessage() == null ? "malformed JSON" : e.getOriginalMessage().replace('\n', ' ');
            if (m.contains("nesting depth")) {
                m = "nested deeper than " + MAX_DEPTH + " levels (LldpJson.MAX_DEPTH); lldpcli's is 8 deep";
            }
            m = m.replaceAll("\\(?[^()]*`[^`]*`[^()]*\\)?", "").strip(); // Jackson's hints name its Java methods
            throw new Malformed("not valid JSON: " + (m.length() > 160 ? m.substring(0, 157) + "..." : m), line);
        } catch (java.io.IOException e) {
            // a parser of a String has no I/O to fail: its own errors are the JsonProcessingExceptions above
            throw new Malformed("not valid JSON: " + e.getMessage(), s.firstLine());
        }
        if (root == null || !root.isObject() || !root.has("lldp")) {
            throw new Malformed("JSON without an \"lldp\" object: not lldpcli's output", s.firstLine());
        }
        List<LldpNeighbour> out = new ArrayList<>();
        Locator at = new Locator(source, s);
        for (JsonNode lldp : each(root.get("lldp"))) {
            for (JsonNode entry : each(lldp.get("interface"))) {
                if (entry.has("name") && entry.get("name").isTextual()) { // json0
                    out.add(neighbour(entry.get("name").asText(), entry, at));
                } else if (entry.isObject()) {
                    for (Map.Entry<String, JsonNode> e : entry.properties()) {
                        for (JsonNode n : each(e.getValue())) {
                            out.add(neighbour(e.getKey(), n, at));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static LldpNeighbour neighbour(String iface, JsonNode n, Locator at) {
        NeighbourDraft d = new NeighbourDraft(iface, at.find(iface));
        for (JsonNode chassis : each(n.get("chassis"))) {
            JsonNode c = chassis;
            if (!c.has("id") && c.size() == 1 && c.isObject()) { // json: keyed by the system name
                Map.Entry<String, JsonNode> named = c.properties().iterator().next();
                d.sysName = named.getKey();
                c = named.getValue();
            }
            JsonNode id = first(c.get("id"));
            if (id != null) {
                d.chassisIdType = text(id.get("type"));
                d.chassisId = text(id.get("value"));
            }
            if (d.sysName.isEmpty()) {
                d.sysName = text(c.get("name"));
            }
            d.sysDescr = text(c.get("descr"));
            for (JsonNode ip : each(c.get("mgmt-ip"))) {
                d.mgmt(text(ip));
            }
            for (JsonNode cap : each(c.get("capability"))) {
                JsonNode en = cap.get("enabled");
                d.capability(text(cap.get("type")), en != null && (en.asBoolean() || "on".equals(en.asText())));
            }
        }
        JsonNode port = first(n.get("port"));
        if (port != null) {
            JsonNode id = first(port.get("id"));
            if (id != null) {
                d.portIdType = text(id.get("type"));
                d.portId = text(id.get("value"));
            }
            d.portDescr = text(port.get("descr"));
        }
        return d.build();
    }

    /** The node itself, or each element of an array; nothing for null. */
    private static List<JsonNode> each(JsonNode n) {
        List<JsonNode> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (n.isArray()) {
            n.forEach(out::add);
        } else {
            out.add(n);
        }
        return out;
    }

    private static JsonNode first(JsonNode n) {
        List<JsonNode> all = each(n);
        return all.isEmpty() ? null : all.get(0);
    }

    /** A value as text: a string, a number or boolean, {@code {"value": ...}} (json0), or the first of an array. */
    private static String text(JsonNode n) {
        JsonNode v = first(n);
        if (v == null) {
            return "";
        }
        if (v.isObject()) {
            v = v.get("value");
        }
        return v == null || v.isContainerNode() ? "" : v.asText().strip();
    }

    /** Finds the line each interface's entry starts on, in order, so evidence names a line. */
    private static final class Locator {
        private final String source;
        private final LldpSections.Section s;
        private int from;

        Locator(String source, LldpSections.Section s) {
            this.source = source;
            this.s = s;
        }

        Evidence find(String iface) {
            String quoted = "\"" + iface + "\"";
            for (int i = from; i < s.lines().size(); i++) {
                String t = s.lines().get(i).strip();
                if (t.startsWith(quoted + ":") || t.startsWith("{" + quoted + ":") || t.startsWith("\"name\": " + quoted)
                        || t.startsWith("\"name\":" + quoted)) {
                    from = i + 1;
                    return Evidence.at(source, s.firstLine() + i, s.lines().get(i).strip());
                }
            }
            return Evidence.at(source, s.firstLine(), "interface " + iface);
        }
    }
}
