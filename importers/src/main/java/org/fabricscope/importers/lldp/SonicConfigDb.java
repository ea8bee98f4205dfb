package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.SwitchPortConfig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.fabricscope.model.core.NaturalOrder;

/** One switch's {@code config_db.json} (a section of the file) read into per-port configuration ({@link SonicConfigDbReader}). */
final class SonicConfigDb {
    /** Ports taken per switch (the largest switches have 512 ports, breakouts up to 2,048); the rest skipped with a diagnostic. */
    static final int MAX_PORTS = 4096;

    private SonicConfigDb() {
    }

    /** A port's parts as they are read, table by table. */
    private static final class Draft {
        int mtu = -1;
        String admin = "";
        String alias = "";
        String speed = "";
        Evidence portAt;
        int pfc = -1;
        Evidence qosAt;
        boolean qosBad;
        String neighbour = "";
        String neighbourPort = "";
        Evidence neighbourAt;
    }

    static void read(ReadContext ctx, LldpSections.Section s, LldpFabric fabric) {
        String src = ctx.source();
        JsonTree.Node root;
        try {
            root = JsonTree.parse(String.join("\n", s.lines()), s.firstLine());
        } catch (JsonTree.Malformed e) {
            ctx.report(Diagnostic.warning(src, e.line, "SONiC config_db.json: " + e.getMessage() + "; skipped"));
            return;
        }
        if (!root.isObject()) {
            ctx.report(Diagnostic.warning(src, root.line(), "SONiC config_db.json is a JSON object of tables; this is not one: skipped"));
            return;
        }
        root = namespaces(root);
        JsonTree.Node meta = table(root, "DEVICE_METADATA").get("localhost");
        String name = meta == null ? "" : meta.str("hostname").strip();
        if (!name.isEmpty() && !name.matches("[A-Za-z0-9][A-Za-z0-9_.:-]{0,253}")) {
            ctx.report(Diagnostic.warning(src, meta.line(), "DEVICE_METADATA.localhost.hostname \"" + cut(name)
                    + "\" is not a host name; the switch is named by the file's folder or name instead"));
            name = "";
        }
        if (name.isEmpty()) {
            name = s.node();
        }
        if (name.isEmpty()) {
            ctx.report(Diagnostic.warning(src, root.line(), "SONiC config_db.json without DEVICE_METADATA.localhost.hostname "
                    + "and in no folder named after the switch (leaf-01/config_db.json): whose it is cannot be told; skipped"));
            return;
        }
        Map<String, JsonTree.Node> port = table(root, "PORT");
        Map<String, JsonTree.Node> qos = table(root, "PORT_QOS_MAP");
        Map<String, JsonTree.Node> neigh = table(root, "DEVICE_NEIGHBOR");
        if (port.isEmpty() && qos.isEmpty() && neigh.isEmpty()) {
            ctx.report(Diagnostic.warning(src, root.line(), name + "'s config_db.json has no PORT, PORT_QOS_MAP or DEVICE_NEIGHBOR "
                    + "table: nothing about its ports was read"));
            return;
        }
        Map<String, Draft> ports = new TreeMap<>(NaturalOrder.INSTANCE);
        int[] skipped = {0, 0};
        for (Map.Entry<String, JsonTree.Node> e : port.entrySet()) {
            JsonTree.Node v = e.getValue();
            Draft d = draft(ports, e.getKey(), v.line(), skipped);
            if (d == null || !v.isObject()) {
                continue;
            }
            JsonTree.Node m = v.get("mtu");
            if (m != null && m.isScalar() && m.text() != null) {
                d.mtu = IpLinkReader.mtu(m.text(), ctx, m.line(), name, e.getKey());
            }
            d.admin = short64(v.str("admin_status"));
            d.alias = short64(v.str("alias"));
            d.speed = short64(v.str("speed"));
            d.portAt = Evidence.at(src, v.line(), "PORT " + e.getKey() + (d.mtu >= 0 ? " mtu " + d.mtu : "")
                    + (d.admin.isEmpty() ? "" : " admin_status " + d.admin));
        }
        for (Map.Entry<String, JsonTree.Node> e : qos.entrySet()) {
            JsonTree.Node v = e.getValue();
            if (e.getKey().equals("global") || !v.isObject()) {
                continue;
            }
            int mask = pfc(v.get("pfc_enable"));
            if (mask == -2) {
                ctx.report(Diagnostic.warning(src, v.get("pfc_enable").line(), name + " PORT_QOS_MAP " + cut(e.getKey())
                        + ": pfc_enable \"" + cut(v.str("pfc_enable")) + "\" is not a list of priorities 0 to 7 (\"3,4\"); "
                        + "PFC on these ports is taken as unknown"));
                for (String p : e.getKey().split(",")) {
                    Draft d = draft(ports, p.strip(), v.line(), skipped);
                    if (d != null) {
                        d.qosBad = true;
                    }
                }
                continue;
            }
            for (String p : e.getKey().split(",")) {
                Draft d = draft(ports, p.strip(), v.line(), skipped);
                if (d != null) {
                    d.pfc = mask;
                    d.qosAt = Evidence.at(src, v.line(), "PORT_QOS_MAP " + cut(e.getKey()) + " pfc_enable \"" + v.str("pfc_enable") + "\"");
                }
            }
        }
        if (!qos.isEmpty()) { // a port the table leaves out has no PFC
            for (Map.Entry<String, Draft> d : ports.entrySet()) {
                if (d.getValue().pfc == -1 && !d.getValue().qosBad && d.getValue().portAt != null) {
                    d.getValue().pfc = 0;
                    d.getValue().qosAt = Evidence.at(src, tableLine(root, "PORT_QOS_MAP"), "PORT_QOS_MAP has no entry for " + d.getKey());
                }
            }
        }
        for (Map.Entry<String, JsonTree.Node> e : neigh.entrySet()) {
            JsonTree.Node v = e.getValue();
            if (!v.isObject()) {
                continue;
            }
            boolean byName = !v.str("local_port").isEmpty(); // older files: keyed by the neighbour's name
            String local = byName ? v.str("local_port") : e.getKey();
            String who = !v.str("name").isEmpty() ? v.str("name") : byName ? e.getKey() : "";
            if (who.isEmpty() || who.length() > 255) {
                ctx.report(Diagnostic.warning(src, v.line(), name + " DEVICE_NEIGHBOR " + cut(e.getKey())
                        + ": no neighbour \"name\" (of at most 255 characters); skipped"));
                continue;
            }
            Draft d = draft(ports, local, v.line(), skipped);
            if (d != null) {
                d.neighbour = who;
                d.neighbourPort = v.str("port").length() > 255 ? "" : v.str("port");
                d.neighbourAt = Evidence.at(src, v.line(), "DEVICE_NEIGHBOR " + local + ": " + who
                        + (d.neighbourPort.isEmpty() ? "" : " " + d.neighbourPort));
            }
        }
        if (skipped[0] > 0) {
            ctx.report(Diagnostic.warning(src, skipped[1], name + ": more than " + MAX_PORTS + " ports (SonicConfigDb.MAX_PORTS) "
                    + "or port names longer than 64 characters; " + skipped[0] + " entries skipped"));
        }
        Map<String, SwitchPortConfig> out = new LinkedHashMap<>();
        for (Map.Entry<String, Draft> e : ports.entrySet()) {
            Draft d = e.getValue();
            out.put(e.getKey(), new SwitchPortConfig(d.mtu, d.admin, d.alias, d.speed, d.portAt, d.pfc, d.qosAt,
                    d.neighbour, d.neighbourPort, d.neighbourAt));
        }
        fabric.switchConfig(name, Evidence.at(src, root.line(), "config_db.json of " + name), out);
    }

