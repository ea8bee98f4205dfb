package org.fabricscope.importers;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.host.DevInfinibandReader;
import org.fabricscope.importers.host.DfShmReader;
import org.fabricscope.importers.host.EadmStatReader;
import org.fabricscope.importers.host.GidTableReader;
import org.fabricscope.importers.host.IbstatReader;
import org.fabricscope.importers.host.IbstatusReader;
import org.fabricscope.importers.host.IbvDevinfoReader;
import org.fabricscope.importers.host.IpAddrReader;
import org.fabricscope.importers.host.KernelLogReader;
import org.fabricscope.importers.lldp.LldpNeighborsReader;
import org.fabricscope.importers.lldp.RdmaNetdevReader;
import org.fabricscope.importers.lldp.MlnxQosReader;
import org.fabricscope.importers.lldp.RoceCountersReader;
import org.fabricscope.importers.lldp.IpLinkReader;
import org.fabricscope.importers.lldp.SonicConfigDbReader;
import org.fabricscope.importers.host.LspciReader;
import org.fabricscope.importers.host.PodEnvReader;
import org.fabricscope.importers.host.UlimitReader;
import org.fabricscope.importers.ibnet.ErrorThresholdsReader;
import org.fabricscope.importers.ibnet.IblinkinfoReader;
import org.fabricscope.importers.ibnet.IbnetdiscoverListReader;
import org.fabricscope.importers.ibnet.IbnetdiscoverPortsReader;
import org.fabricscope.importers.ibnet.IbnetdiscoverReader;
import org.fabricscope.importers.ibnet.IbqueryerrorsReader;
import org.fabricscope.importers.ibnet.IbsimNetReader;
import org.fabricscope.importers.ibnet.NodeNameMapReader;
import org.fabricscope.importers.ibnet.PerfqueryReader;
import org.fabricscope.importers.k8s.AllocatableReader;
import org.fabricscope.importers.k8s.DescribePodReader;
import org.fabricscope.importers.k8s.EventsTableReader;
import org.fabricscope.importers.k8s.KubeObjectsReader;
import org.fabricscope.importers.forensics.ForensicsFormat;
import org.fabricscope.importers.logs.NcclLogReader;
import org.fabricscope.importers.nccl.HwlocXmlReader;
import org.fabricscope.importers.nccl.NcclGraphReader;
import org.fabricscope.importers.nccl.NcclTopologyReader;
import org.fabricscope.importers.nccl.NvidiaSmiTopoReader;

/**
 * The formats an import knows, in registration order. {@link #detect} asks the readers how sure
 * they are that a head is their format and takes the most confident; between equally confident
 * readers, the one registered first.
 */
public final class FormatRegistry {
    /** What {@link ImportResult#formats()} says for a file no reader recognised. */
    public static final String UNKNOWN = "unknown";

    /** A format id: lower-case words with dashes (compiled once, not once per reader; before STANDARD, which needs it). */
    private static final java.util.regex.Pattern FORMAT_ID = java.util.regex.Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

    /** Falling ceiling, then registration order (before STANDARD, which sorts by it). */
    private static final Comparator<Ranked> BY_CEILING = new Comparator<>() {
        @Override
        public int compare(Ranked a, Ranked b) {
            return a.ceiling != b.ceiling ? Integer.compare(b.ceiling, a.ceiling) : Integer.compare(a.index, b.index);
        }
    };

    private static final FormatRegistry STANDARD = new FormatRegistry(standardReaders());

    /** Every format FabricScope reads, in registration order (ties in confidence go to the earlier). */
    private static List<FormatReader> standardReaders() {
        List<FormatReader> all = new java.util.ArrayList<>();
        all.add(new IbnetdiscoverReader());
        all.add(new IbnetdiscoverPortsReader());
        all.add(new IbnetdiscoverListReader());
        all.add(new IblinkinfoReader());
        all.add(new PerfqueryReader());
        all.add(new IbqueryerrorsReader());
        all.add(new NodeNameMapReader());
        all.add(new ErrorThresholdsReader());
        all.add(new IbsimNetReader());
        all.add(new NcclTopologyReader());
        all.add(new NcclGraphReader());
        all.add(new HwlocXmlReader());
        all.add(new NvidiaSmiTopoReader());
        all.add(new KubeObjectsReader());
        all.add(new AllocatableReader());
        all.add(new DescribePodReader());
        all.add(new EventsTableReader());
        all.addAll(ForensicsFormat.all());
        all.add(new NcclLogReader());
        all.add(new IbstatReader());
        all.add(new IbstatusReader());
        all.add(new IbvDevinfoReader());
        all.add(new GidTableReader());
        all.add(new UlimitReader());
        all.add(new DevInfinibandReader());
        all.add(new IpAddrReader());
        all.add(new DfShmReader());
        all.add(new PodEnvReader());
        all.add(new LspciReader());
        all.add(new EadmStatReader());
        all.add(new KernelLogReader());
        all.add(new LldpNeighborsReader());
        all.add(new RdmaNetdevReader());
        all.add(new MlnxQosReader());
        all.add(new RoceCountersReader());
        all.add(new IpLinkReader());
        all.add(new SonicConfigDbReader());
        return all;
    }

