package org.fabricscope.app.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.fabricscope.app.report.PairMatrixReport;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.pairwise.PairCell;
import org.fabricscope.model.pairwise.PairMatrices;
import org.fabricscope.model.pairwise.PairMatrix;
import org.fabricscope.model.pairwise.PairVerdict;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope pairs}: the pairwise tests of the inputs (perftest {@code ib_*_bw}/{@code ib_*_lat}
 * runs, nccl-tests runs between two hosts) as a matrix per test, with the verdict (the node slow in all
 * its pairs, a slow link, or why none can be judged) and the runs no pair was found for; {@code --json}
 * for scripts.
 */
@Command(name = "pairs", mixinStandardHelpOptions = true,
        description = "Print the pairwise tests (perftest ib_*_bw and ib_*_lat, nccl-tests between two hosts) as a matrix"
                + " per test, the node slow in every pair it is part of or the one slow link, and the runs on no known pair.")
final class PairsCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Option(names = "--json", description = "Print {\"matrices\": [{test, kind, unit, nodes, cells, verdict}], \"unplaced\": [...]} as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws java.io.IOException {
        InputOptions.Loaded in = input.load();
        PairMatrices pairs = PairMatrices.of(in.analysis().model());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonDocs.write(json(pairs)));
            return 0;
        }
        out.print(PairMatrixReport.text(pairs));
        out.flush();
        return 0;
    }

    static Map<String, Object> json(PairMatrices pairs) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("matrices", pairs.matrices().stream().map(PairsCommand::matrix).toList());
        doc.put("unplaced", pairs.unplaced().stream().map(u -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("test", u.test());
            m.put("source", u.at().source());
            m.put("line", u.at().line());
            m.put("reason", u.reason());
            return m;
        }).toList());
        return doc;
    }

    private static Map<String, Object> matrix(PairMatrix m) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("test", m.test());
        doc.put("kind", m.kind().id());
        doc.put("unit", m.kind().unit());
        doc.put("higherIsBetter", m.kind().higherIsBetter());
        doc.put("measure", m.kind().measure());
        doc.put("nodes", m.nodes());
        doc.put("best", Double.isNaN(m.best()) ? null : m.best());
        doc.put("cells", m.cells().stream().map(c -> cell(m, c)).toList());
        PairVerdict v = m.verdict();
        Map<String, Object> verdict = new LinkedHashMap<>();
        verdict.put("slowNodes", v.slowNodes().stream().map(s -> {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("node", s.node());
            n.put("pairs", s.cells().stream().map(c -> List.of(c.a(), c.b())).toList());
            n.put("reference", s.reference());
            n.put("referencePairs", s.referencePairs());
            n.put("worst", s.worst());
            n.put("best", s.best());
            return n;
        }).toList());
        verdict.put("slowLinks", v.slowLinks().stream().map(l -> {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("a", l.cell().a());
            n.put("b", l.cell().b());
            n.put("reference", l.reference());
            n.put("referencePairs", l.referencePairs());
            n.put("score", l.score());
            return n;
        }).toList());
        verdict.put("notJudged", v.notJudged());
        verdict.put("tooFew", v.tooFew());
        verdict.put("sentences", v.sentences(m));
        doc.put("verdict", verdict);
        return doc;
    }

    private static Map<String, Object> cell(PairMatrix m, PairCell c) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("a", c.a());
        doc.put("b", c.b());
        doc.put("value", c.failed() ? null : c.value());
        doc.put("unit", c.unit());
        doc.put("kind", c.kind().id());
        doc.put("failed", c.failed());
        doc.put("what", c.what());
        doc.put("fractionOfBest", m.fractionOfBest(c));
        doc.put("how", c.how().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        doc.put("runs", c.runs());
        doc.put("evidence", c.evidence().stream().map(PairsCommand::evidence).toList());
        return doc;
    }

    private static Map<String, Object> evidence(Evidence e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", e.source());
        m.put("line", e.line());
        m.put("text", e.text());
        return m;
    }
}
