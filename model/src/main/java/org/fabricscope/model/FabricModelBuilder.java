package org.fabricscope.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.evidence.HostEvidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder;
import org.fabricscope.model.fabric.FabricBuilder;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.FabricLayer;
import org.fabricscope.model.forensics.ForensicsBuilder;
import org.fabricscope.model.host.HostLayer;
import org.fabricscope.model.host.HostTopology;
import org.fabricscope.model.host.HostTopologyBuilder;
import org.fabricscope.model.k8s.K8sLayerBuilder;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * Collects what importers read, from any number of files in any order, and builds one immutable
 * {@link FabricModel}: the fabric layer (inherited from {@link FabricBuilder}: nodes merge by GUID,
 * cables by their two ports, counters join ports once everything is read), host topologies,
 * the Kubernetes layer and the training layer. Each layer's builder is handed to the importers;
 * only built, immutable layers go into the model. Not thread-safe: one import owns one builder.
 */
public final class FabricModelBuilder extends FabricBuilder {
    private final List<HostTopologyBuilder> hostTopologies = new ArrayList<>();
    private final K8sLayerBuilder k8s = new K8sLayerBuilder();
    private final TrainingLogBuilder training = new TrainingLogBuilder();
    private final org.fabricscope.model.incident.IncidentLogBuilder incident = new org.fabricscope.model.incident.IncidentLogBuilder();
    private final ForensicsBuilder forensics = new ForensicsBuilder();
    private final HostEvidenceBuilder hostEvidence = new HostEvidenceBuilder();

    /**
     * Adds one file's view of a host (NCCL topology, graph dump, nvidia-smi matrix). Which host it
     * is, and which HCAs its nets are, is decided in {@link #build()} once the fabric is read too.
     */
    public void hostTopology(HostTopologyBuilder draft) {
        hostTopologies.add(draft);
    }

    /** The incident layer: the failure-signature matches of every log read (one scanner per file). */
    public org.fabricscope.model.incident.IncidentLogBuilder incident() {
        return incident;
    }

    /** The training layer that log importers fill (ranks, channels, events). */
    public TrainingLogBuilder training() {
        return training;
    }

    /** The hang forensics layer that its readers fill (flight recorder dumps, NCCL RAS reports, nccl-tests runs). */
    public ForensicsBuilder forensics() {
        return forensics;
    }

    /** The Kubernetes layer being collected: nodes, allocatable maps, pods, events, jobs. */
    public K8sLayerBuilder k8s() {
        return k8s;
    }

    /**
     * What commands run on hosts said (ibstat, ibv_devinfo, GID tables, ulimit, ls -l /dev/infiniband,
     * ip addr, df, env): one draft per file, placed on a host in {@link #build()}.
     */
    public HostEvidenceBuilder hostEvidence() {
        return hostEvidence;
    }

    /** Builds every layer and joins them. Call once, when every file has been read. */
    public FabricModel build() {
        FabricLayer fabric = buildFabric();
        Map<String, HostTopology> topologies = HostLayer.resolve(hostTopologies, fabric.nodes().values(),
                diagnosticList());
        Set<String> hostNames = new LinkedHashSet<>(fabric.hosts().keySet());
        hostNames.addAll(topologies.keySet());
        org.fabricscope.model.k8s.K8sLayer k8sLayer = k8s.build(hostNames);
        Set<String> known = new LinkedHashSet<>(hostNames);
        known.addAll(k8sLayer.nodes().keySet());
        Map<String, HostEvidence> evidence = hostEvidence.build(known, guid -> {
            FabricNode n = fabric.nodeByPortGuid(guid);
            if (n == null) {
                n = fabric.nodes().get(guid);
            }
            return n == null || n.host() == null ? null : n.host().name();
        }, this::diagnostic);
        if (incident.dropped() > 0) {
            diagnostic(Diagnostic.warning("logs", 0, incident.dropped() + " failure-signature matches left out past the first "
                    + org.fabricscope.model.incident.IncidentLogBuilder.MAX_MATCHES + " (IncidentLogBuilder.MAX_MATCHES): the timeline and "
                    + "the incident reasoning see only those"));
        }
        for (String s : incident.cappedSources()) {
            diagnostic(Diagnostic.warning(s, 0, "more than " + org.fabricscope.model.incident.LineScanner.MAX_PROCESSES
                    + " processes or rank tags in this log (LineScanner.MAX_PROCESSES): those past it are not known to have "
                    + "printed here"));
        }
        if (!incident.isEmpty()) { // the user's signature files that did not load, where the import's problems are listed
            for (org.fabricscope.model.incident.SignatureProblem p : org.fabricscope.model.incident.SignatureCatalogue.active().problems()) {
                diagnostic(Diagnostic.warning(p.file(), 0, "signature not loaded: " + p.text().substring(p.file().length() + 2)));
            }
        }
        return new FabricModel(fabric, diagnosticList(), topologies, k8sLayer, training.build(), forensics.build(),
                evidence, incident.build());
    }
}
