package org.fabricscope.model.compare;

import java.util.Deque;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Finding;

/**
 * The findings of the same diagnosis on both captures: those only the second has ({@code added}: new), those only
 * the first had ({@code resolved}) and those both have ({@code unchanged}, as the second capture words them). Two
 * findings are the same when their id and subjects are, or else their id and title.
 */
public record FindingDelta(List<Finding> added, List<Finding> resolved, List<Finding> unchanged) {
    public FindingDelta {
        added = List.copyOf(added);
        resolved = List.copyOf(resolved);
        unchanged = List.copyOf(unchanged);
    }

    /**
     * Matches in two passes: first by id and subjects; then, among what is left, by id and title (a finding whose
     * subjects name a process id or a log line, which differ from run to run, while it says the same).
     */
    static FindingDelta of(List<Finding> before, List<Finding> after) {
        java.util.Set<Finding> left = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        left.addAll(before);
        Map<String, Deque<Finding>> byKey = index(before, FindingDelta::key);
        Map<String, Deque<Finding>> byTitle = index(before, FindingDelta::titleKey);
        boolean[] same = new boolean[after.size()];
        for (int i = 0; i < after.size(); i++) {
            same[i] = take(byKey.get(key(after.get(i))), left);
        }
        java.util.List<Finding> added = new java.util.ArrayList<>();
        java.util.List<Finding> unchanged = new java.util.ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            Finding f = after.get(i);
            boolean matched = same[i] || take(byTitle.get(titleKey(f)), left);
            (matched ? unchanged : added).add(f);
        }
        return new FindingDelta(added, before.stream().filter(left::contains).toList(), unchanged);
    }

    private static Map<String, Deque<Finding>> index(List<Finding> findings, java.util.function.Function<Finding, String> keyOf) {
        Map<String, Deque<Finding>> out = new java.util.HashMap<>();
        for (Finding f : findings) {
            out.computeIfAbsent(keyOf.apply(f), k -> new java.util.ArrayDeque<>()).add(f);
        }
        return out;
    }

    /** Takes the first finding of {@code candidates} still in {@code left} out of it; whether there was one. */
    private static boolean take(Deque<Finding> candidates, java.util.Set<Finding> left) {
        while (candidates != null && !candidates.isEmpty()) {
            if (left.remove(candidates.poll())) {
                return true;
            }
        }
        return false;
    }

    private static String titleKey(Finding f) {
        return f.id() + "\u0000" + f.title();
    }

    /** The identity of a finding across captures: its id and its subjects' labels, in order. */
    static String key(Finding f) {
        return f.id() + "\u0000" + String.join("\u0000", f.subjects());
    }
}
