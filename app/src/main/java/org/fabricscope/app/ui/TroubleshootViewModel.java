package org.fabricscope.app.ui;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.SubjectResolver;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;
import org.fabricscope.importers.PasteReaders;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowContext;
import org.fabricscope.model.flows.FlowEngine;
import org.fabricscope.model.flows.FlowEngine.Given;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.FlowResult;
import org.fabricscope.model.flows.Verdict;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Troubleshoot panel's state: the flows walked over the current analysis, ranked ("What's
 * wrong?": applicable first by the worst finding, not-applicable ones with their reason), the flow
 * picked (as a symptom, by id) and its walk: each step's question, answer, evidence and subjects (which
 * navigate as a finding's do), the step that waits for the user (a manual step's command and what its
 * output shows), and the conclusion with its remedies. Output pasted for the waiting step is checked
 * as it changes ({@link PasteCheck}): what was read from it, or why it is not that step's command's
 * output. Answering a step keeps the verdict, the pasted output and what was read as a {@link Given};
 * a paste that does not fit the step is refused and the answer not taken. A paste of a format the
 * importers read is also written to a file that declares that format and imported with the loaded
 * inputs (the window's load action, off the UI thread), and the flows are walked again over the new
 * analysis with the answers kept.
 */
public final class TroubleshootViewModel {
    /** One step as walked, with its subjects resolved to where the window shows them. */
    public record StepRow(int number, FlowResult.StepResult step, List<FindingsViewModel.SubjectRow> subjects) {
        public String heading() {
            return number + ". " + step.question();
        }

        public String answer() {
            return step.answer().verdict().label().toUpperCase() + (step.given() ? " (your answer)" : "") + " — "
                    + step.answer().detail();
        }

        public boolean manual() {
            return step.kind() == Flow.Kind.MANUAL;
        }
    }

    private final TaskExecutor executor;
    private final Consumer<Navigation> navigator;
    private final Consumer<List<Path>> importer;
    private final Supplier<FlowLibrary> library;
    private final ObservableList<FlowResult> results = FXCollections.observableArrayList();
    private final ObservableList<Flow> symptoms = FXCollections.observableArrayList();
    private final ObjectProperty<String> flowId = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<FlowResult> current = new ReadOnlyObjectWrapper<>();
    private final ObservableList<StepRow> steps = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<StepRow> waiting = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper heading = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper("");
    private final ObservableList<String> remedies = FXCollections.observableArrayList();
    private final StringProperty pasted = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final Map<String, Given> given = new LinkedHashMap<>();
    private final PasteCheck paste;
    private Analysis analysis;
    private SubjectResolver resolver;
    private List<Path> loadedPaths = List.of();
    private Map<String, Given> restored = Map.of();

    /**
     * @param importer imports these paths with the loaded ones (the window's "add files" action)
     */
    TroubleshootViewModel(TaskExecutor executor, Consumer<Navigation> navigator, Consumer<List<Path>> importer,
                          Supplier<FlowLibrary> library) {
        this.executor = executor;
        this.navigator = navigator;
        this.importer = importer;
        this.library = library;
        this.paste = new PasteCheck(executor, new PasteReaders());
        flowId.addListener((o, a, id) -> showCurrent());
        pasted.addListener((o, a, text) -> checkPaste());
        waiting.addListener((o, a, w) -> {
            paste.clear();
            checkPaste();
        });
    }

    /** The waiting step as its flow declares it (its output), or null. */
    private Flow.Step waitingStep() {
        StepRow w = waiting.get();
        FlowResult r = current.get();
        return w == null || r == null ? null : r.flow().step(w.step().id());
    }

    private void checkPaste() {
        paste.check(waitingStep(), pasted.get(), c -> { });
    }

    /** A new load's analysis: walks every flow again. Answers are kept while the inputs only grow (a paste added a file). */
    void show(Analysis newAnalysis, List<Path> paths) {
        if (!paths.containsAll(loadedPaths)) {
            given.clear();
        }
        if (!restored.isEmpty()) { // a reopened session's answers, once its inputs are loaded
            given.clear();
            given.putAll(restored);
            restored = Map.of();
        }
        loadedPaths = List.copyOf(paths);
        analysis = newAnalysis;
        resolver = new SubjectResolver(newAnalysis);
        symptoms.setAll(library.get().flows());
        rerun();
    }

    private void rerun() {
        if (analysis == null) {
            return;
        }
        results.setAll(FlowEngine.standard().runGiven(library.get().flows(), FlowContext.of(analysis), Map.copyOf(given)));
        showCurrent();
    }

    /** "What's wrong?": opens the first flow that applies (the ranking puts the worst symptom first). */
    public void whatsWrong() {
        FlowResult first = results.stream().filter(FlowResult::applicable).findFirst().orElse(null);
        if (first == null) {
            message.set(results.isEmpty() ? "Load some inputs first." : "No flow applies: no symptom any flow starts from.");
            flowId.set(null);
        } else {
            flowId.set(first.flow().id());
        }
    }

    /** Opens one flow by id (a symptom picked, or the flow that explains a finding). */
    public void open(String id) {
        if (flowId.get() != null && flowId.get().equals(id)) {
            showCurrent();
        }
        flowId.set(id);
    }

    /** The flow whose conclusion names this finding id, or null (the findings pane links to it). */
    public String flowExplaining(String findingId) {
        for (Flow f : library.get().flows()) {
            if (f.conclusions().stream().anyMatch(c -> findingId.equals(c.finding()))) {
                return f.id();
            }
        }
        for (Flow f : library.get().flows()) {
            if (f.entry().findings().contains(findingId)) {
                return f.id();
            }
        }
        return null;
    }

    private void showCurrent() {
        String id = flowId.get();
        FlowResult r = id == null ? null : results.stream().filter(x -> x.flow().id().equals(id)).findFirst().orElse(null);
        current.set(r);
        remedies.clear();
        waiting.set(null);
        if (r == null) {
            steps.clear();
            heading.set("");
            outcome.set("");
            return;
        }
        message.set("");
        heading.set(r.flow().title() + "  (" + r.flow().id() + ", " + r.status().label() + ")");
        List<FlowResult.StepResult> walked = r.steps();
        steps.setAll(java.util.stream.IntStream.range(0, walked.size()).mapToObj(i -> new StepRow(i + 1, walked.get(i),
                walked.get(i).answer().subjects().stream().map(this::row).toList())).toList());
        switch (r.status()) {
            case CONCLUDED -> {
                FlowResult.ConclusionResult c = r.conclusion();
                outcome.set("Conclusion: " + c.id() + (c.finding().isEmpty() ? "" : " (finding " + c.finding() + ")") + "\n" + c.text());
                remedies.setAll(c.remedies());
            }
            case NEEDS_INPUT -> {
                outcome.set(r.reason());
                if (!steps.isEmpty()) {
                    waiting.set(steps.get(steps.size() - 1));
                }
            }
            case NOT_APPLICABLE -> outcome.set(r.reason());
            default -> { }
        }
    }

    private FindingsViewModel.SubjectRow row(Subject s) {
        return new FindingsViewModel.SubjectRow(s, resolver == null ? Navigation.NONE : resolver.resolve(s));
    }

    /** Goes to a step's subject, as selecting it among a finding's subjects does. */
    public void showSubject(FindingsViewModel.SubjectRow row) {
        if (row != null) {
            navigator.accept(row.navigation());
        }
    }

    /**
     * The user's answer to the waiting step, with the output pasted (may be empty): kept as a
     * {@link Given}; the flows are walked again at once, and pasted output is written to a file and
     * imported with the loaded inputs (then walked again over what the readers made of it).
     */
    public void answer(Verdict verdict) {
        StepRow w = waiting.get();
        FlowResult r = current.get();
        if (w == null || r == null || verdict == Verdict.UNKNOWN) {
            return;
        }
        String output = pasted.get() == null ? "" : pasted.get();
        paste.check(waitingStep(), output, c -> take(r, w, verdict, c));
    }

    /** The answer once its paste is checked: refused when the paste is not the step's command's output. */
    private void take(FlowResult r, StepRow w, Verdict verdict, PasteCheck.Checked c) {
        if (!c.result().fits()) {
            message.set(c.result().message());
            return;
        }
        String output = c.text();
        given.put(r.flow().id() + "/" + w.step().id(), new Given(verdict, output, c.result().read()));
        pasted.set("");
        rerun();
        if (c.result().imported()) {
            String name = r.flow().id() + "-" + w.step().id();
            executor.execute(BackgroundTask.of(ctx -> PasteCheck.save(name, c.result(), output)).onSuccess(file -> {
                message.set("Importing the pasted output (" + file.getFileName() + ") with the loaded inputs, as "
                        + c.result().format() + " output only");
                importer.accept(List.of(file));
            }).onFailure(e -> message.set("Could not save the pasted output: " + e.getMessage())));
        } else if (!c.result().message().isEmpty()) {
            message.set(c.result().message());
        }
    }

    /** A file dropped on the paste area: its text becomes the pasted output (read off the UI thread). */
    public void pasteFile(Path file) {
        executor.execute(BackgroundTask.of(ctx -> Files.readString(file, StandardCharsets.UTF_8))
                .onSuccess(pasted::set)
                .onFailure(e -> message.set("Could not read " + file + ": " + e.getMessage())));
    }

    /** Answers from a reopened session: they replace those given when its inputs have been loaded (the next analysis). */
    void restoreOnNextLoad(Map<String, Given> answers) {
        restored = Map.copyOf(answers);
    }

    /** Forgets the answers given and walks the flows again. */
    public void restart() {
        given.clear();
        rerun();
    }

    /** The walked flows with the user's answers, ranked (for the incident report). */
    public List<FlowResult> walked() {
        return List.copyOf(results);
    }

    /** The answers given so far, {@code flow/step} to verdict and pasted output. */
    public Map<String, Given> given() {
        return Map.copyOf(given);
    }

    /** A flow row: status, id and title; a flow that does not apply says why. */
    public static String text(FlowResult r) {
        String head = r.status().label().toUpperCase() + "  " + r.flow().id() + "\n" + r.flow().title();
        return r.applicable() ? head : head + "\n" + r.reason();
    }

    public ObservableList<FlowResult> results() {
        return results;
    }

    /** The flows in library order, to pick by symptom. */
    public ObservableList<Flow> symptoms() {
        return symptoms;
    }

    /** The id of the flow shown, or null. */
    public ObjectProperty<String> flowIdProperty() {
        return flowId;
    }

    public ReadOnlyObjectProperty<FlowResult> currentProperty() {
        return current.getReadOnlyProperty();
    }

    public ObservableList<StepRow> steps() {
        return steps;
    }

    /** The step that waits for the user (a manual step's command and expected output), or null. */
    public ReadOnlyObjectProperty<StepRow> waitingProperty() {
        return waiting.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty headingProperty() {
        return heading.getReadOnlyProperty();
    }

    /** The conclusion (id, finding, text), or why the flow waits or does not apply. */
    public ReadOnlyStringProperty outcomeProperty() {
        return outcome.getReadOnlyProperty();
    }

    public ObservableList<String> remedies() {
        return remedies;
    }

    /** The output the user pasted for the waiting step. */
    public StringProperty pastedProperty() {
        return pasted;
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** What was read from the output pasted for the waiting step, or why it does not fit the step. */
    public ReadOnlyStringProperty pasteReadingProperty() {
        return paste.readingProperty();
    }

    /** Whether the output pasted for the waiting step does not fit it (its answer would be refused). */
    public javafx.beans.property.ReadOnlyBooleanProperty pasteRefusedProperty() {
        return paste.refusedProperty();
    }
}
