package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{placeholders}}} of a flow's questions, commands, conclusions and remedies:
 * {@code {{pod}}}, {@code {{node}}} ... (see {@link #VARIABLES}: filled from the job the flow looks
 * at, and from the answers of the steps walked so far), and {@code {{answer:STEP}}}, the one-line
 * answer of that step. A placeholder with no value is written {@code <pod>}, as documentation writes
 * a value to fill in.
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
            "gid-indexes", "per host, the NCCL_IB_GID_INDEX and NCCL_IB_HCA its GID table gives (one indented line each)");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
    static final String ANSWER = "answer:";

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
        if (text == null) {
            return out;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Fills the placeholders; a variable without a value becomes {@code <name>}, an unasked step's answer {@code (not asked)}. */
    public static String render(String text, Map<String, String> vars, Map<String, Answer> answers) {
        if (text == null || text.indexOf("{{") < 0) {
            return text;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value;
            if (name.startsWith(ANSWER)) {
                Answer a = answers.get(name.substring(ANSWER.length()));
                value = a == null ? "(not asked)" : a.detail();
            } else {
                value = vars.get(name);
                if (value == null || value.isEmpty()) {
                    value = "<" + name + ">";
                }
            }
            m.appendReplacement(b, Matcher.quoteReplacement(value));
        }
        m.appendTail(b);
        return b.toString();
    }
}
