package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.flows.FlowResult.ConclusionResult;
import org.fabricscope.model.flows.FlowResult.Status;
import org.fabricscope.model.flows.FlowResult.StepResult;

/**
 * Walks flows over an analysis: "What's wrong?". Each flow first checks its entry symptom; a flow
 * whose symptom is absent is not applicable, with the reason. Otherwise the walk starts at the first
 * step, asks its fact, follows the branch of the answer, and ends at a conclusion, or stops where a
 * manual step (or an unknown answer with no branch for it) needs input. Answers the user gave
 * ({@code given}, keyed {@code flow/step}) stand in for answers the model cannot give. The results are
 * ranked: applicable flows first, by the worst severity of their matched findings, then in library order
 * (the built-in order puts flows of one specific symptom, a timeout or a crash, before broad ones).
 * The texts one run renders (questions, commands, conclusions, remedies with their placeholders filled)
 * hold at most {@link #MAX_RENDERED_CHARS} characters together; the built-in flows walk first, so a
 * user's flow that expands into megabytes cannot crowd them out.
 */
public final class FlowEngine {
    /** The most characters the rendered texts of one run hold together: 8 Mi. */
    public static final long MAX_RENDERED_CHARS = 8L << 20;
    private final FlowFacts facts;

    public FlowEngine(FlowFacts facts) {
        this.facts = facts;
    }

    public static FlowEngine standard() {
        return new FlowEngine(FlowFacts.standard());
    }

    /** Every flow of the library over the analysis, ranked. */
    public List<FlowResult> run(FlowLibrary library, Analysis analysis) {
        return run(library.flows(), FlowContext.of(analysis), Map.of());
    }

    /**
     * What the user said for a step the model cannot answer: the verdict, the output of the step's
     * command as pasted (may be empty), kept as the answer's evidence, and what was read from it
     * ({@link PastedOutput.Result#read()}; empty when nothing was).
     */
    public record Given(Verdict verdict, String output, List<String> read) {
        public Given {
            java.util.Objects.requireNonNull(verdict, "verdict");
            output = output == null ? "" : output;
            read = read == null ? List.of() : List.copyOf(read);
        }

        /** An answer with its pasted output, nothing read from it. */
        public Given(Verdict verdict, String output) {
            this(verdict, output, List.of());
        }
    }

    /** These flows over one context with the user's answers ({@code flow/step} to yes or no), ranked. */
    public List<FlowResult> run(List<Flow> flows, FlowContext context, Map<String, Verdict> given) {
        return runGiven(flows, context, given(given));
    }

    /** As {@link #run(List, FlowContext, Map)} with the commands' output the user pasted. */
    public List<FlowResult> runGiven(List<Flow> flows, FlowContext context, Map<String, Given> given) {
        List<FlowResult> out = new ArrayList<>();
        Templates.Budget budget = budget();
        for (Flow f : flows) {
            out.add(runGiven(f, context, given, budget));
        }
        // a stable sort: flows that rank alike keep the order given (their results were once keys of a map to
        // that order, and hashing each flow's whole record was a twentieth of a small diagnose: BENCHMARKS.md)
        out.sort(Comparator.comparing((FlowResult r) -> !r.applicable())
                .thenComparing(r -> r.severity() == null ? Severity.INFO.ordinal() + 1 : r.severity().ordinal()));
        return out;
    }

    private static Map<String, Given> given(Map<String, Verdict> verdicts) {
        Map<String, Given> m = new LinkedHashMap<>();
        verdicts.forEach((k, v) -> m.put(k, new Given(v, "")));
        return m;
    }

    /** One flow over one context. */
    public FlowResult run(Flow flow, FlowContext context, Map<String, Verdict> given) {
        return runGiven(flow, context, given(given));
    }

    /** One flow over one context, with the user's answers and pasted output. */
    public FlowResult runGiven(Flow flow, FlowContext context, Map<String, Given> given) {
        return runGiven(flow, context, given, budget());
    }

    private static Templates.Budget budget() {
        return new Templates.Budget(MAX_RENDERED_CHARS, "FlowEngine.MAX_RENDERED_CHARS");
    }

