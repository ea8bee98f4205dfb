package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;

/** Runs a list of checks over a model and returns their findings, most severe first. */
public final class Diagnosis {
    /**
     * Severity first, the incident's root cause first among its severity, then check id, then first
     * subject: a stable order for reports and tests.
     */
    public static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
            .thenComparing(f -> !f.id().equals(IncidentCheck.ROOT.id()))
            .thenComparing(Finding::id)
            .thenComparing(f -> f.subjects().isEmpty() ? "" : f.subjects().get(0));

    private final List<FabricCheck> checks;

    public Diagnosis(List<FabricCheck> checks) {
        this.checks = List.copyOf(checks);
    }

    /** The fabric checks with the given counter thresholds. */
    public static Diagnosis fabric(ErrorThresholds thresholds) {
        return new Diagnosis(List.of(new LinkErrorsCheck(thresholds), new LinkDegradedCheck(), new LinkDownCheck(),
                new PortNotActiveCheck()));
    }

    /**
     * The fabric checks plus the host-layer checks ({@code pcie-degraded}, {@code gdr-disabled},
     * {@code gpu-nic-far}, {@code nic-unmatched}) and the Kubernetes checks ({@code insufficient-resources},
     * {@code rdma-resource-not-requested}, {@code rdma-resource-missing}, {@code shm-too-small},
     * {@code secondary-network-missing}); each finds nothing when its layer was not loaded, so this is a
     * safe default for the CLI and the app.
     */
    public static Diagnosis standard(ErrorThresholds thresholds) {
        return fabric(thresholds).with(new PcieDegradedCheck()).with(new GdrDisabledCheck())
                .with(new GpuNicFarCheck()).with(new NicUnmatchedCheck())
                .with(new InsufficientResourcesCheck()).with(new RdmaResourceNotRequestedCheck())
                .with(new RdmaResourceMissingCheck()).with(new ShmTooSmallCheck()).with(new SecondaryNetworkMissingCheck())
                .with(new TrainingLogCheck(thresholds)).with(new RankPathErrorsCheck(thresholds))
                .with(new HangForensicsCheck()).with(new NcclTestsCheck()).with(new BusBwCheck())
                .with(new TransportDowngradeCheck()).with(new StragglerCheck()).with(new ConfigDriftCheck())
                .with(new PairwiseSlowCheck())
                .with(new HostEvidenceCheck()).with(new IncidentCheck())
                .with(new LldpOneSidedCheck()).with(new RoceNicMiscabledCheck()).with(new RocePfcOffCheck())
                .with(new RoceLossyCheck()).with(new RocePauseStormCheck()).with(new RoceEcnInactiveCheck())
                .with(new RoceMtuMismatchCheck()).with(new RocePfcOneEndCheck()).with(new LldpNeighbourMissingCheck());
    }

    public Diagnosis with(FabricCheck check) {
        List<FabricCheck> all = new ArrayList<>(checks);
        all.add(check);
        return new Diagnosis(all);
    }

    public List<FabricCheck> checks() {
        return checks;
    }

    /** Every finding id the checks may raise, in check order: the catalogue {@code fabricscope checks} prints. */
    public List<FindingSpec> catalogue() {
        List<FindingSpec> out = new ArrayList<>();
        for (FabricCheck c : checks) {
            out.addAll(c.findings());
        }
        return out;
    }

    /** Runs the checks over a model with its ranks computed here (tests, one-off callers). */
    public List<Finding> run(FabricModel model, ErrorThresholds thresholds) {
        return run(CheckContext.of(model, thresholds));
    }

    /** More than one processor: the checks are shared between the caller's thread and one more. */
    private static final boolean TWO_THREADS = Runtime.getRuntime().availableProcessors() > 1;

    /**
     * Runs every check, most severe finding first. A check that raises an id it did not declare is a
     * programming error, reported as such rather than published as an undocumented id.
     *
     * <p>With more than one processor the checks run on two threads, each taking the next check not yet
     * taken: they only read the model, which is immutable (its derived values are computed once, whoever
     * asks first). The findings are gathered in check order before the sort, so the result is the same as
     * on one thread. Selene's analysis in a fresh CLI run was most of a second's second half.
     */
    public List<Finding> run(CheckContext context) {
        int n = checks.size();
        java.util.concurrent.atomic.AtomicReferenceArray<List<Finding>> found = new java.util.concurrent.atomic.AtomicReferenceArray<>(n);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Callable<Void> work = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                found.set(i, runOne(checks.get(i), context));
            }
            return null;
        };
        org.fabricscope.model.core.Beside<Void> other = TWO_THREADS && n > 1
                ? org.fabricscope.model.core.Beside.start("fabricscope-checks", work) : null;
        try {
            work.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (other != null) {
            other.join(); // its findings are visible once it has finished
        }
        List<Finding> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.addAll(found.get(i));
        }
        out.sort(ORDER);
        return out;
    }

    private static List<Finding> runOne(FabricCheck c, CheckContext context) {
        java.util.Set<String> declared = new java.util.HashSet<>();
        c.findings().forEach(s -> declared.add(s.id()));
        List<Finding> out = c.run(context);
        for (Finding f : out) {
            if (!declared.contains(f.id())) {
                throw new IllegalStateException(c.getClass().getSimpleName() + " raised '" + f.id()
                        + "', which it does not declare in findings()");
            }
        }
        return out;
    }
}
