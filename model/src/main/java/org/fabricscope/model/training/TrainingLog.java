package org.fabricscope.model.training;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What NCCL and PyTorch logs say about a training job: ranks, the channels between them with their
 * transports, the events, and the step times the trainers log. Made by {@link TrainingLogBuilder#build()}; immutable.
 */
public final class TrainingLog {
    /** No ranks, channels or events: the training layer of a model read from no log. */
    public static final TrainingLog EMPTY = new TrainingLogBuilder().build();

    private final List<Rank> ranks;
    private final List<ChannelLink> channels;
    private final List<NcclEvent> events;
    private final List<Ring> rings;
    private final List<RingNeighbor> ringNeighbors;
    private final List<TreeNode> trees;
    private final List<GdrSupport> gdr;
    private final Map<String, Set<Integer>> ringsConnected;
    private final Map<String, Set<Integer>> treesConnected;
    private final List<NcclProcess> processes;
    private final List<StepTime> stepTimes;

    TrainingLog(List<Rank> ranks, List<ChannelLink> channels, List<NcclEvent> events, List<Ring> rings,
                List<RingNeighbor> ringNeighbors, List<TreeNode> trees, List<GdrSupport> gdr,
                Map<String, Set<Integer>> ringsConnected, Map<String, Set<Integer>> treesConnected,
                List<NcclProcess> processes, List<StepTime> stepTimes) {
        this.ranks = List.copyOf(ranks);
        this.channels = List.copyOf(channels);
        this.events = List.copyOf(events);
        this.rings = List.copyOf(rings);
        this.ringNeighbors = List.copyOf(ringNeighbors);
        this.trees = List.copyOf(trees);
        this.gdr = List.copyOf(gdr);
        this.ringsConnected = frozen(ringsConnected);
        this.treesConnected = frozen(treesConnected);
        this.processes = List.copyOf(processes);
        this.stepTimes = List.copyOf(stepTimes);
    }

    /**
     * The step times the trainers' own lines report (Megatron-LM, DeepSpeed, Hugging Face, Lightning, torchtitan,
     * plain prints), per source in line order. They do not count in {@link #isEmpty()}, which says whether NCCL or
     * PyTorch distributed lines were read.
     */
    public List<StepTime> stepTimes() {
        return stepTimes;
    }

    /**
     * What each NCCL process said about its network (No device found, NET plugins that failed to initialize,
     * NCCL_* variables), including processes that failed before any communicator reached Init.
     */
    public List<NcclProcess> processes() {
        return processes;
    }

    private static Map<String, Set<Integer>> frozen(Map<String, Set<Integer>> m) {
        Map<String, Set<Integer>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, Collections.unmodifiableSet(new java.util.TreeSet<>(v))));
        return Collections.unmodifiableMap(out);
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
        for (Rank r : ranks) {
            if (r.rank() == rank && (best == null || r.nranks() > best.nranks())) {
                best = r;
            }
        }
        return java.util.Optional.ofNullable(best);
    }

    public List<Rank> ranks() {
        return ranks;
    }

    public List<ChannelLink> channels() {
        return Collections.unmodifiableList(channels);
    }

    public List<NcclEvent> events() {
        return Collections.unmodifiableList(events);
    }

    public boolean isEmpty() {
        return ranks.isEmpty() && channels.isEmpty() && events.isEmpty() && rings.isEmpty() && trees.isEmpty()
                && ringNeighbors.isEmpty() && processes.isEmpty();
    }

    /** The NCCL versions the ranks reported. */
    public Set<String> ncclVersions() {
        Set<String> v = new LinkedHashSet<>();
        for (Rank r : ranks) {
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
        Map<RankPair, Transport> worst = new LinkedHashMap<>();
        for (ChannelLink c : channels) {
            worst.merge(RankPair.of(c), c.transport(), (t, u) -> u.compareTo(t) > 0 ? u : t);
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
