package org.fabricscope.model.incident;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Severity;

/**
 * One failure message of the catalogue: the upstream template and where it is printed, the pattern
 * that recognises it and the fields it extracts, and what it means (role, cause class, severity,
 * remedies). Loaded from the data files by {@link SignatureLoader}; see {@code docs/signatures.md}.
 * {@code file} is the catalogue file it came from (a resource name or a user file's path).
 * {@code literals}: fixed parts of the template, one of which every text it recognises holds (the
 * patterns are only tried on texts that hold one). {@code regex}: the pattern of its {@code match} ({@link #pattern()}
 * compiled).
 */
public record Signature(String id, String source, String title, String template, List<Origin> origins, Target on,
                        List<String> literals, Regex regex, List<String> fields, Role role, CauseClass causeClass,
                        Severity severity, String blames, List<String> remedies, List<Example> examples, String notes,
                        String file) {
    /** Where the template is printed: a file of the upstream project, the versions that print it so, a function. */
    public record Origin(String file, String versions, String function) {
    }

    /** A text the signature must recognise, with the fields it must yield. */
    public record Example(String text, Map<String, String> fields) {
        public Example {
            fields = org.fabricscope.model.core.OrderedMaps.copyOf(fields);
        }
    }

    public Signature {
        origins = List.copyOf(origins);
        literals = List.copyOf(literals);
        fields = List.copyOf(fields);
        remedies = List.copyOf(remedies);
        examples = List.copyOf(examples);
        blames = blames == null ? "" : blames;
        notes = notes == null ? "" : notes;
    }

    /** The compiled {@link #regex} (compiled on first use for the bundled catalogue: {@link Regex}). */
    public Pattern pattern() {
        return regex.pattern();
    }

    /** The fields the text yields, in declaration order (empty groups left out), or null when it does not match. */
    public Map<String, String> match(String text) {
        if (!holdsLiteral(text)) {
            return null;
        }
        Matcher m = pattern().matcher(text);
        if (!m.find()) {
            return null;
        }
        return fields(m);
    }

    /** Whether the text holds one of the literals. */
    public boolean holdsLiteral(String text) {
        for (String l : literals) {
            if (text.contains(l)) {
                return true;
            }
        }
        return false;
    }

    /** The longest literal: how specific the signature is. */
    public String literal() {
        String best = "";
        for (String l : literals) {
            if (l.length() > best.length()) {
                best = l;
            }
        }
        return best;
    }

    /** The fields of a successful match. */
    Map<String, String> fields(Matcher m) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String f : fields) {
            String v = m.group(f);
            if (v != null && !v.isEmpty()) {
                out.put(f, v);
            }
        }
        return out;
    }

    /** The title with its {@code {field}} placeholders filled ({@code ?} for a field not extracted). */
    public String title(Map<String, String> values) {
        return fill(title, values);
    }

    /** The remedies with their placeholders filled. */
    public List<String> remedies(Map<String, String> values) {
        return remedies.stream().map(r -> fill(r, values)).toList();
    }

    /** Where the template comes from, in one line: {@code NVIDIA/nccl src/transport/net_ib.cc (2.19-2.28)}. */
    public String originText() {
        StringBuilder b = new StringBuilder();
        for (Origin o : origins) {
            if (b.length() > 0) {
                b.append("; ");
            }
            b.append(o.file());
            if (o.versions() != null && !o.versions().isEmpty()) {
                b.append(" (").append(o.versions()).append(')');
            }
        }
        return b.toString();
    }

    private static final List<String> PREPOSITIONS = List.of(" on ", " at ", " in ", " of ", " from ", " to ", " for ", " with ",
            " via ", " by ");

    /** Removes a trailing preposition that only introduced a missing field (with the space before it); false when none. */
    private static boolean dropPreposition(StringBuilder b) {
        for (String p : PREPOSITIONS) {
            int n = b.length();
            if (n >= p.length() && b.substring(n - p.length()).equals(p)) {
                b.setLength(n - p.length());
                return true;
            }
        }
        return false;
    }

    static String fill(String template, Map<String, String> values) {
        if (template.indexOf('{') < 0) {
            return template;
        }
        StringBuilder b = new StringBuilder(template.length() + 16);
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            int close = c == '{' ? template.indexOf('}', i) : -1;
            if (close > i + 1 && template.substring(i + 1, close).chars().allMatch(Character::isLetterOrDigit)) {
                String v = values.get(template.substring(i + 1, close));
                if (v == null) {
                    if (!dropPreposition(b)) { // "on {device}" with no device: say nothing rather than "on ?"
                        b.append('?');
                    }
                } else {
                    b.append(v);
                }
                i = close + 1;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }
}