    private FlowResult runGiven(Flow flow, FlowContext context, Map<String, Given> given, Templates.Budget budget) {
        List<String> symptoms = new ArrayList<>();
        Severity worst = null;
        boolean job = "job".equals(flow.entry().scope());
        for (String id : flow.entry().findings()) {
            List<Finding> fs = context.findings(id).stream().filter(f -> !job || context.touchesJob(f)).toList();
            if (!fs.isEmpty()) {
                symptoms.add(id);
                for (Finding f : fs) {
                    worst = worst == null || f.severity().compareTo(worst) < 0 ? f.severity() : worst;
                }
            }
        }
        List<String> absent = new ArrayList<>();
        for (FactCall call : flow.entry().facts()) {
            Answer a = facts.answer(call, context);
            if (a.verdict() == Verdict.YES) {
                symptoms.add(call.fact() + ": " + a.detail());
                worst = worst == null || Severity.WARNING.compareTo(worst) < 0 ? Severity.WARNING : worst;
            } else {
                absent.add(call.fact() + ": " + a.verdict().label() + " (" + a.detail() + ")");
            }
        }
        if (symptoms.isEmpty()) {
            List<String> why = new ArrayList<>();
            if (!flow.entry().findings().isEmpty()) {
                why.add("no " + String.join(", ", flow.entry().findings()) + " finding" + (job ? " about the job" : ""));
            }
            why.addAll(absent);
            return new FlowResult(flow, Status.NOT_APPLICABLE, "Its symptom is absent: " + String.join("; ", why) + ".",
                    symptoms, List.of(), null, null);
        }
        return walk(flow, context, given, symptoms, worst, budget);
    }

    private FlowResult walk(Flow flow, FlowContext context, Map<String, Given> given, List<String> symptoms, Severity worst,
                            Templates.Budget budget) {
        Map<String, String> vars = new LinkedHashMap<>(context.focus());
        Map<String, Answer> answers = new LinkedHashMap<>();
        List<StepResult> walked = new ArrayList<>();
        Flow.Step step = flow.first();
        for (int guard = 0; guard <= flow.steps().size(); guard++) {
            Answer a = facts.answer(step.ask(), context);
            boolean byUser = false;
            Given g = given.get(flow.id() + "/" + step.id());
            if (a.verdict() == Verdict.UNKNOWN && g != null && g.verdict() != Verdict.UNKNOWN) {
                Map<String, String> at = new LinkedHashMap<>(vars);
                at.putAll(a.values());
                String command = Templates.renderCommand(step.command(), at, answers, budget);
                List<Evidence> pasted = new ArrayList<>();
                String[] lines = g.output().split("\\R");
                for (int i = 0; i < lines.length && pasted.size() < Answer.MAX_EVIDENCE; i++) {
                    if (!lines[i].isBlank()) {
                        pasted.add(Evidence.at("user: " + command, i + 1, lines[i]));
                    }
                }
                String detail = "answered " + g.verdict().label() + " by the user"
                        + (g.read().isEmpty() ? "" : "; read from the paste: " + String.join("; ", g.read()));
                a = new Answer(g.verdict(), detail, pasted, List.of(), a.values());
                byUser = true;
            }
            vars.putAll(a.values());
            answers.put(step.id(), a);
            walked.add(new StepResult(step.id(), Templates.render(step.question(), vars, answers, budget), step.kind(), a,
                    Templates.renderCommand(step.command(), vars, answers, budget), Templates.render(step.expect(), vars, answers, budget),
                    byUser));
            String next = step.next(a.verdict());
            if (next == null) {
                String command = Templates.renderCommand(step.command(), vars, answers, budget);
                String reason = "Step '" + step.id() + "' needs input: " + (step.kind() == Flow.Kind.MANUAL
                        ? "run " + (command.isEmpty() ? "the command" : command) + " and answer yes or no"
                        : a.detail() + (command.isEmpty() ? "" : "; " + command + " shows it"))
                        + " (diagnose --answer " + flow.id() + "/" + step.id() + "=yes|no).";
                return new FlowResult(flow, Status.NEEDS_INPUT, reason, symptoms, walked, null, worst);
            }
            Flow.Conclusion c = flow.conclusion(next);
            if (c != null) {
                String text = Templates.render(c.text(), vars, answers, budget);
                List<String> remedies = new ArrayList<>();
                for (String r : c.remedies()) {
                    if (budget.left() == 0) {
                        remedies.add("[" + (c.remedies().size() - remedies.size()) + " more remedies not rendered: the flows' "
                                + "text in this run passed FlowEngine.MAX_RENDERED_CHARS = " + MAX_RENDERED_CHARS + " characters]");
                        break;
                    }
                    remedies.add(Templates.render(r, vars, answers, budget));
                }
                ConclusionResult cr = new ConclusionResult(c.id(), c.finding(), text, remedies, a.evidence());
                return new FlowResult(flow, Status.CONCLUDED, "", symptoms, walked, cr, worst);
            }
            step = flow.step(next);
        }
        throw new IllegalStateException("flow " + flow.id() + " walked more steps than it has: a cycle the loader missed");
    }
}
