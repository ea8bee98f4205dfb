package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.NetdevLink;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * iproute2's JSON ({@code ip -j addr}, {@code ip -j -d link}, with or without {@code -p}): an array of objects with
 * {@code ifname}, {@code mtu}, {@code operstate}, {@code address} (the MAC) and, from {@code ip addr},
 * {@code addr_info} entries with {@code local} and {@code prefixlen} (iproute2 {@code ip/ipaddress.c}). Each
 * netdev's evidence is the line its object starts on ({@code ip -j} prints one line, so every netdev cites it).
 */
final class IpLinkJson {
    private IpLinkJson() {
    }

    static List<NetdevLink> parse(ReadContext ctx, LldpSections.Section s) {
        List<NetdevLink> out = new ArrayList<>();
        JsonTree.Node root;
        try {
            root = JsonTree.parse(String.join("\n", s.lines()), s.firstLine());
        } catch (JsonTree.Malformed e) {
            ctx.report(Diagnostic.warning(ctx.source(), e.line, s.node() + "'s ip -j output: " + e.getMessage()
                    + "; this host's output skipped, the file's other hosts read"));
            return out;
        }
        if (!root.isArray()) {
            ctx.report(Diagnostic.warning(ctx.source(), root.line(), s.node() + "'s ip -j output is not a JSON array of "
                    + "netdevs (ip -j addr / ip -j -d link print one); skipped"));
            return out;
        }
        for (JsonTree.Node dev : root.items()) {
            String name = dev.str("ifname");
            if (!dev.isObject() || name.isEmpty() || name.length() > 64) {
                ctx.report(Diagnostic.warning(ctx.source(), dev.line(), s.node() + ": an entry without an \"ifname\" "
                        + "(of at most 64 characters); skipped"));
                continue;
            }
            int mtu = -1;
            JsonTree.Node m = dev.get("mtu");
            if (m != null && m.isScalar() && m.text() != null) {
                mtu = IpLinkReader.mtu(m.text(), ctx, m.line(), s.node(), name);
            }
            IpLinkText.Draft d = new IpLinkText.Draft(s.node(), name, mtu, dev.str("operstate"),
                    Evidence.at(ctx.source(), dev.line(), "ifname " + name + (mtu >= 0 ? " mtu " + mtu : "")
                            + (dev.str("operstate").isEmpty() ? "" : " operstate " + dev.str("operstate"))));
            String mac = dev.str("address");
            d.mac = mac.length() <= 59 && mac.matches("[0-9a-fA-F:]+") ? mac.toLowerCase(Locale.ROOT) : "";
            JsonTree.Node addrs = dev.get("addr_info");
            if (addrs != null && addrs.isArray()) {
                for (JsonTree.Node a : addrs.items()) {
                    String local = a.str("local");
                    String prefix = a.str("prefixlen");
                    if (!local.isEmpty() && local.length() <= 45 && local.matches("[0-9a-fA-F.:]+")) {
                        d.address(local + (prefix.matches("\\d{1,3}") ? "/" + prefix : ""), a.line());
                    }
                }
            }
            out.add(d.done(ctx));
        }
        return out;
    }
}
