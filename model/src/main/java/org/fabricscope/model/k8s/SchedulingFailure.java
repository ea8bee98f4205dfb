package org.fabricscope.model.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed FailedScheduling message. The grammar is kube-scheduler's {@code FitError.Error()}
 * ({@code pkg/scheduler/framework/types.go}): {@code 0/N nodes are available: <count> <reason>{, ...}.
 * [preemption: 0/N nodes are available: <count> <reason>{, ...}.]} with a trailing {@code ..} in
 * recent versions and a single {@code .} in others. A variant seen in forks writes
 * {@code <reason>: <count>}. Reasons the scheduler does not define (custom schedulers such as HAMi,
 * Volcano, HiveD) are kept as {@link Kind#OTHER} with their text.
 */
public record SchedulingFailure(int totalNodes, List<Reason> reasons, List<Reason> preemption, String message) {
    private static final Pattern HEAD = Pattern.compile("^\\s*0/(\\d+) nodes are available:\\s*(.*)$", Pattern.DOTALL);
    private static final Pattern PREEMPTION = Pattern.compile("\\s*preemption:\\s*0/\\d+ nodes are available:\\s*");
    private static final Pattern COUNT_FIRST = Pattern.compile("^(\\d+)\\s+(.+)$", Pattern.DOTALL);
    private static final Pattern COUNT_LAST = Pattern.compile("^(.+?):\\s*(\\d+)$", Pattern.DOTALL);
    private static final Pattern INSUFFICIENT = Pattern.compile("^Insufficient (\\S+)$");
    private static final Pattern TAINT = Pattern.compile("^node\\(s\\) had (?:untolerated )?taints? \\{(.*)\\}$");

    public SchedulingFailure {
        reasons = List.copyOf(reasons);
        preemption = List.copyOf(preemption);
    }

    public enum Kind {
        INSUFFICIENT, UNTOLERATED_TAINT, NODE_AFFINITY, UNSCHEDULABLE, POD_AFFINITY, OTHER
    }

    /** One reason: how many nodes it applies to, its kind, and its subject (the resource, the taint, or the text). */
    public record Reason(int count, Kind kind, String subject, String text) {
    }

    public List<Reason> reasons(Kind kind) {
        return reasons.stream().filter(r -> r.kind() == kind).toList();
    }

    /** The parsed message, or null when it does not start with {@code 0/N nodes are available:}. */
    public static SchedulingFailure parse(String message) {
        if (message == null) {
            return null;
        }
        Matcher h = HEAD.matcher(message.strip());
        if (!h.matches()) {
            return null;
        }
        int total = count(h.group(1));
        if (total < 0) {
            return null; // a node count past 32 bits is not kube-scheduler's: read as plain text
        }
        String rest = h.group(2);
        String filter = rest;
        String pre = "";
        Matcher p = PREEMPTION.matcher(rest);
        if (p.find()) {
            filter = rest.substring(0, p.start());
            pre = rest.substring(p.end());
        }
        return new SchedulingFailure(total, reasonList(filter), reasonList(pre), message.strip());
    }

    private static List<Reason> reasonList(String text) {
        List<Reason> out = new ArrayList<>();
        String t = text.strip();
        while (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        if (t.isEmpty()) {
            return out;
        }
        for (String part : splitTopLevel(t)) {
            String s = part.strip();
            if (s.isEmpty()) {
                continue;
            }
            int count;
            String reason;
            Matcher a = COUNT_FIRST.matcher(s);
            Matcher b = COUNT_LAST.matcher(s);
            if (a.matches() && count(a.group(1)) >= 0) {
                count = count(a.group(1));
                reason = a.group(2).strip();
            } else if (b.matches() && count(b.group(2)) >= 0) {
                count = count(b.group(2));
                reason = b.group(1).strip();
            } else {
                count = 0;
                reason = s;
            }
            out.add(classify(count, reason));
        }
        return out;
    }

    /** A node count, or -1 when it does not fit an int. */
    private static int count(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Splits on ", " outside braces (a taint {key: value} holds no comma, but a custom reason may). */
    private static List<String> splitTopLevel(String t) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                String next = t.substring(i + 1).stripLeading();
                // a new reason starts with its count (or is the "reason: count" variant); otherwise the
                // comma belongs to a custom scheduler's text
                if (next.isEmpty() || Character.isDigit(next.charAt(0)) || COUNT_LAST.matcher(t.substring(start, i).strip()).matches()) {
                    parts.add(t.substring(start, i));
                    start = i + 1;
                }
            }
        }
        parts.add(t.substring(start));
        return parts;
    }

    private static Reason classify(int count, String reason) {
        Matcher ins = INSUFFICIENT.matcher(reason);
        if (ins.matches()) {
            return new Reason(count, Kind.INSUFFICIENT, ins.group(1), reason);
        }
        Matcher taint = TAINT.matcher(reason);
        if (taint.matches()) {
            return new Reason(count, Kind.UNTOLERATED_TAINT, taint.group(1), reason);
        }
        if (reason.contains("didn't match Pod's node affinity") || reason.contains("didn't match node selector")
                || reason.contains("didn't match Pod's node selector")) {
            return new Reason(count, Kind.NODE_AFFINITY, "", reason);
        }
        if (reason.equals("node(s) were unschedulable")) {
            return new Reason(count, Kind.UNSCHEDULABLE, "", reason);
        }
        if (reason.contains("pod affinity") || reason.contains("pod anti-affinity")) {
            return new Reason(count, Kind.POD_AFFINITY, "", reason);
        }
        return new Reason(count, Kind.OTHER, reason, reason);
    }
}
