package org.fabricscope.model.evidence;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongFunction;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;

/**
 * Collects host evidence file by file. Each file gives a {@link Draft} named by what the reader could
 * tell (a {@code hostname} line, else the file's folder or name); {@link #build} settles which host it
 * is: a name that is a known host wins, else a port or node GUID of an HCA the fabric dump places on a
 * host, else the draft's own name. Drafts that land on one host merge. Not thread-safe.
 *
 * <p>A host has one locked-memory limit and one {@code /dev/shm} size. When its evidence gives two
 * different values for one of them (two {@code max locked memory} lines in one {@code ulimit -a}, two
 * files about one host), the <b>later one read is used</b>: the later line of a file, the later file of
 * the import (files are read in the order named, a folder's in natural name order), as the newer look
 * at the host. Each such contradiction is a warning naming both values with their file and line. The
 * same value twice is no contradiction (and counts once).
 */
public final class HostEvidenceBuilder {
    private final List<Draft> drafts = new ArrayList<>();

    /**
     * A new draft for one file: {@code names} are the candidate host names, best first (the first is
     * used when none is known and no GUID places it). Blank candidates are ignored.
     */
    public Draft file(String source, List<String> names) {
        Draft d = new Draft(source, names);
        drafts.add(d);
        return d;
    }

    public boolean isEmpty() {
        return drafts.stream().allMatch(Draft::isEmpty);
    }

    /** One file's evidence about one host. */
    public static final class Draft {
        private final String source;
        private final List<String> names = new ArrayList<>();
        private final List<HcaPortStatus> ports = new ArrayList<>();
        private final List<GidEntry> gids = new ArrayList<>();
        private final List<DeviceFile> files = new ArrayList<>();
        private final List<NetInterface> ifaces = new ArrayList<>();
        private final List<EnvVar> env = new ArrayList<>();
        private final List<PciLink> pci = new ArrayList<>();
        private final List<ErdmaStat> erdma = new ArrayList<>();
        private final List<OomKill> oomKills = new ArrayList<>();
        private final List<HcaFact> hcaFacts = new ArrayList<>();
        private MemlockLimit memlock;
        private ShmMount shm;
        /** Values of one limit this file replaced with a later, different one: {earlier, later} evidence and texts. */
        private final List<Contradiction> contradictions = new ArrayList<>();

        private Draft(String source, List<String> names) {
            this.source = source;
            for (String n : names) {
                if (n != null && !n.isBlank()) {
                    this.names.add(n.strip());
                }
            }
        }

        /** A name the file itself gave (a hostname line found after the draft was made): best candidate. */
        public Draft named(String name) {
            if (name != null && !name.isBlank()) {
                names.remove(name.strip());
                names.add(0, name.strip());
            }
            return this;
        }

        public Draft hcaPort(HcaPortStatus p) {
            ports.add(p);
            return this;
        }

        public Draft gid(GidEntry g) {
            gids.add(g);
            return this;
        }

        /** The locked-memory limit; a later, different one replaces it and is a contradiction. */
        public Draft memlock(MemlockLimit m) {
            if (memlock != null && m != null && !sameLimit(memlock, m)) {
                contradictions.add(new Contradiction("locked-memory limit", memlock.text(), memlock.evidence(), m.text(),
                        m.evidence()));
            }
            memlock = m;
            return this;
        }

        public Draft deviceFile(DeviceFile f) {
            files.add(f);
            return this;
        }

        public Draft iface(NetInterface i) {
            ifaces.add(i);
            return this;
        }

        /** The {@code /dev/shm} size; a later, different one replaces it and is a contradiction. */
        public Draft shm(ShmMount s) {
            if (shm != null && s != null && shm.bytes() != s.bytes()) {
                contradictions.add(new Contradiction("/dev/shm size", shm.size(), shm.evidence(), s.size(), s.evidence()));
            }
            shm = s;
            return this;
        }

        public Draft env(EnvVar e) {
            env.add(e);
            return this;
        }

        public Draft pciLink(PciLink l) {
            pci.add(l);
            return this;
        }

        /** An eRDMA device as {@code eadm stat} showed it. */
        public Draft erdma(ErdmaStat e) {
            erdma.add(e);
            return this;
        }

        /** A process the kernel's OOM killer killed, from the host's kernel log. */
        public Draft oomKill(OomKill k) {
            oomKills.add(k);
            return this;
        }

        /** A fact of an HCA or its port (firmware, type, active MTU). */
        public Draft hcaFact(HcaFact f) {
            hcaFacts.add(f);
            return this;
        }

        boolean isEmpty() {
            return hcaFacts.isEmpty() && ports.isEmpty() && gids.isEmpty() && files.isEmpty() && ifaces.isEmpty() && env.isEmpty() && pci.isEmpty()
                    && erdma.isEmpty() && oomKills.isEmpty() && memlock == null && shm == null;
        }
    }

    /** Two values of one limit of a host: the earlier, replaced, and the later, used. */
    private record Contradiction(String what, String earlier, Evidence earlierAt, String later, Evidence laterAt) {
        Diagnostic diagnostic(String host) {
            return Diagnostic.warning(laterAt == null ? "" : laterAt.source(), laterAt == null ? 0 : laterAt.line(),
                    "two " + what + "s for " + host + ": " + earlier + " (" + where(earlierAt) + ") and " + later + " ("
                            + where(laterAt) + "); the later one read, " + later + ", is used");
        }

