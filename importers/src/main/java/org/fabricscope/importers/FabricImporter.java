package org.fabricscope.importers;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.ibnet.IblinkinfoImporter;
import org.fabricscope.importers.ibnet.IbnetdiscoverImporter;
import org.fabricscope.importers.ibnet.IbnetdiscoverListImporter;
import org.fabricscope.importers.ibnet.IbnetdiscoverPortsImporter;
import org.fabricscope.importers.ibnet.IbqueryerrorsImporter;
import org.fabricscope.importers.ibnet.NodeNameMap;
import org.fabricscope.importers.ibnet.PerfqueryImporter;
import org.fabricscope.importers.k8s.AllocatableImporter;
import org.fabricscope.importers.k8s.DescribePodImporter;
import org.fabricscope.importers.k8s.EventsTableImporter;
import org.fabricscope.importers.k8s.KubeObjectImporter;
import org.fabricscope.importers.nccl.NcclXmlImporter;
import org.fabricscope.importers.nccl.NvidiaSmiTopoImporter;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * Reads any mix of files, folders and archives of one fabric into one model. Each file's format
 * is detected from its first lines; topology files are read before link state and counters so
 * that later files can refer to what earlier ones defined. Plain blocking code: callers run it
 * off the UI thread.
 */
public final class FabricImporter {
    private static final int HEAD_BYTES = 64 * 1024;
    private static final int HEAD_LINES = 64;

