package org.fabricscope.model.training;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What NCCL and PyTorch logs say about a training job: ranks, the channels between them with their
 * transports, and the events. Filled by the log importer (several files, any order); read-only
 * through its accessors.
 */
public final class TrainingLog {
    private final Map<String, Rank> ranks = new LinkedHashMap<>();
    private final List<ChannelLink> channels = new ArrayList<>();
    private final List<NcclEvent> events = new ArrayList<>();
    private final List<Ring> rings = new ArrayList<>();
    private final List<RingNeighbor> ringNeighbors = new ArrayList<>();
    private final List<TreeNode> trees = new ArrayList<>();
    private final List<GdrSupport> gdr = new ArrayList<>();
    private final Map<String, Set<Integer>> ringsConnected = new LinkedHashMap<>();
    private final Map<String, Set<Integer>> treesConnected = new LinkedHashMap<>();

    /** Adds or replaces the rank of this communicator and rank number (a COMPLETE line supersedes START). */
    public void putRank(Rank r) {
        String key = r.commId() + "/" + r.rank() + "/" + r.process();
        Rank old = ranks.get(key);
        if (old == null || !old.initCompleted() || r.initCompleted()) {
            ranks.put(key, old == null ? r : merge(old, r));
        }
    }

    private static Rank merge(Rank old, Rank r) {
        Map<String, String> env = new LinkedHashMap<>(old.env());
        env.putAll(r.env());
        return new Rank(r.host(), r.pid(), r.cudaDev(), r.nvmlDev(), r.busId(), r.commId(), r.rank(), r.nranks(),
                r.nNodes() >= 0 ? r.nNodes() : old.nNodes(),
                r.ncclVersion() != null ? r.ncclVersion() : old.ncclVersion(), old.initStarted() || r.initStarted(),
                old.initCompleted() || r.initCompleted(), r.netDevices().isEmpty() ? old.netDevices() : r.netDevices(),
                r.oob() != null ? r.oob() : old.oob(),
                r.network() != null ? r.network() : old.network(), old.noIbDevice() || r.noIbDevice(), env,
                old.evidence() != null ? old.evidence() : r.evidence());
    }

    public void addChannel(ChannelLink c) {
        channels.add(c);
    }

    public void addEvent(NcclEvent e) {
        events.add(e);
    }

    public void addRing(Ring r) {
        rings.add(r);
    }

    public void addRingNeighbor(RingNeighbor r) {
        ringNeighbors.add(r);
    }

    public void addTreeNode(TreeNode t) {
        trees.add(t);
    }

    public void addGdrSupport(GdrSupport g) {
        gdr.add(g);
    }

    /** Records a {@code Connected all rings} ({@code trees} false) or {@code Connected all trees} line of a rank. */
    public void markConnected(String commId, int rank, boolean trees) {
        (trees ? treesConnected : ringsConnected).computeIfAbsent(commId, k -> new java.util.TreeSet<>()).add(rank);
    }

    /** Full ring orders ({@code Channel 00/02 : 0 1 2 3}) of every communicator, in log order. */
    public List<Ring> rings() {
        return Collections.unmodifiableList(rings);
    }

    /** The full ring orders of one communicator. */
    public List<Ring> rings(String commId) {
        return rings.stream().filter(r -> r.commId().equals(commId)).toList();
    }

    /** Per-rank ring places ({@code Ring 00 : 3 -> 0 -> 1}) of every communicator. */
    public List<RingNeighbor> ringNeighbors() {
        return Collections.unmodifiableList(ringNeighbors);
    }

    /** Tree places ({@code Trees [0] 1/-1/-1->0->-1 ...}, {@code Tree 0 : up -> rank -> downs}) of every communicator. */
    public List<TreeNode> trees() {
        return Collections.unmodifiableList(trees);
    }

    /** The tree places of one communicator. */
    public List<TreeNode> trees(String commId) {
        return trees.stream().filter(t -> t.commId().equals(commId)).toList();
    }

    /** GPU Direct RDMA enabled/disabled lines, per process and device. */
    public List<GdrSupport> gdrSupport() {
        return Collections.unmodifiableList(gdr);
    }

    /** Communicator id to the ranks that printed {@code Connected all rings}. */
    public Map<String, Set<Integer>> ringsConnected() {
        return Collections.unmodifiableMap(ringsConnected);
    }

    /** Communicator id to the ranks that printed {@code Connected all trees}. */
    public Map<String, Set<Integer>> treesConnected() {
        return Collections.unmodifiableMap(treesConnected);
    }

    /**
     * The NCCL rank that a PyTorch global rank most likely is: rank {@code rank} of the largest
     * communicator (the default process group spans every rank); empty when no log named it.
     */
    public java.util.Optional<Rank> worldRank(int rank) {
        Rank best = null;
        for (Rank r : ranks.values()) {
            if (r.rank() == rank && (best == null || r.nranks() > best.nranks())) {
                best = r;
            }
        }
        return java.util.Optional.ofNullable(best);
    }

    public List<Rank> ranks() {
        return Collections.unmodifiableList(new ArrayList<>(ranks.values()));
    }

    public List<ChannelLink> channels() {
        return Collections.unmodifiableList(channels);
    }

    public List<NcclEvent> events() {
        return Collections.unmodifiableList(events);
    }

    public boolean isEmpty() {
        return ranks.isEmpty() && channels.isEmpty() && events.isEmpty() && rings.isEmpty() && trees.isEmpty()
                && ringNeighbors.isEmpty();
    }

    /** The NCCL versions the ranks reported. */
    public Set<String> ncclVersions() {
        Set<String> v = new LinkedHashSet<>();
        for (Rank r : ranks.values()) {
            if (r.ncclVersion() != null) {
                v.add(r.ncclVersion());
            }
        }
        return v;
    }

    /**
     * Transport counts over distinct rank pairs of each communicator ({@code "NET/IB": n, "P2P": n,
     * ...}): a pair that uses several channels counts once, under its slowest transport.
     */
    public Map<String, Integer> transportsByPair() {
        Map<String, Transport> worst = new LinkedHashMap<>();
        for (ChannelLink c : channels) {
            int a = Math.min(c.fromRank(), c.toRank());
            int b = Math.max(c.fromRank(), c.toRank());
            String key = c.commId() + "/" + a + "/" + b;
            Transport t = worst.get(key);
            if (t == null || c.transport().compareTo(t) > 0) {
                worst.put(key, c.transport());
            }
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Transport t : worst.values()) {
            String k = switch (t) {
                case NET_IB, NET_IB_GDR -> "NET/IB";
                case NET_SOCKET -> "NET/Socket";
                case NET_OTHER -> "NET/other";
                case P2P -> "P2P";
                case SHM -> "SHM";
            };
            out.merge(k, 1, Integer::sum);
        }
        return out;
    }
}
