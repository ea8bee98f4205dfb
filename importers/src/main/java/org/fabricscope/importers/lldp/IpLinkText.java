package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.NetdevLink;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain text of {@code ip link}, {@code ip -d link} and {@code ip addr}: a {@code 2: ens1f0np0@if97:
 * <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc ... state UP ...} line per netdev, then indented
 * {@code link/ether MAC brd ...}, {@code inet 192.168.10.1/24 ...} and {@code inet6 fe80::.../64 ...} lines
 * (iproute2 {@code ip/ipaddress.c}).
 */
final class IpLinkText {
    private static final Pattern STATE = Pattern.compile(" state ([A-Z]+)\\b");
    private static final Pattern ETHER = Pattern.compile("^\\s+link/(?:ether|infiniband) ([0-9a-fA-F:]{11,59})\\b.*$");
    private static final Pattern ADDR = Pattern.compile("^\\s+inet6? ([0-9a-fA-F.:]{2,45}(?:/\\d{1,3})?)\\b.*$");

    private IpLinkText() {
    }

    static List<NetdevLink> parse(ReadContext ctx, LldpSections.Section s) {
        List<NetdevLink> out = new ArrayList<>();
        Draft d = null;
        for (int i = 0; i < s.lines().size(); i++) {
            String line = s.lines().get(i);
            int n = s.firstLine() + i;
            Matcher m = IpLinkReader.LINK.matcher(line.strip());
            if (m.matches()) {
                if (d != null) {
                    out.add(d.done(ctx));
                }
                String t = line.strip();
                Matcher st = STATE.matcher(t);
                d = new Draft(s.node(), m.group(1), IpLinkReader.mtu(m.group(3), ctx, n, s.node(), m.group(1)),
                        st.find() ? st.group(1) : "", Evidence.at(ctx.source(), n, t.length() > 300 ? t.substring(0, 300) : t));
                continue;
            }
            if (d == null) {
                continue;
            }
            m = ETHER.matcher(line);
            if (m.matches() && d.mac.isEmpty()) {
                d.mac = m.group(1).toLowerCase(java.util.Locale.ROOT);
                continue;
            }
            m = ADDR.matcher(line);
            if (m.matches()) {
                d.address(m.group(1), n);
            }
        }
        if (d != null) {
            out.add(d.done(ctx));
        }
        return out;
    }

    /** One netdev's fields, gathered until the next netdev starts. */
    static final class Draft {
        final String host;
        final String netdev;
        final int mtu;
        final String state;
        final Evidence evidence;
        String mac = "";
        final List<String> addresses = new ArrayList<>();
        int droppedAt;
        int dropped;

        Draft(String host, String netdev, int mtu, String state, Evidence evidence) {
            this.host = host;
            this.netdev = netdev;
            this.mtu = mtu;
            this.state = state;
            this.evidence = evidence;
        }

        void address(String a, int line) {
            if (addresses.size() < IpLinkReader.MAX_ADDRESSES) {
                if (!addresses.contains(a)) {
                    addresses.add(a);
                }
            } else if (dropped++ == 0) {
                droppedAt = line;
            }
        }

        NetdevLink done(ReadContext ctx) {
            if (dropped > 0) {
                ctx.report(Diagnostic.warning(ctx.source(), droppedAt, host + " " + netdev + ": more than "
                        + IpLinkReader.MAX_ADDRESSES + " addresses (IpLinkReader.MAX_ADDRESSES): " + dropped + " not kept"));
            }
            return new NetdevLink(netdev, mtu, state, mac, addresses, evidence);
        }
    }
}