    /** Imports the named paths. A path that cannot be read becomes a diagnostic, not an exception. */
    public ImportResult importPaths(List<Path> paths, ImportProgress progress, Cancellation cancel) {
        List<Diagnostic> early = new ArrayList<>();
        BundleReader bundles = new BundleReader(early);
        List<ImportSource> sources = new ArrayList<>();
        for (Path p : paths) {
            sources.addAll(bundles.expand(p));
            if (cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
        }
        return importSources(sources, early, progress, cancel);
    }

    public ImportResult importSources(List<ImportSource> sources, List<Diagnostic> early, ImportProgress progress,
                                      Cancellation cancel) {
        return importSources(sources, early, progress, cancel, b -> { });
    }

    /**
     * Imports the sources, then lets {@code more} add to the model before it is built: live inputs
     * that are not files (log lines streamed from pods, fed with their own line numbers).
     */
    public ImportResult importSources(List<ImportSource> sources, List<Diagnostic> early, ImportProgress progress,
                                      Cancellation cancel, java.util.function.Consumer<FabricModelBuilder> more) {
        FabricModelBuilder builder = new FabricModelBuilder();
        early.forEach(builder::diagnostic);
        Map<String, Format> formats = new LinkedHashMap<>();
        List<Sniffed> sniffed = new ArrayList<>();
        long total = 0;
        for (ImportSource s : sources) {
            total += Math.max(0, s.size());
            Format f = detect(s, builder);
            formats.put(s.name(), f);
            if (f == Format.UNKNOWN) {
                String why = "not a format FabricScope reads (ibnetdiscover, iblinkinfo, perfquery, ibqueryerrors, "
                        + "node-name-map, error_thresholds, NCCL topology/graph XML, nvidia-smi topo -m, kubectl output "
                        + "and training-job manifests); skipped";
                builder.diagnostic(s.named() ? Diagnostic.warning(s.name(), 1, why) : Diagnostic.info(s.name(), 1, why));
            } else if (f == Format.IBSIM_NET) {
                builder.diagnostic(Diagnostic.info(s.name(), 1,
                        "ibsim net file: the simulator's input, not a capture of the fabric; skipped"));
            } else if (f == Format.HWLOC_XML) {
                builder.diagnostic(Diagnostic.warning(s.name(), 1, "hwloc topology XML (<topology>, as lstopo and "
                        + "aws-ofi-nccl's test fixtures write it), not NCCL's topology format (<system version=\"1\">, "
                        + "what NCCL_TOPO_DUMP_FILE writes); skipped"));
            } else if (f != null) {
                sniffed.add(new Sniffed(s, f));
            }
        }
        sniffed.sort(Comparator.comparingInt(x -> order(x.format)));
        NodeNameMap names = new NodeNameMap();
        ErrorThresholds thresholds = null;
        long done = 0;
        for (Sniffed x : sniffed) {
            if (cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            progress.update(done, total, x.source.name());
            builder.source(x.source.name());
            try (InputStream in = x.source.open()) {
                if (x.format == Format.THRESHOLDS) {
                    List<Diagnostic> problems = new ArrayList<>();
                    thresholds = ErrorThresholds.parse(new InputStreamReader(in, StandardCharsets.UTF_8),
                            x.source.name(), problems);
                    problems.forEach(builder::diagnostic);
                } else if (x.format == Format.K8S_OBJECTS) {
                    new KubeObjectImporter().read(in, x.source.name(), builder, cancel);
                } else if (x.format == Format.K8S_ALLOCATABLE) {
                    new AllocatableImporter().read(in, x.source.name(), builder);
                } else if (x.format == Format.NCCL_LOG) {
                    List<Diagnostic> problems = new ArrayList<>();
                    new org.fabricscope.importers.logs.NcclLogParser(builder.training(), problems)
                            .read(new TextLines(in), x.source.name(), cancel);
                    problems.forEach(builder::diagnostic);
                } else if (x.format == Format.FLIGHT_RECORDER) {
                    new org.fabricscope.importers.forensics.FlightRecorderReader().read(in, x.source.name(), builder, cancel);
                } else if (x.format == Format.NCCL_RAS) {
                    new org.fabricscope.importers.forensics.RasStatusReader().read(in, x.source.name(), builder, cancel);
                } else if (x.format == Format.NCCL_TESTS) {
                    new org.fabricscope.importers.forensics.NcclTestsReader().read(in, x.source.name(), builder, cancel);
                } else if (x.format == Format.NCCL_INSPECTOR) {
                    new org.fabricscope.importers.forensics.NcclInspectorReader().read(in, x.source.name(), builder, cancel);
                } else if (x.format == Format.NCCL_TOPOLOGY || x.format == Format.NCCL_GRAPH) {
                    new NcclXmlImporter().read(in, x.source.name(), builder, cancel);
                } else {
                    LineImporter importer = x.format == Format.NODE_NAME_MAP ? names : importerFor(x.format);
                    importer.read(new TextLines(in), x.source.name(), builder, cancel);
                }
            } catch (IOException e) {
                builder.diagnostic(Diagnostic.error(x.source.name(), 0, "read failed: " + e.getMessage()
                        + "; kept what was read before"));
            }
            done += Math.max(0, x.source.size());
            progress.update(done, total, x.source.name());
        }
        names.applyTo(builder);
        more.accept(builder);
        return new ImportResult(builder.build(), formats, thresholds);
    }

    private record Sniffed(ImportSource source, Format format) {
    }

    private static int order(Format f) {
        return switch (f) {
            case NODE_NAME_MAP, THRESHOLDS -> 0;
            case IBNETDISCOVER -> 1;
            case IBNETDISCOVER_PORTS, IBNETDISCOVER_LIST -> 2;
            case IBLINKINFO -> 3;
            case NCCL_TOPOLOGY, NCCL_GRAPH, NVIDIA_SMI_TOPO -> 5;
            case K8S_OBJECTS, K8S_ALLOCATABLE, K8S_DESCRIBE_POD, K8S_EVENTS_TABLE -> 6;
            case NCCL_LOG -> 7;
            default -> 4;
        };
    }

    private static LineImporter importerFor(Format f) {
        return switch (f) {
            case IBNETDISCOVER -> new IbnetdiscoverImporter();
            case IBNETDISCOVER_PORTS -> new IbnetdiscoverPortsImporter();
            case IBNETDISCOVER_LIST -> new IbnetdiscoverListImporter();
            case IBLINKINFO -> new IblinkinfoImporter();
            case PERFQUERY -> new PerfqueryImporter();
            case IBQUERYERRORS -> new IbqueryerrorsImporter();
            case NVIDIA_SMI_TOPO -> new NvidiaSmiTopoImporter();
            case K8S_DESCRIBE_POD -> new DescribePodImporter();
            case K8S_EVENTS_TABLE -> new EventsTableImporter();
            default -> throw new IllegalArgumentException(f.name());
        };
    }

    /** Reads the first lines to tell the format; null (with a diagnostic) when the file is unreadable or binary. */
    private static Format detect(ImportSource s, FabricModelBuilder builder) {
        try (InputStream raw = s.open(); InputStream in = new BufferedInputStream(raw, HEAD_BYTES)) {
            byte[] head = in.readNBytes(HEAD_BYTES);
            if (head.length == 0) {
                builder.diagnostic(Diagnostic.warning(s.name(), 0, "file is empty"));
                return null;
            }
            if (org.fabricscope.importers.forensics.FlightRecorderReader.looksLikePickle(head)) {
                return Format.FLIGHT_RECORDER; // a Python pickle: binary, read by its own opcode reader
            }
            int nul = 0;
            for (byte b : head) {
                if (b == 0) {
                    nul++;
                }
            }
            if (nul > 0) {
                builder.diagnostic(Diagnostic.warning(s.name(), 1,
                        "binary file (NUL bytes in the first " + head.length + " bytes), not a text dump; skipped"));
                return null;
            }
            String text = new String(head, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>();
            int start = 0;
            while (lines.size() < HEAD_LINES && start < text.length()) {
                int nl = text.indexOf('\n', start);
                if (nl < 0) {
                    nl = text.length();
                }
                lines.add(text.substring(start, Math.min(nl, start + 4096)));
                start = nl + 1;
            }
            return Format.detect(lines);
        } catch (IOException e) {
            builder.diagnostic(Diagnostic.error(s.name(), 0, "cannot read: " + e.getMessage()));
            return null;
        }
    }
}
