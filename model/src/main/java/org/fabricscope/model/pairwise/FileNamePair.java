package org.fabricscope.model.pairwise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Two host names in a file name, as pairwise test scripts name their outputs: {@code ib_write_bw_nodeA_nodeB.txt},
 * {@code nodeA-nodeB.log}, {@code nodeA_to_nodeB.out}, {@code all_reduce_perf.dgx-01_dgx-02.txt}. The
 * tool's name in front, a {@code client}/{@code server} tag at the end and the extension are dropped; the
 * rest must split at one separator ({@code _to_}, {@code -to-}, {@code _vs_}, {@code __}, {@code --},
 * {@code _}, {@code -}, {@code ,}, {@code +}) into exactly two names.
 *
 * <p>Not guessed: where host names are known (the fabric's hosts, the hosts' own evidence, nccl-tests
 * headers, Kubernetes nodes), both halves must be among them (any split that makes two known names, when
 * only one does: {@code dgx-01-dgx-02}). Where none is known, the first separator that gives exactly
 * two parts wins, and only when the parts are named alike (both hold a digit, or they share their first
 * three characters: {@code nodeA}/{@code nodeB}, {@code gpu7}/{@code gpu12}), so {@code output_final.txt}
 * names no pair.
 */
final class FileNamePair {
    private static final List<String> SEPARATORS = List.of("_to_", "-to-", ".to.", "_vs_", "-vs-", "__", "--", "_", "-", ",", "+");
    private static final Pattern EXTENSION = Pattern.compile("(?i)\\.(txt|log|out|err|res|result|results|csv|json)$");
    private static final Pattern TOOL = Pattern.compile(
            "(?i)^(?:ib_(?:write|read|send|atomic)_(?:bw|lat)|[a-z]+(?:_[a-z]+)*_perf|perftest|nccl[-_]?tests?|pairwise|pairs?)(?:[_\\-.]+|$)");
    private static final Pattern SIDE = Pattern.compile("(?i)[_\\-.](?:client|server|cli|srv)$");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.\\-_]*");

    /** Known host names, lower case to their spelling. */
    private final Map<String, String> known;

    FileNamePair(Set<String> knownHosts) {
        Map<String, String> k = new java.util.HashMap<>();
        for (String h : knownHosts) {
            k.putIfAbsent(h.toLowerCase(Locale.ROOT), h);
        }
        this.known = k;
    }

    /** The two hosts the last part of {@code path} names, else those its folder names; null when neither names two. */
    String[] of(String path) {
        String[] parts = path.replace('\\', '/').replace("!/", "/").split("/");
        String[] p = parts.length == 0 ? null : name(parts[parts.length - 1]);
        if (p == null && parts.length > 1) {
            p = name(parts[parts.length - 2]);
        }
        return p;
    }

    /** The two hosts one file or folder name names, or null. */
    String[] name(String raw) {
        String s = raw;
        String before;
        do {
            before = s;
            s = EXTENSION.matcher(s).replaceFirst("");
            s = SIDE.matcher(s).replaceFirst("");
        } while (!s.equals(before));
        s = TOOL.matcher(s).replaceFirst("");
        if (s.isEmpty()) {
            return null;
        }
        return known.isEmpty() ? alike(s) : knownSplit(s);
    }

    /** The one split of {@code s} at any separator into two known, different hosts; null when none or several. */
    private String[] knownSplit(String s) {
        Map<List<String>, String[]> found = new LinkedHashMap<>();
        for (String sep : SEPARATORS) {
            for (int at = s.indexOf(sep); at > 0; at = s.indexOf(sep, at + 1)) {
                String a = known.get(s.substring(0, at).toLowerCase(Locale.ROOT));
                String b = known.get(s.substring(at + sep.length()).toLowerCase(Locale.ROOT));
                if (a != null && b != null && !a.equals(b)) {
                    found.putIfAbsent(a.compareTo(b) < 0 ? List.of(a, b) : List.of(b, a), new String[] {a, b});
                }
            }
        }
        return found.size() == 1 ? found.values().iterator().next() : null;
    }

    /** The first separator's split into exactly two alike host names, or null. */
    private static String[] alike(String s) {
        for (String sep : SEPARATORS) {
            List<String> parts = split(s, sep);
            if (parts.size() == 1) {
                continue;
            }
            if (parts.size() != 2) {
                return null;
            }
            String a = parts.get(0);
            String b = parts.get(1);
            boolean hosts = HOST.matcher(a).matches() && HOST.matcher(b).matches() && !a.equalsIgnoreCase(b);
            return hosts && (digit(a) && digit(b) || commonPrefix(a, b) >= 3) ? new String[] {a, b} : null;
        }
        return null;
    }

    private static List<String> split(String s, String sep) {
        List<String> out = new ArrayList<>();
        int from = 0;
        for (int at = s.indexOf(sep); at >= 0; at = s.indexOf(sep, from)) {
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        out.removeIf(String::isEmpty);
        return out;
    }

    private static boolean digit(String s) {
        return s.chars().anyMatch(Character::isDigit);
    }

    private static int commonPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && Character.toLowerCase(a.charAt(n)) == Character.toLowerCase(b.charAt(n))) {
            n++;
        }
        return n;
    }
}
