package org.fabricscope.importers.logs;

import static org.fabricscope.importers.logs.NcclLogParser.num;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.Ring;
import org.fabricscope.model.training.RingNeighbor;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.fabricscope.model.training.Transport;
import org.fabricscope.model.training.TreeNode;

/**
 * The NCCL INFO lines that lay out a communicator's channels: a channel's link to a peer
 * ({@code Channel 00/0 : 0[0] -> 1[1] via P2P/IPC}, 2.5-2.6's {@code Ring 00 : 155[3d000] -> 157[b2000]
 * via ...}), a ring's order ({@code Channel 00/02 : 0 1 2 3}) and a rank's step on it
 * ({@code Ring 00 : 3 -> 0 -> 1}), its trees ({@code Trees [0] ...}, {@code Tree 0 : ...}) and
 * {@code Connected all rings/trees}. They go to the log under the communicator their process is
 * setting up; up to NCCL 2.17, which prints them before the {@code Init COMPLETE} that names it,
 * they wait on the process until then.
 */
final class NcclChannelLines {
    static final Pattern CHANNEL = Pattern.compile(
            "^(?:Channel|Ring) (\\d+)(?:/\\d+)? : (\\d+)\\[([0-9a-fA-F]+)\\] -> (\\d+)\\[([0-9a-fA-F]+)\\](?: \\[(send|receive)\\])? via (.+?)\\s*$");
    private static final Pattern NET_VIA = Pattern.compile("^NET/[^/]+/(\\d+)(?:\\((\\d+)\\))?");
    private static final Pattern TREE_ENTRY = Pattern.compile(
            "\\[(\\d+)\\] (-?\\d+)/(-?\\d+)/(-?\\d+)->(\\d+)->(-?\\d+)(?:\\|(-?\\d+)->\\d+->(-?\\d+)/(-?\\d+)/(-?\\d+))?");

    private final TrainingLogBuilder log;
    /** The evidence of a raw line, citing the line being read. */
    private final Function<String, Evidence> evidenceOf;
    /** The hand-written readers of links and {@code Trees} lines; null: every line goes to the expressions. */
    private final NcclChannelScan scan;
    /** The tree nodes' children and the rings' orders, shared between records that hold the same. */
    private final RankLists ranks = new RankLists();

    NcclChannelLines(TrainingLogBuilder log, Function<String, Evidence> evidenceOf) {
        this(log, evidenceOf, true);
    }

    /** With {@code fast} false the expressions read every line (to hold the hand-written readers to them in tests). */
    NcclChannelLines(TrainingLogBuilder log, Function<String, Evidence> evidenceOf, boolean fast) {
        this.log = log;
        this.evidenceOf = evidenceOf;
        this.scan = fast ? new NcclChannelScan(ranks) : null;
    }

    /**
     * Reads the message of process {@code p} that starts at {@code at} in {@code l} (its first character
     * {@code c0}) if it is a channel, ring, tree or {@code Connected all} line; false when it is none of them.
     * Links and {@code Trees} lines go to {@link NcclChannelScan} first; what it does not read in full, to
     * the expressions.
     */
    boolean line(NcclProcessState p, char c0, String l, int at, String raw) {
        Matcher m;
        if (c0 == 'C' && l.startsWith("Channel ", at)) {
            if (scan != null && scan.link(l, at + 8)) {
                scanned(p, raw);
            } else if (l.indexOf(" via ", at) < 0) {
                ringOrder(p, l, at, raw);
            } else if ((m = CHANNEL.matcher(l.substring(at))).find()) {
                link(p, m, raw);
            }
        } else if (c0 == 'R' && l.startsWith("Ring ", at)) {
            if (scan != null && scan.link(l, at + 5)) { // 2.5-2.6: Ring 00 : 155[3d000] -> 157[b2000] via P2P/IPC
                scanned(p, raw);
            } else if (l.indexOf(" via ", at) < 0) {
                ringStep(p, l, at, raw);
            } else if ((m = CHANNEL.matcher(l.substring(at))).find()) {
                link(p, m, raw);
            }
        } else if (c0 == 'T' && l.startsWith("Tree", at)) {
            trees(p, l, at, raw);
        } else if (c0 == 'C' && l.startsWith("Connected all ", at)) {
            boolean trees = l.startsWith("trees", at + 14);
            if (trees || l.startsWith("rings", at + 14)) {
                if (p.placed()) {
                    log.markConnected(p.currentComm, p.currentRank, trees);
                } else if (trees) {
                    p.pendingTreesConnected = true;
                } else {
                    p.pendingRingsConnected = true;
                }
            }
        } else {
            return false;
        }
        return true;
    }

    /** The link {@link #scan} just read. */
    private void scanned(NcclProcessState p, String raw) {
        NcclChannelScan s = scan;
        Transport t = Transport.ofVia(s.via);
        if (t == null) {
            return;
        }
        add(p, new ChannelLink(p.currentComm, s.channel, s.fromRank, s.toRank, t, s.via, s.device, s.proxyRank,
                s.direction, s.fromDev, s.toDev, p.bracketIsBusId(s.fromDev), evidence(raw)));
    }