    private final List<FormatReader> readers;
    /** The readers by falling {@link FormatReader#maxConfidence()}, then registration order: the order {@link #detect} asks them. */
    private final List<Ranked> byCeiling;
    private final String unknownMessage;

    /** One look of a reader: its first ({@link FormatReader#firstConfidence}) or its late one. */
    private record Ranked(FormatReader reader, int ceiling, int index, boolean late) {
        int confidence(Head head) {
            return late ? reader.lateConfidence(head) : reader.firstConfidence(head);
        }
    }

    private FormatRegistry(List<FormatReader> readers) {
        this.readers = List.copyOf(readers);
        Set<String> ids = new HashSet<>();
        Set<String> labels = new HashSet<>();
        for (FormatReader r : this.readers) {
            if (r.id() == null || !FORMAT_ID.matcher(r.id()).matches() || r.id().equals(UNKNOWN)) {
                throw new IllegalArgumentException("format id must be lower case words with dashes, not \"unknown\": "
                        + r.id());
            }
            if (!ids.add(r.id())) {
                throw new IllegalArgumentException("two readers for format id " + r.id());
            }
            if (r.label() == null || r.label().isBlank() || !labels.add(r.label())) {
                throw new IllegalArgumentException("format label missing or used twice: " + r.label());
            }
            if (r.phase() == null) {
                throw new IllegalArgumentException("format " + r.id() + " has no phase");
            }
        }
        List<Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < this.readers.size(); i++) {
            FormatReader r = this.readers.get(i);
            int ceiling = Math.max(FormatReader.NONE, Math.min(FormatReader.CERTAIN, r.maxConfidence()));
            ranked.add(new Ranked(r, ceiling, i, false));
            int late = Math.min(ceiling, r.lateCeiling());
            if (late > FormatReader.NONE) {
                // asked among the readers of its ceiling: after every reader that could claim the head more surely
                ranked.add(new Ranked(r, late, i, true));
            }
        }
        // plain code, no lambdas or streams: this runs before every CLI command's first read, where linking a
        // lambda's call site and a stream's first use cost more than the sort itself
        ranked.sort(BY_CEILING);
        this.byCeiling = List.copyOf(ranked);
        StringBuilder known = new StringBuilder();
        for (FormatReader r : this.readers) {
            if (r.phase() != ImportPhase.SKIPPED) {
                known.append(known.length() == 0 ? "" : ", ").append(r.label());
            }
        }
        this.unknownMessage = "not a format FabricScope reads (" + known + "); skipped";
    }

    /** Every format FabricScope reads, each once. */
    public static FormatRegistry standard() {
        return STANDARD;
    }

    /** A registry of these readers, in this order (tests, embedders); ids and labels must be unique. */
    public static FormatRegistry of(List<? extends FormatReader> readers) {
        return new FormatRegistry(List.copyOf(readers));
    }

    /** The readers, in registration order. */
    public List<FormatReader> readers() {
        return readers;
    }

    /** The reader with this id, or null. */
    public FormatReader byId(String id) {
        for (FormatReader r : readers) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The reader most confident that the head is its format (between equally confident ones, the
     * first registered), or null when none claims it. Readers that could not beat the one found,
     * by their {@link FormatReader#maxConfidence()}, are not asked; nor is a reader's late look
     * ({@link FormatReader#lateConfidence}) once its first look answered, or a surer reader claimed the head.
     */
    public FormatReader detect(Head head) {
        Ranked best = null;
        int bestScore = FormatReader.NONE;
        for (Ranked r : byCeiling) {
            if (r.ceiling < bestScore) {
                break; // nobody left can beat it
            }
            if (best != null && r.ceiling == bestScore && r.index > best.index) {
                continue; // could only tie, and loses the tie
            }
            int c = Math.min(r.confidence(head), r.ceiling);
            if (c > bestScore || (c > FormatReader.NONE && c == bestScore && r.index < best.index)) {
                best = r;
                bestScore = c;
            }
        }
        return best == null ? null : best.reader;
    }

    /** The diagnostic for a file no reader claims: {@code not a format FabricScope reads (<labels>); skipped}. */
    public String unknownFormatMessage() {
        return unknownMessage;
    }
}
