package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/**
 * A node's allocatable resources as {@code kubectl get node -o jsonpath='{.status.allocatable}'}
 * prints them: a JSON object of resource names to quantity strings (one line, or jq's pretty
 * form), Go's {@code map[cpu:8 ...]}, or a shell loop's output with a node name before each map.
 */
public final class AllocatableReader implements FormatReader {
    public static final String ID = "k8s-allocatable";
    private static final Pattern ALLOCATABLE_GO = Pattern.compile("^map\\[.*\\b(?:cpu|memory|pods):\\S+.*\\]$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "kubectl allocatable map";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.KUBERNETES;
    }

    @Override
    public int maxConfidence() {
        return 95;
    }

    @Override
    public int confidence(Head head) {
        KubeHead k = KubeHead.of(head);
        if (k.first == null) {
            return NONE;
        }
        if (k.json) {
            String text = head.text();
            return !text.contains("\"kind\"") && KubeHead.ALLOCATABLE_KEY.matcher(text).find() ? maxConfidence() : NONE;
        }
        if (ALLOCATABLE_GO.matcher(k.first).matches()) {
            return maxConfidence();
        }
        return shellLoop(k) ? maxConfidence() : NONE;
    }

    /** A shell loop's output: a node name line (or {@code name {...}}) before each one-line map. */
    private static boolean shellLoop(KubeHead k) {
        if (!KubeHead.NODE_NAME_LINE.matcher(k.first).matches() && k.first.indexOf('{') <= 0) {
            return false;
        }
        int maps = 0;
        for (String l : k.head.lines()) {
            String t = l.strip();
            if (t.isEmpty() || KubeHead.NODE_NAME_LINE.matcher(t).matches()) {
                continue;
            }
            int brace = t.indexOf('{');
            if (brace >= 0 && t.endsWith("}") && !t.contains("\"kind\"") && KubeHead.ALLOCATABLE_KEY.matcher(t.substring(brace)).find()
                    && (brace == 0 || KubeHead.NODE_NAME_LINE.matcher(t.substring(0, brace).strip()).matches())) {
                maps++;
            } else {
                return false;
            }
        }
        return maps > 0;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new AllocatableImporter().read(in, ctx.source(), ctx.builder());
    }
}
