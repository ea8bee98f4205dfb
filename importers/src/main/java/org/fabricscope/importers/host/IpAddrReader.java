package org.fabricscope.importers.host;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.NetInterface;

/**
 * iproute2's {@code ip addr show} / {@code ip link show} ({@code 2: eth0@if12: <BROADCAST,UP,LOWER_UP> mtu 1500
 * ... state UP ...} with indented {@code inet 10.0.1.5/24 ...} lines) and the one-line forms
 * {@code ip -o addr} ({@code 2: eth0    inet 10.0.1.5/24 brd ... scope global eth0\ ...}) and
 * {@code ip -o link}: the interfaces, their state and addresses.
 */
public final class IpAddrReader extends HostEvidenceReader {
    public static final String ID = "ip-addr";
    private static final Pattern LINK = Pattern.compile("^\\d{1,9}: ([^:@\\s]{1,64})(?:@\\S*)?: <([A-Z0-9_,-]*)> mtu (\\d{1,7}).*$");
    private static final Pattern ONELINE_ADDR = Pattern.compile("^\\d{1,9}: ([^:@\\s]{1,64})\\s+(inet6?) (\\S+).*$");
    private static final Pattern ADDR = Pattern.compile("^\\s+(inet6?) (\\S+).*$");
    private static final Pattern STATE = Pattern.compile(" state ([A-Z]+)\\b");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ip addr / ip -o addr / ip -o link";
    }

    @Override
    public int maxConfidence() {
        return 65;
    }

    @Override
    public int confidence(Head head) {
        for (String l : content(head)) {
            if (LINK.matcher(l).matches() || ONELINE_ADDR.matcher(l).matches()) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        String[] current = {null};
        String[] state = {""};
        int[] mtu = {-1};
        Evidence[] first = {null};
        List<String> addrs = new ArrayList<>();
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                Matcher m = LINK.matcher(line);
                if (m.matches()) {
                    end();
                    current[0] = m.group(1);
                    mtu[0] = Integer.parseInt(m.group(3));
                    Matcher s = STATE.matcher(line);
                    state[0] = s.find() ? s.group(1) : "";
                    first[0] = at;
                    if (line.contains("\\")) { // ip -o link: one line per interface
                        end();
                    }
                    return;
                }
                m = ONELINE_ADDR.matcher(line);
                if (m.matches()) {
                    end();
                    draft.iface(new NetInterface(m.group(1), "", List.of(m.group(3)), at));
                    return;
                }
                m = ADDR.matcher(line);
                if (m.matches() && current[0] != null && addrs.size() < 1000) {
                    addrs.add(m.group(2));
                }
            }

            @Override
            public void end() {
                if (current[0] != null) {
                    draft.iface(new NetInterface(current[0], state[0], addrs, first[0], mtu[0]));
                }
                current[0] = null;
                addrs.clear();
            }
        };
    }
}