        private static String where(Evidence e) {
            return e == null ? "?" : e.source() + (e.line() > 0 ? ":" + e.line() : "");
        }
    }

    private static boolean sameLimit(MemlockLimit a, MemlockLimit b) {
        return a.unlimited() == b.unlimited() && (a.unlimited() || a.kbytes() == b.kbytes());
    }

    /**
     * The evidence by host. {@code known} are the hosts other inputs name (fabric, topologies, Kubernetes
     * nodes); {@code hostOfGuid} gives the host of an HCA port or node GUID, or null.
     */
    public Map<String, HostEvidence> build(Collection<String> known, LongFunction<String> hostOfGuid) {
        return build(known, hostOfGuid, d -> { });
    }

    /** {@link #build(Collection, LongFunction)}, telling {@code problems} of each limit a host has two values of. */
    public Map<String, HostEvidence> build(Collection<String> known, LongFunction<String> hostOfGuid,
                                           Consumer<Diagnostic> problems) {
        Map<String, Acc> by = new LinkedHashMap<>();
        for (Draft d : drafts) {
            if (d.isEmpty()) {
                continue;
            }
            String host = resolve(d, known, hostOfGuid);
            Acc a = by.computeIfAbsent(host, Acc::new);
            d.contradictions.forEach(c -> problems.accept(c.diagnostic(host)));
            a.add(d).forEach(c -> problems.accept(c.diagnostic(host)));
        }
        Map<String, HostEvidence> out = new LinkedHashMap<>();
        by.forEach((h, a) -> out.put(h, a.build()));
        return out;
    }

    private static String resolve(Draft d, Collection<String> known, LongFunction<String> hostOfGuid) {
        for (String n : d.names) {
            if (known.contains(n)) {
                return n;
            }
        }
        for (HcaPortStatus p : d.ports) {
            for (long g : new long[] {p.portGuid(), p.nodeGuid()}) {
                String h = g == 0 ? null : hostOfGuid.apply(g);
                if (h != null) {
                    return h;
                }
            }
        }
        return d.names.isEmpty() ? "unknown host" : d.names.get(0);
    }

    private static final class Acc {
        final String host;
        final Map<String, HcaPortStatus> ports = new LinkedHashMap<>();
        final Map<String, GidEntry> gids = new LinkedHashMap<>();
        final Map<String, DeviceFile> files = new LinkedHashMap<>();
        final Map<String, NetInterface> ifaces = new LinkedHashMap<>();
        final Map<String, EnvVar> env = new LinkedHashMap<>();
        final Map<String, PciLink> pci = new LinkedHashMap<>();
        final Map<String, ErdmaStat> erdma = new LinkedHashMap<>();
        final Map<String, OomKill> oomKills = new LinkedHashMap<>();
        final Map<String, HcaFact> hcaFacts = new LinkedHashMap<>();
        final LinkedHashSet<String> sources = new LinkedHashSet<>();
        MemlockLimit memlock;
        ShmMount shm;

        Acc(String host) {
            this.host = host;
        }

        /** Adds a file's evidence; returns the limits it gives another value of than a file before. */
        List<Contradiction> add(Draft d) {
            List<Contradiction> out = new ArrayList<>();
            sources.add(d.source);
            d.ports.forEach(p -> ports.merge(p.label(), p, HcaPortStatus::merge));
            d.gids.forEach(g -> gids.putIfAbsent(g.device() + ":" + g.port() + ":" + g.index(), g));
            d.files.forEach(f -> files.put(f.name(), f));
            d.ifaces.forEach(i -> ifaces.merge(i.name(), i, NetInterface::merge));
            d.env.forEach(e -> env.put(e.name(), e));
            d.pci.forEach(l -> pci.put(l.busId(), l));
            d.hcaFacts.forEach(f -> hcaFacts.put(f.field(), f)); // a later file about the same device is the newer look
            d.erdma.forEach(e -> erdma.put(e.device(), e)); // a later file about the same device is the newer look
            // the same kill read twice (dmesg and journalctl -k) is one
            d.oomKills.forEach(k -> oomKills.putIfAbsent(k.pid() + "\u0000" + k.process() + "\u0000" + k.text(), k));
            if (d.memlock != null) {
                if (memlock != null && !sameLimit(memlock, d.memlock)) {
                    out.add(new Contradiction("locked-memory limit", memlock.text(), memlock.evidence(), d.memlock.text(),
                            d.memlock.evidence()));
                }
                memlock = d.memlock;
            }
            if (d.shm != null) {
                if (shm != null && shm.bytes() != d.shm.bytes()) {
                    out.add(new Contradiction("/dev/shm size", shm.size(), shm.evidence(), d.shm.size(), d.shm.evidence()));
                }
                shm = d.shm;
            }
            return out;
        }

        HostEvidence build() {
            return new HostEvidence(host, new ArrayList<>(ports.values()), new ArrayList<>(gids.values()), memlock,
                    new ArrayList<>(files.values()), new ArrayList<>(ifaces.values()), shm, env, new ArrayList<>(pci.values()), new ArrayList<>(sources),
                    new ArrayList<>(erdma.values()), new ArrayList<>(oomKills.values()), new ArrayList<>(hcaFacts.values()));
        }
    }
}