    private static Draft draft(Map<String, Draft> ports, String name, int line, int[] skipped) {
        Draft d = ports.get(name);
        if (d != null) {
            return d;
        }
        if (name.isEmpty() || name.length() > 64 || ports.size() >= MAX_PORTS) {
            if (skipped[0]++ == 0) {
                skipped[1] = line;
            }
            return null;
        }
        d = new Draft();
        ports.put(name, d);
        return d;
    }

    private static final java.util.List<String> READ = java.util.List.of("DEVICE_METADATA", "PORT", "PORT_QOS_MAP", "DEVICE_NEIGHBOR");

    /**
     * The root whose tables are read: the file's own, or, when it has none and its values are namespaces' configurations
     * (multi-ASIC {@code show runningconfiguration all}: {@code "localhost"}, {@code "asic0"}, ...), their tables merged,
     * {@code localhost}'s first.
     */
    private static JsonTree.Node namespaces(JsonTree.Node root) {
        for (String t : READ) {
            if (!table(root, t).isEmpty()) {
                return root;
            }
        }
        Map<String, JsonTree.Node> merged = new LinkedHashMap<>();
        for (String t : READ) {
            Map<String, JsonTree.Node> entries = new LinkedHashMap<>();
            int line = root.line();
            for (JsonTree.Node ns : root.fields().values()) {
                if (ns.isObject() && ns.get(t) != null && ns.get(t).isObject()) {
                    if (entries.isEmpty()) {
                        line = ns.get(t).line();
                    }
                    ns.get(t).fields().forEach(entries::putIfAbsent);
                }
            }
            if (!entries.isEmpty()) {
                merged.put(t, new JsonTree.Node(entries, null, null, false, line));
            }
        }
        return merged.isEmpty() ? root : new JsonTree.Node(merged, null, null, false, root.line());
    }

    /** A table's entries, from {@code "TABLE": {key: {...}}} and the redis dump's {@code "TABLE|key": {...}}. */
    private static Map<String, JsonTree.Node> table(JsonTree.Node root, String name) {
        Map<String, JsonTree.Node> out = new LinkedHashMap<>();
        JsonTree.Node t = root.get(name);
        if (t != null && t.isObject()) {
            out.putAll(t.fields());
        }
        String prefix = name + "|";
        for (Map.Entry<String, JsonTree.Node> e : root.fields().entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                out.put(e.getKey().substring(prefix.length()), e.getValue());
            }
        }
        return out;
    }

    private static int tableLine(JsonTree.Node root, String name) {
        JsonTree.Node t = root.get(name);
        return t != null ? t.line() : root.line();
    }

    /** {@code "3,4"} as a mask; 0 for {@code ""} or no field; -2 when not a list of priorities 0..7. */
    static int pfc(JsonTree.Node v) {
        if (v == null || v.text() == null) {
            return 0;
        }
        String t = v.text().strip();
        if (t.isEmpty()) {
            return 0;
        }
        if (t.length() > 64) {
            return -2;
        }
        int mask = 0;
        for (String p : t.split(",")) {
            String q = p.strip();
            if (!q.matches("[0-7]")) {
                return -2;
            }
            mask |= 1 << Integer.parseInt(q);
        }
        return mask;
    }

    private static String short64(String s) {
        return s.length() > 64 ? s.substring(0, 64) : s;
    }

    private static String cut(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
