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

    /** Adds or replaces the rank of this communicator and rank number (a COMPLETE line supersedes START). */
    public void putRank(Rank r) {
        String key = r.commId() + "/" + r.rank() + "/" + r.process();
        Rank old = ranks.get(key);
        if (old == null || !old.initCompleted() || r.initCompleted()) {
            ranks.put(key, old == null ? r : merge(old, r));
        }
    }

    private static Rank merge(Rank old, Rank r) {
        return new Rank(r.host(), r.pid(), r.cudaDev(), r.nvmlDev(), r.busId(), r.commId(), r.rank(), r.nranks(),
                r.ncclVersion() != null ? r.ncclVersion() : old.ncclVersion(), old.initStarted() || r.initStarted(),
                old.initCompleted() || r.initCompleted(), r.netDevices().isEmpty() ? old.netDevices() : r.netDevices(),
                r.network() != null ? r.network() : old.network(), old.noIbDevice() || r.noIbDevice(), r.env(),
                old.evidence() != null ? old.evidence() : r.evidence());
    }

    public void addChannel(ChannelLink c) {
        channels.add(c);
    }

    public void addEvent(NcclEvent e) {
        events.add(e);
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
        return ranks.isEmpty() && channels.isEmpty() && events.isEmpty();
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
