package org.fabricscope.importers.ibnet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.ImportState;
import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.NodeKind;

/**
 * A {@code --node-name-map} file: {@code <guid> "<name>"} lines, {@code #} comments. Applied as
 * ibnetdiscover applies it: switch and router names are replaced; a CA keeps the NodeDescription
 * its own header printed (host names are read from it), and takes the mapped name only if no file
 * gave it one.
 */
public final class NodeNameMap extends LineImporter implements ImportState {
    private static final Pattern LINE = Pattern.compile("^(?:0x)?([0-9a-fA-F]{1,16})\\s+\"(.*)\"\\s*(?:#.*)?$");

    private final Map<Long, String> names = new LinkedHashMap<>();

    @Override
    protected void line(String raw) {
        String l = content(raw);
        Matcher m = l == null ? null : matchOrReport(LINE, l, "a node-name-map line like 0x0002c90200400000 \"leaf-01\"");
        if (m == null) {
            return;
        }
        names.put(Guids.parse(m.group(1)), m.group(2));
    }

    public Map<Long, String> names() {
        return names;
    }

    /** Renames the builder's nodes. */
    @Override
    public void applyTo(FabricModelBuilder b) {
        for (Map.Entry<Long, String> e : names.entrySet()) {
            FabricNode n = b.findNode(e.getKey());
            if (n == null) {
                continue;
            }
            if (n.kind() == NodeKind.CA) {
                b.offerDescription(n, e.getValue());
            } else {
                b.setDescription(n, e.getValue());
            }
        }
    }
}
