package org.fabricscope.importers.lldp;

import org.fabricscope.importers.core.CountingInputStream;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.evidence.NetInterface;
import org.fabricscope.model.fabric.NetdevLink;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * iproute2's {@code ip -d link show}, {@code ip link}, {@code ip addr} and their JSON ({@code ip -j addr},
 * {@code ip -d -j link}, pretty or not), per host: each netdev's MTU, state, MAC and addresses (IPv4 and IPv6),
 * which give the RoCE fabric its hosts' MTUs ({@code roce-mtu-mismatch}) and join a GID's IP address to its netdev.
 * One host per file, or many hosts' outputs in one file after the node markers of the LLDP readers
 * ({@link LldpSections}); the host is the marker's, else the file's folder or name. The netdevs also go to the
 * host's evidence as the {@code ip-addr} reader's do. Taken over {@code ip-addr} (which keeps a single host's
 * plain {@code ip addr} and the one-line {@code -o} forms) when the output is JSON, has {@code ip -d}'s detail
 * ({@code promiscuity}, {@code minmtu}) or node markers. Source: iproute2 {@code ip/ipaddress.c}
 * ({@code print_linkinfo}, {@code print_addrinfo}: the {@code ifname}, {@code mtu}, {@code operstate},
 * {@code address}, {@code addr_info[].local}/{@code prefixlen} JSON keys) and {@code ip-link(8)},
 * {@code ip-address(8)}; real output of iproute2 6.1.0 (Debian 12) in {@code sample-fabrics/roce-lldp}.
 */
public final class IpLinkReader implements FormatReader {
    public static final String ID = "ip-link";
    /** Largest file read; a larger one is not read, with a diagnostic naming this. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;
    /** Largest MTU taken (Linux's is a 32-bit value; real ones are at most 65,536): past it the MTU is unknown, with a diagnostic. */
    public static final int MAX_MTU = 1 << 20;
    /** Addresses kept per netdev; the rest are dropped with a diagnostic. */
    public static final int MAX_ADDRESSES = 1000;
    static final Pattern LINK = Pattern.compile("^\\d{1,9}: ([^:@\\s]{1,64})(?:@\\S*)?: <([A-Z0-9_,-]*)> mtu (\\d+)\\b.*$");
    private static final Pattern DETAIL = Pattern.compile("^\\s+(?:link/\\S+ .*\\b(?:promiscuity \\d|minmtu \\d)|.*\\bminmtu \\d+ maxmtu \\d).*$");
    private static final Pattern JSON_IP = Pattern.compile("^\\[\\s*\\{.*\"ifname\"\\s*:.*$|^\\[\\s*\\{?\\s*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ip -d link / ip -j addr (per host, RoCE netdevs)";
    }

    @Override
    public int maxConfidence() {
        return 80;
    }

