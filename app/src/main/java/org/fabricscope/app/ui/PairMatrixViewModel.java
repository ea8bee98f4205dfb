package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.SubjectResolver;
import org.fabricscope.app.report.PairMatrixReport;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.pairwise.PairCell;
import org.fabricscope.model.pairwise.PairMatrices;
import org.fabricscope.model.pairwise.PairMatrix;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Pairs tab's state: the pairwise matrices of the current analysis ({@link PairMatrices}, worked out
 * in the background each time an analysis is loaded), the one shown (a test: {@code ib_write_bw},
 * {@code all_reduce_perf}), the grid position in focus and its pair, what the matrix is, the verdict's
 * sentences and the runs on no known pair. Selecting a pair marks both hosts on the map (through the
 * window's navigation, leaving this tab in front); opening it hands its result line to the view, which
 * opens it in the Logs tab or a viewer. No controls.
 */
public final class PairMatrixViewModel {
    /** The header while no pairwise test is loaded. */
    static final String NOTHING_LOADED = "Open perftest outputs (ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat) or nccl-tests "
            + "runs between two hosts to see who is slow with whom";

    /** A grid position: row and column indexes into the shown matrix's nodes. */
    public record At(int row, int col) {
    }

    private final TaskExecutor executor;
    private final Consumer<Navigation> showParty;
    private final ObservableList<PairMatrix> matrices = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<PairMatrix> shown = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<At> focus = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<PairCell> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper header = new ReadOnlyStringWrapper(NOTHING_LOADED);
    private final ObservableList<String> verdict = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper unplaced = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Pairs");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper slow = new ReadOnlyBooleanWrapper();
    private BackgroundTask<Result> running;
    private long generation;
    private SubjectResolver resolver;
    private PairMatrices all = PairMatrices.EMPTY;

    private record Result(PairMatrices pairs, SubjectResolver resolver) {
    }

    /** {@code showParty}: marks a pair's hosts on the map, leaving the tab in front. */
    PairMatrixViewModel(TaskExecutor executor, Consumer<Navigation> showParty) {
        this.executor = executor;
        this.showParty = showParty;
    }

    /** A new load's analysis: its matrices are worked out off the UI thread (the check may have done it: then it is kept). */
    void show(Analysis analysis) {
        show(analysis, a -> PairMatrices.of(a.model()));
    }

    /** As {@link #show(Analysis)}, with the matrices given (tests). */
    void show(Analysis analysis, Function<Analysis, PairMatrices> compute) {
        if (running != null) {
            running.cancel();
        }
        long gen = ++generation;
        busy.set(true);
        header.set("Working out the pairwise matrices…");
        running = executor.execute(BackgroundTask.of(ctx -> new Result(compute.apply(analysis), new SubjectResolver(analysis)))
                .onSuccess(r -> {
                    if (gen == generation) {
                        apply(r);
                    }
                }).onFailure(e -> {
                    if (gen == generation) {
                        apply(new Result(PairMatrices.EMPTY, null));
                        header.set("The pairwise matrices could not be worked out: " + e.getMessage());
                    }
                }).onFinished(() -> {
                    if (gen == generation) {
                        busy.set(false);
                    }
                }));
    }

    private void apply(Result r) {
        String before = shown.get() == null ? null : shown.get().title();
        all = r.pairs();
        resolver = r.resolver();
        matrices.setAll(all.matrices());
        int cells = all.matrices().stream().mapToInt(m -> m.cells().size()).sum();
        title.set(cells == 0 ? "Pairs" : "Pairs (" + cells + ")");
        unplaced.set(unplacedText(all));
        PairMatrix again = all.matrices().stream().filter(m -> m.title().equals(before)).findFirst().orElse(null);
        choose(again != null ? again : all.matrices().isEmpty() ? null : all.matrices().get(0));
    }

    static String unplacedText(PairMatrices p) {
        if (p.unplaced().isEmpty()) {
            return "";
        }
        List<String> out = new ArrayList<>();
        out.add(p.unplaced().size() + (p.unplaced().size() == 1 ? " run is" : " runs are") + " on no known pair:");
        p.unplaced().stream().limit(5).forEach(u -> out.add(u.at().source().replaceAll(".*[/\\\\!]", "") + ": " + u.reason()));
        if (p.unplaced().size() > 5) {
            out.add("… and " + (p.unplaced().size() - 5) + " more (fabricscope pairs lists them all)");
        }
        return String.join("\n", out);
    }

    /** Shows one test's matrix (null: none); the focus goes to its first slow pair, if any. */
    public void choose(PairMatrix m) {
        shown.set(m);
        selected.set(null);
        focus.set(null);
        if (m == null) {
            header.set(all.unplaced().isEmpty() ? NOTHING_LOADED : "No pairwise test could be placed on two hosts");
            verdict.clear();
            slow.set(false);
            return;
        }
        header.set(m.title() + ": " + PairMatrixReport.about(m));
        verdict.setAll(m.verdict().sentences(m));
        slow.set(!m.verdict().healthy());
    }

    /** Puts the focus on a grid position (clamped; null clears it) and selects its pair, marking both hosts on the map. */
    public void focus(At at) {
        PairMatrix m = shown.get();
        if (m == null || at == null) {
            focus.set(null);
            selected.set(null);
            return;
        }
        int n = m.nodes().size();
        At clamped = new At(Math.max(0, Math.min(n - 1, at.row())), Math.max(0, Math.min(n - 1, at.col())));
        focus.set(clamped);
        PairCell c = m.cell(m.nodes().get(clamped.row()), m.nodes().get(clamped.col()));
        if (clamped.row() == clamped.col()) {
            c = null;
        }
        selected.set(c);
        if (c != null && resolver != null) {
            Navigation nav = resolver.resolveAll(List.<Subject>of(new Subject.HostRef(c.a(), c.a()), new Subject.HostRef(c.b(), c.b())));
            if (!nav.isEmpty()) {
                showParty.accept(nav);
            }
        }
    }

    /** Moves the focus by rows and columns; with none, it starts at the first slow pair or the first pair. */
    public void move(int rows, int cols) {
        PairMatrix m = shown.get();
        if (m == null || m.nodes().isEmpty()) {
            return;
        }
        At at = focus.get();
        focus(at == null ? start(m) : new At(at.row() + rows, at.col() + cols));
    }

    private static At start(PairMatrix m) {
        PairCell first = m.verdict().slowNodes().isEmpty() ? m.verdict().slowLinks().isEmpty() ? m.cells().get(0)
                : m.verdict().slowLinks().get(0).cell() : m.verdict().slowNodes().get(0).cells().get(0);
        return new At(m.nodes().indexOf(first.a()), m.nodes().indexOf(first.b()));
    }

    /** The line to open for a pair (its result line, else the first line of its evidence), selecting it; null when none. */
    public Evidence open(At at) {
        focus(at);
        PairCell c = selected.get();
        if (c == null) {
            return null;
        }
        return c.evidence().stream().filter(e -> e.line() > 0 && !e.source().isEmpty()).findFirst().orElse(null);
    }

    /** The shown matrix as tab-separated values: a header row of nodes, a row per node; empty when none is shown. */
    public String tsv() {
        return shown.get() == null ? "" : tsv(shown.get());
    }

    static String tsv(PairMatrix m) {
        StringBuilder b = new StringBuilder(m.test() + " (" + m.kind().unit() + ")");
        for (String n : m.nodes()) {
            b.append('\t').append(n);
        }
        b.append('\n');
        for (String r : m.nodes()) {
            b.append(r);
            for (String c : m.nodes()) {
                PairCell cell = r.equals(c) ? null : m.cell(r, c);
                b.append('\t').append(cell == null ? "" : cell.failed() ? "failed" : PairMatrixReport.number(cell.value()));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The hover text of a pair. */
    public static String tooltip(PairMatrix m, PairCell c) {
        return PairMatrixReport.tooltip(m, c);
    }

    /** The matrices, one per test, most pairs first: the chooser's items. */
    public ObservableList<PairMatrix> matrices() {
        return matrices;
    }

    public ReadOnlyObjectProperty<PairMatrix> shownProperty() {
        return shown.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<At> focusProperty() {
        return focus.getReadOnlyProperty();
    }

    /** The pair in focus (null on the diagonal, a pair not measured, or nothing in focus). */
    public ReadOnlyObjectProperty<PairCell> selectedProperty() {
        return selected.getReadOnlyProperty();
    }

    /** What the shown matrix is: test, nodes, pairs, the measure, how the pairs were told; or what to open. */
    public ReadOnlyStringProperty headerProperty() {
        return header.getReadOnlyProperty();
    }

    /** The verdict's sentences for the shown matrix: the slow node or link, else none, and who could not be judged. */
    public ObservableList<String> verdict() {
        return verdict;
    }

    /** The runs on no known pair, and why (first five), or empty. */
    public ReadOnlyStringProperty unplacedProperty() {
        return unplaced.getReadOnlyProperty();
    }

    /** Whether the shown matrix has a slow node or link (the verdict in the danger style). */
    public ReadOnlyBooleanProperty slowProperty() {
        return slow.getReadOnlyProperty();
    }

    /** The tab's title: {@code Pairs (n)}, n the measured pairs over every test. */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** True while the matrices are being worked out. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}
