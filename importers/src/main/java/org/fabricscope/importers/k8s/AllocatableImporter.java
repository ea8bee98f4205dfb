package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.JsonTrees;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.k8s.Quantity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads a node's allocatable map as {@code kubectl get node X -o jsonpath='{.status.allocatable}'}
 * prints it: one line of compact JSON with sorted keys and string quantities
 * ({@code {"aliyun/erdma":"200","cpu":"15890m",...}}), the same object pretty-printed by
 * {@code jq}, or old kubectl's Go syntax ({@code map[cpu:15890m memory:128290128Ki]}). Several
 * maps may follow each other, each after a line with its node name (what a shell loop over nodes
 * prints). Otherwise the node name comes from the file name: {@code node-a.allocatable.json},
 * {@code node-a-allocatable.txt} or {@code node-a/allocatable.json}.
 */
public final class AllocatableImporter {
    private static final Pattern GO_MAP = Pattern.compile("^map\\[(.*)\\]$");
    private static final Pattern NAME_LINE = Pattern.compile("^(?:node/)?([A-Za-z0-9][A-Za-z0-9._-]*):?$");

    public void read(InputStream in, String source, FabricModelBuilder builder) throws IOException {
        byte[] bytes = in.readNBytes(4 * 1024 * 1024 + 1);
        if (bytes.length > 4 * 1024 * 1024) {
            builder.diagnostic(Diagnostic.error(source, 0, "larger than 4 MiB: not an allocatable map; not read"));
            return;
        }
        String text = new String(bytes, StandardCharsets.UTF_8).replace("\uFEFF", "");
        String[] lines = text.split("\r\n|\r|\n", -1); // LF, CRLF or a lone CR
        String fileNode = nodeFromFileName(source);
        String pendingName = null;
        int maps = 0;
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            int lineNo = i + 1;
            if (l.isEmpty()) {
                continue;
            }
            Map<String, Quantity> map = null;
            String inlineName = null;
            if (l.equals("{")) { // jq's pretty form: gather to the closing brace
                StringBuilder sb = new StringBuilder();
                int j = i;
                for (; j < lines.length; j++) {
                    sb.append(lines[j]).append('\n');
                    if (lines[j].strip().equals("}")) {
                        break;
                    }
                }
                map = json(sb.toString(), source, lineNo, builder);
                l = sb.toString().replaceAll("\\s+", "");
                i = j;
            } else if (l.startsWith("{")) {
                map = json(l, source, lineNo, builder);
            } else if (l.startsWith("map[")) {
                map = goMap(l, source, lineNo, builder);
            } else {
                Matcher n = NAME_LINE.matcher(l);
                int brace = l.indexOf('{');
                if (brace > 0 && NAME_LINE.matcher(l.substring(0, brace).strip()).matches()) {
                    Matcher nn = NAME_LINE.matcher(l.substring(0, brace).strip());
                    nn.matches();
                    inlineName = nn.group(1);
                    map = json(l.substring(brace), source, lineNo, builder);
                    l = l.substring(brace);
                } else if (n.matches()) {
                    pendingName = n.group(1);
                    continue;
                } else {
                    builder.diagnostic(Diagnostic.warning(source, lineNo, "expected the allocatable map "
                            + "({\"cpu\":\"...\",\"memory\":\"...\",...}) or a node name; got: " + shorten(l)));
                    continue;
                }
            }
            if (map == null) {
                continue;
            }
            String node = inlineName != null ? inlineName : pendingName != null ? pendingName : fileNode;
            pendingName = null;
            if (maps > 0 && inlineName == null && node.equals(fileNode)) {
                builder.diagnostic(Diagnostic.warning(source, lineNo, "a second allocatable map with no node name line "
                        + "before it; it replaces the first for node " + node));
            }
            builder.k8s().allocatable(node, map, Evidence.at(source, lineNo, shorten(l)));
            maps++;
        }
        if (maps == 0) {
            builder.diagnostic(Diagnostic.warning(source, 1, "no allocatable map found"));
        }
    }

    private static String shorten(String s) {
        return s.length() > 400 ? s.substring(0, 397) + "..." : s;
    }

    private static Map<String, Quantity> json(String text, String source, int line, FabricModelBuilder b) {
        try {
            JsonNode n;
            try (com.fasterxml.jackson.core.JsonParser p = KubeMappers.jsonFactory().createParser(text)) {
                n = JsonTrees.readNext(p);
            }
            if (n == null || !n.isObject()) {
                b.diagnostic(Diagnostic.warning(source, line, "expected a JSON object of resource quantities"));
                return null;
            }
            return KubeSpecs.quantities(n, source, line, "allocatable", b);
        } catch (JsonProcessingException e) {
            int col = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
            b.diagnostic(Diagnostic.warning(source, line + (e.getLocation() == null ? 0 : Math.max(0, e.getLocation().getLineNr() - 1)),
                    "malformed allocatable JSON" + (col > 0 ? " at column " + col : "") + ": "
                            + e.getOriginalMessage().lines().findFirst().orElse("")));
            return null;
        } catch (IOException e) {
            // a parser of a String has no I/O to fail: its own errors are the JsonProcessingExceptions above
            b.diagnostic(Diagnostic.warning(source, line, "malformed allocatable JSON: " + e.getMessage()));
            return null;
        }
    }

    private static Map<String, Quantity> goMap(String l, String source, int line, FabricModelBuilder b) {
        Matcher m = GO_MAP.matcher(l);
        if (!m.matches()) {
            b.diagnostic(Diagnostic.warning(source, line, "expected map[name:quantity ...]; got: " + shorten(l)));
            return null;
        }
        Map<String, Quantity> out = new TreeMap<>();
        for (String kv : m.group(1).trim().split("\\s+")) {
            int colon = kv.lastIndexOf(':');
            Quantity q = colon > 0 ? Quantity.tryParse(kv.substring(colon + 1)) : null;
            if (q == null) {
                b.diagnostic(Diagnostic.warning(source, line, "expected name:quantity; got " + kv));
            } else {
                out.put(kv.substring(0, colon), q);
            }
        }
        return out;
    }

    /** {@code dir/node-a.allocatable.json} -> node-a; {@code node-a/allocatable.json} -> node-a. */
    static String nodeFromFileName(String source) {
        String s = source.replace('\\', '/');
        int bang = s.lastIndexOf("!/");
        String inner = bang >= 0 ? s.substring(bang + 2) : s;
        String[] parts = inner.split("/");
        String base = parts[parts.length - 1];
        String stem = base.replaceFirst("(?i)\\.(json|txt|out|log)$", "");
        String lower = stem.toLowerCase(Locale.ROOT);
        if (lower.equals("allocatable") && parts.length >= 2) {
            return parts[parts.length - 2];
        }
        if (lower.equals("allocatable") && bang >= 0) {
            String outer = s.substring(0, bang).replaceFirst(".*/", "");
            return outer.replaceFirst("(?i)\\.(tar\\.gz|tgz|tar|zip)$", "");
        }
        String node = stem.replaceFirst("(?i)[._-]allocatable$", "");
        return node.isEmpty() ? stem : node;
    }
}
