package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * SONiC's configuration database as JSON: {@code /etc/sonic/config_db.json}, or what {@code show
 * runningconfiguration all} prints (the same tables). Read: {@code DEVICE_METADATA.localhost.hostname} (the
 * switch; else the file's folder or name), the {@code PORT} table ({@code mtu}, {@code admin_status},
 * {@code alias}, {@code speed}), {@code PORT_QOS_MAP} ({@code pfc_enable}, e.g. {@code "3,4"}; a key may list
 * several ports, {@code "Ethernet0,Ethernet4"}) and {@code DEVICE_NEIGHBOR}, the neighbour the plan expects per
 * port: keyed by the local port with {@code name} and {@code port}, or, in older files, keyed by the neighbour's
 * name with {@code local_port} and {@code port}. The redis dump form ({@code "PORT|Ethernet0": {...}}) is read too,
 * and a multi-ASIC {@code show runningconfiguration all} ({@code {"localhost": {tables}, "asic0": {tables}}}): the
 * namespaces' tables together, the switch named by {@code localhost}'s.
 * Other tables are ignored. Source: sonic-buildimage {@code src/sonic-yang-models/yang-models/sonic-port.yang},
 * {@code sonic-port-qos-map.yang}, {@code sonic-device_neighbor.yang} and {@code sonic-device_metadata.yang}, and
 * {@code src/sonic-yang-models/doc/Configuration.md} (its "Port QoS Map" and "L2 Neighbors" examples).
 */
public final class SonicConfigDbReader implements FormatReader {
    public static final String ID = "sonic-config-db";
    /** Largest file read (a 512-port switch's config_db.json is about 2 MB); a larger one is not read. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final Pattern TABLE = Pattern.compile(
            "^\\{?\\s*\"(?:DEVICE_METADATA|PORT|PORT_QOS_MAP|DEVICE_NEIGHBOR|BUFFER_PG|BUFFER_POOL|BUFFER_PROFILE|CABLE_LENGTH|"
                    + "DSCP_TO_TC_MAP|FEATURE|FLEX_COUNTER_TABLE|INTERFACE|LOOPBACK_INTERFACE|MGMT_INTERFACE|MGMT_PORT|QUEUE|"
                    + "SCHEDULER|TC_TO_PRIORITY_GROUP_MAP|TC_TO_QUEUE_MAP|VERSIONS|WRED_PROFILE|ACL_TABLE|BGP_NEIGHBOR|"
                    + "CRM|LOOPBACK|NTP|SYSLOG_SERVER|TELEMETRY|VLAN|VLAN_MEMBER|PORTCHANNEL|AUTO_TECHSUPPORT|BREAKOUT_CFG)"
                    + "(?:\\|[^\"]*)?\"\\s*:\\s*\\{?.*$");
    /** A top-level (or, in a multi-ASIC {@code show runningconfiguration all}, second-level) key in SONiC's table style. */
    private static final Pattern TABLE_LIKE = Pattern.compile("^ {0,8}\"[A-Z][A-Z0-9_]{2,}(?:\\|[^\"]*)?\"\\s*:\\s*[\\{\\[].*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "SONiC config_db.json / show runningconfiguration all";
    }

    @Override
    public int maxConfidence() {
        return 85;
    }

    @Override
    public int confidence(Head head) {
        int content = 0;
        int tables = 0;
        int tableLike = 0;
        boolean port = false;
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.isEmpty() || LldpSections.marker(t) != null) {
                continue;
            }
            content++;
            if (content == 1 && !t.startsWith("{")) {
                return NONE;
            }
            if (TABLE.matcher(t).matches()) {
                tables++;
                port |= t.contains("\"PORT") || t.contains("\"DEVICE_METADATA") || t.contains("\"DEVICE_NEIGHBOR");
            }
            if (TABLE_LIKE.matcher(l).matches()) {
                tableLike++;
            }
        }
        // a real config_db.json is sorted: ACL_TABLE, BGP_*, BUFFER_* can fill the head before DEVICE_METADATA and PORT
        return port || tables >= 2 ? 85 : tables >= 1 && tableLike >= 2 ? 75 : NONE;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        byte[] bytes = IpLinkReader.readAll(in, MAX_BYTES);
        if (bytes == null) {
            ctx.report(Diagnostic.warning(ctx.source(), 0, "file larger than " + MAX_BYTES
                    + " bytes (SonicConfigDbReader.MAX_BYTES): not read"));
            return;
        }
        List<String> lines = new ArrayList<>(List.of(new String(bytes, StandardCharsets.UTF_8).split("\r?\n", -1)));
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        for (LldpSections.Section s : LldpSections.split(lines, LldpSections.hostFromPath(ctx.source()))) {
            SonicConfigDb.read(ctx, s, fabric);
        }
    }
}
