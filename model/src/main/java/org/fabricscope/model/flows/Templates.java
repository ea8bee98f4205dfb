package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code {{placeholders}}} of a flow's questions, commands, conclusions and remedies:
 * {@code {{pod}}}, {@code {{node}}} ... (see {@link #VARIABLES}: filled from the job the flow looks
 * at, and from the answers of the steps walked so far), and {@code {{answer:STEP}}}, the one-line
 * answer of that step. A placeholder with no value is written {@code <pod>}, as documentation writes
 * a value to fill in.
 *
 * <p>Placeholders are found by one linear scan (a text of {@code {{} and a million spaces takes a
 * millisecond, not the minutes a backtracking pattern took), and what they expand into is bounded: one
 * text renders to at most {@link #MAX_TEXT_CHARS} characters, and a {@link Budget} bounds a whole run's.
 * Past either, the text ends with a line naming the limit.
 */
public final class Templates {
    /** The variables a template may name, with what each holds. */
    public static final Map<String, String> VARIABLES = orderedMap(
            "job", "the training job's name",
            "namespace", "the job's (or pod's) namespace",
            "pod", "the pod in question: the one a step named, else the lagging rank's, a Failed one, a running one, a Pending one",
            "node", "the Kubernetes node of that pod (or the node a step named)",
            "host", "the fabric host (the node, or the host a log names)",
            "rank", "the rank in question (the lagging or the failed rank)",
            "gpu", "that rank's GPU",
            "hca", "that rank's RDMA device (mlx5_4, erdma_0)",
            "hca-port", "the port number of that RDMA device a step found (1)",
            "leaf-port", "the leaf switch port its HCA is cabled to",
            "instance-type", "the node's instance type label",
            "erdma-nics", "how many eRDMA NICs that instance type has (the PAI eRDMA guide's table)",
            "nccl-version", "the NCCL version a step found",
            "exit", "the failed rank's exit code and signal",
            "gid-index", "the NCCL_IB_GID_INDEX the GID tables give: the RoCE v2 index of the IPv4-mapped GID, when every port shares it",
            "ib-hca", "the NCCL_IB_HCA that takes exactly the device ports with such a GID (names, =names, or a prefix)",
            "gid-indexes", "per host, the NCCL_IB_GID_INDEX and NCCL_IB_HCA its GID table gives (one indented line each)",
            "roce-priority", "the priority RoCE traffic uses (from NCCL_IB_TC or NCCL_IB_SL through the NIC's trust state and DSCP table; 3 when assumed)");

    static final String ANSWER = "answer:";
    /** The most characters one rendered text holds (a question, a command, a conclusion, a remedy). */
    public static final int MAX_TEXT_CHARS = 256 * 1024;

    private Templates() {
    }

    private static Map<String, String> orderedMap(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The placeholder names of a text, in order ({@code pod}, {@code answer:gid-set}). */
    public static List<String> names(String text) {
        List<String> out = new ArrayList<>();
        scan(text, (from, to, name) -> out.add(name));
        return out;
    }

    /** Where a placeholder was found: {@code text[from, to)} is {@code {{ name }}}. */
    private interface Found {
        void at(int from, int to, String name);
    }

    /**
     * Finds each {@code {{ name }}} (a name holds no brace; blanks around it are dropped), left to right,
     * in time linear in the text: from each {@code {{} the scan goes to the first brace after it, which
     * closes the placeholder when it starts {@code }}}; otherwise the next {@code {{} is looked for from
     * there (no start before that brace can match), so no character is read more than twice.
     */
    private static void scan(String text, Found found) {
        if (text == null) {
            return;
        }
        int n = text.length();
        int i = text.indexOf("{{");
        while (i >= 0) {
            int k = i + 2;
            while (k < n && text.charAt(k) != '{' && text.charAt(k) != '}') {
                k++;
            }
            if (k >= n) {
                return; // no brace after it: neither this nor any later start is closed
            }
            if (text.charAt(k) == '}' && k + 1 < n && text.charAt(k + 1) == '}') {
                found.at(i, k + 2, strip(text, i + 2, k));
                i = text.indexOf("{{", k + 2);
            } else {
                i = text.indexOf("{{", Math.max(i + 1, k - 1));
            }
        }
    }

    /** {@code text[from, to)} without the blanks ({@code \\s}: space, tab, line breaks, form feed) around it. */
    private static String strip(String text, int from, int to) {
        while (from < to && blank(text.charAt(from))) {
            from++;
        }
        while (to > from && blank(text.charAt(to - 1))) {
            to--;
        }
        return text.substring(from, to);
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /**
     * How many characters the texts of one run may still render to. The flow engine gives each run one,
     * so that the flows of a user's folder cannot fill a report with gigabytes of expansions.
     */
    public static final class Budget {
        private final long limit;
        private final String name;
        private long left;

        /** A budget of {@code limit} characters, named in the line that ends a refused text ({@code FlowEngine.MAX_RENDERED_CHARS}). */
        public Budget(long limit, String name) {
            this.limit = limit;
            this.name = name;
            this.left = limit;
        }

        /** A budget no text can pass (tests, one-off rendering). */
        public static Budget unbounded() {
            return new Budget(Long.MAX_VALUE, "unbounded");
        }

        public long left() {
            return left;
        }
    }

    /**
     * Fills the placeholders; a variable without a value becomes what it stands for where that is known ({@code the RDMA
     * device, e.g. mlx5_0}), else {@code <name>}; an unasked step's answer {@code (not asked)}.
     */
    public static String render(String text, Map<String, String> vars, Map<String, Answer> answers) {
        return render(text, vars, answers, Budget.unbounded());
    }

    /**
     * As {@link #render(String, Map, Map)}, within {@link #MAX_TEXT_CHARS} and what is left of the budget
     * (which the result's length is taken from). A text that would pass either is cut where it reaches the
     * limit and ends with a line naming that limit; nothing past it is expanded.
     */
    public static String render(String text, Map<String, String> vars, Map<String, Answer> answers, Budget budget) {
        return render(text, vars, answers, budget, false);
    }

    /**
     * As {@link #render(String, Map, Map, Budget)} for a command to be pasted into a shell: a variable the evidence did
     * not give becomes {@code ${HCA:?set HCA to the RDMA device, e.g. mlx5_0}}, which the shell refuses to run unset.
     */
    public static String renderCommand(String text, Map<String, String> vars, Map<String, Answer> answers, Budget budget) {
        return render(text, vars, answers, budget, true);
    }

    private static String render(String text, Map<String, String> vars, Map<String, Answer> answers, Budget budget,
                                 boolean command) {
        if (text == null) {
            return null;
        }
        long room = Math.min(MAX_TEXT_CHARS, budget.left);
        String limit = room == budget.left && budget.left < MAX_TEXT_CHARS
                ? "the flows' text in this run passed " + budget.name + " = " + budget.limit + " characters"
                : "the text passed Templates.MAX_TEXT_CHARS = " + MAX_TEXT_CHARS + " characters";
        StringBuilder b = new StringBuilder(Math.min(text.length(), (int) Math.min(room, MAX_TEXT_CHARS)) + 16);
        int[] copied = {0};
        boolean[] full = {false};
        scan(text, (from, to, name) -> {
            if (full[0]) {
                return;
            }
            full[0] = !append(b, text, copied[0], from, room) || !append(b, value(name, vars, answers, command), 0, -1, room);
            copied[0] = to;
        });
        if (!full[0]) {
            full[0] = !append(b, text, copied[0], text.length(), room);
        }
        if (full[0]) {
            b.append("\n[placeholder expansion stopped: ").append(limit).append("]");
        }
        budget.left = Math.max(0, budget.left - b.length());
        return b.toString();
    }

    /** Appends {@code s[from, to)} ({@code to} -1: to its end) within {@code room}; false when it did not fit. */
    private static boolean append(StringBuilder b, String s, int from, int to, long room) {
        int end = to < 0 ? s.length() : to;
        long fits = room - b.length();
        if (end - from <= fits) {
            b.append(s, from, end);
            return true;
        }
        b.append(s, from, from + (int) Math.max(0, fits));
        return false;
    }

    private static String value(String name, Map<String, String> vars, Map<String, Answer> answers, boolean command) {
        if (name.startsWith(ANSWER)) {
            Answer a = answers.get(name.substring(ANSWER.length()));
            return a == null ? "(not asked)" : a.detail();
        }
        String value = vars.get(name);
        if (value != null && !value.isEmpty()) {
            return value;
        }
        String hint = HINTS.get(name);
        if (command) {
            // a shell variable that stops the command with what to set, where a literal <name> would be a redirection
            String env = name.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
            String what = hint != null ? hint : COMMAND_HINTS.get(name);
            return "${" + env + ":?set " + env + (what == null ? "" : " to " + what) + "}";
        }
        return hint == null ? "<" + name + ">" : hint;
    }

    /**
     * What a variable the evidence did not give stands for, in words (prose) and in a command's "set X to …"; no quote
     * or parenthesis, which would end a quoted or substituted part of the command around it.
     */
    private static final Map<String, String> HINTS = Map.of(
            "hca", "the RDMA device, e.g. mlx5_0",
            "ib-hca", "the RDMA device named in NCCL_IB_HCA",
            "hca-port", "the port of the device, e.g. 1",
            "gid-index", "the GID index");

    /** What the variables that prose leaves as {@code <name>} stand for, in a command's "set X to …". */
    private static final Map<String, String> COMMAND_HINTS = Map.of(
            "pod", "a pod of the job",
            "namespace", "the namespace of the job",
            "node", "the name of the node",
            "host", "the name of the host",
            "rank", "the rank");
}
