package org.fabricscope.model.training;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Evidence;

/**
 * Collects what NCCL and PyTorch logs say (several files, any order): the log parser's only way in.
 * {@link #build()} hands out an immutable {@link TrainingLog}; the builder itself is never part of a model.
 * Not thread-safe: one import owns one builder.
 */
public final class TrainingLogBuilder {
    private final Map<String, Rank> ranks = new LinkedHashMap<>();
    private final List<ChannelLink> channels = new ArrayList<>();
    private final List<NcclEvent> events = new ArrayList<>();
    private final List<Ring> rings = new ArrayList<>();
    private final List<RingNeighbor> ringNeighbors = new ArrayList<>();
    private final List<TreeNode> trees = new ArrayList<>();
    private final List<GdrSupport> gdr = new ArrayList<>();
    private final Map<String, Set<Integer>> ringsConnected = new LinkedHashMap<>();
    private final Map<String, Set<Integer>> treesConnected = new LinkedHashMap<>();
    private final Map<String, Proc> processes = new LinkedHashMap<>();
    private final List<StepTime> stepTimes = new ArrayList<>();

    /** What one process said about its network so far (see {@link NcclProcess}). */
    private static final class Proc {
        final String host;
        final int pid;
        Evidence noIbDevice;
        final List<String> failedNets = new ArrayList<>();
        Evidence netFailure;
        final Map<String, String> env = new LinkedHashMap<>();
        final Map<String, String> facts = new LinkedHashMap<>();

        Proc(String host, int pid) {
            this.host = host;
            this.pid = pid;
        }
    }

    /** The process named last: a log states a process's facts in a run of lines, so its key is built once a run. */
    private Proc lastProc;

    /** The processes' and ranks' settings and facts, alike in every process: one map each. */
    private final org.fabricscope.model.core.SharedMaps maps = new org.fabricscope.model.core.SharedMaps();
    /** The facts' and settings' values, alike in every process: one object each. */
    private final org.fabricscope.model.core.SharedStrings strings = new org.fabricscope.model.core.SharedStrings();

    private Proc proc(String host, int pid) {
        Proc p = lastProc;
        if (p == null || p.pid != pid || !p.host.equals(host)) {
            p = processes.computeIfAbsent(host + ":" + pid, k -> new Proc(host, pid));
            lastProc = p;
        }
        return p;
    }

    /** A process printed {@code NET/IB : No device found} (the first such line is kept). */
    public void noIbDevice(String host, int pid, Evidence line) {
        Proc p = proc(host, pid);
        if (p.noIbDevice == null) {
            p.noIbDevice = line;
        }
    }

    /** A process could not initialize the NET plugin {@code net} ({@code IB}, or {@link NcclProcess#ANY} for none at all). */
    public void netInitFailed(String host, int pid, String net, Evidence line) {
        Proc p = proc(host, pid);
        if (!p.failedNets.contains(net) && p.failedNets.size() < 16) {
            p.failedNets.add(strings.of(net));
        }
        p.netFailure = line;
    }

    /** A process logged {@code NCCL_X set by environment to Y}. */
    public void processEnv(String host, int pid, String name, String value) {
        Proc p = proc(host, pid);
        if (p.env.size() < 256 || p.env.containsKey(name)) {
            p.env.put(strings.of(name), strings.of(value));
        }
    }

    /**
     * A fact the process reported about itself once (see {@link NcclProcess#facts()}): the first value of each
     * key stays.
     */
    public void processFact(String host, int pid, String key, String value) {
        Proc p = proc(host, pid);
        if (p.facts.size() < 32) {
            p.facts.putIfAbsent(key, strings.of(value));
        }
    }

    /** Adds or replaces the rank of this communicator and rank number (a COMPLETE line supersedes START). */
    public void putRank(Rank r) {
        String key = r.commId() + "/" + r.rank() + "/" + r.process();
        Rank old = ranks.get(key);
        if (old == null || !old.initCompleted() || r.initCompleted()) {
            ranks.put(key, old == null ? r : merge(old, r));
        }
    }

    private Rank merge(Rank old, Rank r) {
        Map<String, String> merged = new LinkedHashMap<>(old.env());
        merged.putAll(r.env());
        Map<String, String> env = maps.of(merged);
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

    /** A step time a trainer's line reported (see {@link StepTime}). */
    public void addStepTime(StepTime t) {
        stepTimes.add(t);
    }

    /** Records a {@code Connected all rings} ({@code trees} false) or {@code Connected all trees} line of a rank. */
    public void markConnected(String commId, int rank, boolean trees) {
        (trees ? treesConnected : ringsConnected).computeIfAbsent(commId, k -> new java.util.TreeSet<>()).add(rank);
    }

    public boolean isEmpty() {
        return ranks.isEmpty() && channels.isEmpty() && events.isEmpty() && rings.isEmpty() && trees.isEmpty()
                && ringNeighbors.isEmpty() && processes.isEmpty();
    }

    /** The ranks so far, for parsers that resolve a later line against an earlier rank. */
    public List<Rank> ranks() {
        return List.copyOf(ranks.values());
    }

    public TrainingLog build() {
        List<NcclProcess> procs = new ArrayList<>();
        processes.values().forEach(p -> procs.add(new NcclProcess(p.host, p.pid, p.noIbDevice, p.failedNets, p.netFailure,
                maps.of(p.env), maps.of(p.facts))));
        return new TrainingLog(List.copyOf(ranks.values()), channels, events, rings, ringNeighbors, trees, gdr,
                ringsConnected, treesConnected, procs, stepTimes);
    }
}