    @Override
    public int confidence(Head head) {
        boolean link = false;
        boolean detail = false;
        boolean marker = false;
        boolean ifname = false;
        int content = 0;
        boolean jsonStart = false;
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (LldpSections.marker(t) != null) {
                marker = true;
                continue;
            }
            content++;
            if (content == 1 && JSON_IP.matcher(t).matches()) {
                jsonStart = true;
            }
            ifname |= t.contains("\"ifname\"") && (t.contains("\"ifindex\"") || t.contains("\"mtu\"") || jsonStart);
            link |= LINK.matcher(t).matches();
            detail |= DETAIL.matcher(l).matches();
        }
        if (jsonStart && ifname) {
            return 80;
        }
        return link && (detail || marker) ? 70 : NONE;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        List<String> lines = readLines(in, MAX_BYTES);
        if (lines == null) {
            ctx.report(Diagnostic.warning(ctx.source(), 0, "file larger than " + MAX_BYTES
                    + " bytes (IpLinkReader.MAX_BYTES): not read; split it per host"));
            return;
        }
        LldpFabric fabric = ctx.state(LldpFabric.class, LldpFabric::new);
        for (LldpSections.Section s : LldpSections.split(lines, LldpSections.hostFromPath(ctx.source()))) {
            if (ctx.cancellation().isCancelled()) {
                throw new ImportCancelledException();
            }
            int first = s.markerLine() > 0 ? s.markerLine() : s.firstLine();
            if (s.node().isEmpty()) {
                ctx.report(Diagnostic.warning(ctx.source(), first, "ip link / ip addr output without its host's name: put the "
                        + "file in a folder named after the host (gpu-node-01/ip-d-link.txt) or write a line \"==> gpu-node-01 <==\" "
                        + "before its output; skipped"));
                continue;
            }
            List<NetdevLink> links = isJson(s.lines()) ? IpLinkJson.parse(ctx, s) : IpLinkText.parse(ctx, s);
            List<NetInterface> ifaces = new ArrayList<>();
            for (NetdevLink l : links) {
                fabric.netdevLink(s.node(), l);
                ifaces.add(new NetInterface(l.netdev(), l.state(), l.addresses(), l.evidence()));
            }
            if (!ifaces.isEmpty()) {
                var draft = ctx.builder().hostEvidence().file(ctx.source(), List.of(s.node()));
                ifaces.forEach(draft::iface);
            }
        }
    }

    /**
     * The stream's lines (split at {@code \n}, a {@code \r} before it dropped, the text after the last one a line of
     * its own, as {@code split("\r?\n", -1)} splits), or null once more than {@code max} bytes were read. Decoded
     * as it is read: the lines are the only copy of the file held, where reading it whole first held its bytes, a
     * String of them and the lines at once (three copies of up to 64 MiB).
     */
    static List<String> readLines(InputStream in, long max) throws IOException {
        CountingInputStream counted = new CountingInputStream(in);
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        char[] buf = new char[16 * 1024];
        // not closed here: the stream is the caller's (a bundle's member must not close the bundle)
        java.io.Reader r = new java.io.InputStreamReader(counted, StandardCharsets.UTF_8);
        int n;
        while ((n = r.read(buf)) > 0) {
            if (counted.count() > max) {
                return null;
            }
            for (int i = 0; i < n; i++) {
                char c = buf[i];
                if (c == '\n') {
                    int end = line.length();
                    lines.add(line.substring(0, end > 0 && line.charAt(end - 1) == '\r' ? end - 1 : end));
                    line.setLength(0);
                } else {
                    line.append(c);
                }
            }
        }
        if (counted.count() > max) {
            return null;
        }
        lines.add(line.toString());
        return lines;
    }

    /**
     * The stream's bytes, or null once more than {@code max} were read; read in 64 KiB pieces, so that a small file
     * costs a small buffer (asking {@code readNBytes} for {@code max} bytes may allocate them up front).
     */
    static byte[] readAll(InputStream in, long max) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (out.size() + (long) n > max) {
                return null;
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private static boolean isJson(List<String> lines) {
        for (String l : lines) {
            String t = l.strip();
            if (!t.isEmpty()) {
                return t.startsWith("[") || t.startsWith("{");
            }
        }
        return false;
    }

    /** An MTU's digits as an int, or -1 with a diagnostic when past {@link #MAX_MTU}. */
    static int mtu(String digits, ReadContext ctx, int line, String host, String netdev) {
        String d = digits.strip();
        if (d.length() <= 9 && d.chars().allMatch(Character::isDigit) && !d.isEmpty()) {
            int v = Integer.parseInt(d);
            if (v <= MAX_MTU) {
                return v;
            }
        }
        ctx.report(Diagnostic.warning(ctx.source(), line, host + " " + netdev + ": MTU " + (d.length() > 24 ? d.substring(0, 21) + "..." : d)
                + " is not a size up to " + MAX_MTU + " (IpLinkReader.MAX_MTU): its MTU is taken as unknown"));
        return -1;
    }
}