    private void link(NcclProcessState p, Matcher m, String raw) {
        String via = m.group(7);
        Transport t = Transport.ofVia(via);
        if (t == null) {
            return;
        }
        int device = -1;
        int proxy = -1;
        if (via.startsWith("NET/")) {
            Matcher dev = NET_VIA.matcher(via);
            if (dev.find()) {
                device = num(dev.group(1), "net device");
                proxy = dev.group(2) == null ? -1 : num(dev.group(2), "proxy rank");
            }
        }
        String from = m.group(3);
        add(p, new ChannelLink(p.currentComm, num(m.group(1), "channel"), num(m.group(2), "rank"),
                num(m.group(4), "peer rank"), t, via, device, proxy, m.group(6), from, m.group(5), p.bracketIsBusId(from),
                evidence(raw)));
    }

    private void add(NcclProcessState p, ChannelLink c) {
        if (p.placed()) {
            log.addChannel(c);
        } else {
            p.pendingLinks.add(c);
        }
    }

    private void trees(NcclProcessState p, String l, int at, String raw) {
        List<TreeNode> out = new ArrayList<>();
        Evidence ev = evidence(raw); // one line, one Evidence, however many channels it lists
        if (l.startsWith("Trees", at)) {
            if (scan == null || !scan.trees(l, at + 5, p.currentComm, ev, out)) {
                Matcher m = TREE_ENTRY.matcher(l.substring(at));
                while (m.find()) {
                    int channel = num(m.group(1), "channel");
                    int rank = num(m.group(5), "rank");
                    out.add(new TreeNode(p.currentComm, channel, 0, rank, signed(m.group(6), "tree parent"),
                            downs(m.group(2), m.group(3), m.group(4)), ev));
                    if (m.group(7) != null) { // 2.7 double tree: |up->rank->down0/down1/down2
                        out.add(new TreeNode(p.currentComm, channel, 1, rank, signed(m.group(7), "tree parent"),
                                downs(m.group(8), m.group(9), m.group(10)), ev));
                    }
                }
            }
        } else { // Tree 0 : up -> rank -> down0/down1/down2
            IntScan sc = new IntScan(l, at + 5);
            int channel = sc.num("channel");
            sc.lit(" : ");
            int up = sc.num("tree parent");
            sc.lit(" -> ");
            int rank = sc.num("rank");
            sc.lit(" -> ");
            int d0 = sc.num("tree child");
            sc.lit("/");
            int d1 = sc.num("tree child");
            sc.lit("/");
            int d2 = sc.num("tree child");
            if (sc.ok) {
                out.add(new TreeNode(p.currentComm, channel, 0, rank, up, ranks.children(d0, d1, d2), ev));
            }
        }
        if (p.placed()) {
            out.forEach(log::addTreeNode);
        } else {
            p.pendingTrees.addAll(out);
        }
    }

    private List<Integer> downs(String d0, String d1, String d2) {
        return ranks.children(signed(d0, "tree child"), signed(d1, "tree child"), signed(d2, "tree child"));
    }

    /** {@code Channel 00/02 :    0   1   2   3}: a full ring, printed by rank 0. */
    private void ringOrder(NcclProcessState p, String l, int at, String raw) {
        IntScan sc = new IntScan(l, at + 8);
        int channel = sc.num("channel");
        sc.lit("/");
        int n = sc.num("channel count");
        sc.lit(" :");
        List<Integer> order = new ArrayList<>();
        while (sc.ok && sc.spaces() > 0 && !sc.atEnd()) {
            order.add(sc.num("rank"));
        }
        if (!sc.ok || order.isEmpty() || !sc.atEnd()) {
            return;
        }
        Ring r = new Ring(p.currentComm, channel, n, ranks.order(order), evidence(raw));
        if (p.placed()) {
            log.addRing(r);
        } else {
            p.pendingRings.add(r);
        }
    }

    /** {@code Ring 00 : 3 -> 0 -> 1}: a rank's previous and next rank on one ring. */
    private void ringStep(NcclProcessState p, String l, int at, String raw) {
        IntScan sc = new IntScan(l, at + 5);
        int channel = sc.num("channel");
        sc.lit(" : ");
        int prev = sc.num("rank");
        sc.lit(" -> ");
        int rank = sc.num("rank");
        sc.lit(" -> ");
        int next = sc.num("rank");
        sc.spaces();
        if (!sc.ok || !sc.atEnd()) {
            return;
        }
        RingNeighbor r = new RingNeighbor(p.currentComm, channel, rank, prev, next, evidence(raw));
        if (p.placed()) {
            log.addRingNeighbor(r);
        } else {
            p.pendingSteps.add(r);
        }
    }

    /** Places what a process printed before its communicator was named. */
    void flushPending(NcclProcessState p, String commId, int rank) {
        if (!p.hasPending()) {
            return;
        }
        p.pendingLinks.forEach(c -> log.addChannel(c.withComm(commId)));
        p.pendingRings.forEach(r -> log.addRing(r.withComm(commId)));
        p.pendingSteps.forEach(r -> log.addRingNeighbor(r.withComm(commId)));
        p.pendingTrees.forEach(t -> log.addTreeNode(t.withComm(commId)));
        if (p.pendingRingsConnected) {
            log.markConnected(commId, rank, false);
        }
        if (p.pendingTreesConnected) {
            log.markConnected(commId, rank, true);
        }
        p.pendingLinks.clear();
        p.pendingRings.clear();
        p.pendingSteps.clear();
        p.pendingTrees.clear();
        p.pendingRingsConnected = false;
        p.pendingTreesConnected = false;
    }

    /** A signed C int ({@code -1} is NCCL's "none" in tree lines). */
    private static int signed(String text, String field) {
        return Numbers.checkedInt(text, field);
    }

    private Evidence evidence(String raw) {
        return evidenceOf.apply(raw);
    }
}
