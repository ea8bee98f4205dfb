package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a manual step's command prints, and so what output pasted (or dropped) for the step must be.
 * {@link Kind#FORMAT}: the output of a command FabricScope reads, named by the importers' format ids
 * ({@code ulimit}, {@code ibstat}, {@code k8s-describe-pod}): the paste is read as one of these and
 * nothing else. {@link Kind#NUMBER}: the command prints one whole number (a GID index), kept as the
 * answer's evidence. {@link Kind#TEXT}: output no reader takes ({@code mlnx_qos}, {@code ib_write_bw}),
 * kept as evidence only and never read. A flow file declares it ({@code "output"}); without a
 * declaration it is worked out from the command ({@link #of(String)}), and a command it does not know
 * gives {@link #TEXT}, so that a paste is never read as something its command does not print.
 */
public record StepOutput(Kind kind, List<String> formats) {
    public enum Kind {
        FORMAT, NUMBER, TEXT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One whole number (what a {@code ... | sed} that extracts an index prints). */
    public static final StepOutput NUMBER = new StepOutput(Kind.NUMBER, List.of());
    /** Output FabricScope has no reader for: kept as evidence, never read. */
    public static final StepOutput TEXT = new StepOutput(Kind.TEXT, List.of());
    /** A format id as the importers spell it. */
    private static final Pattern FORMAT_ID = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

    public StepOutput {
        Objects.requireNonNull(kind, "kind");
        formats = List.copyOf(formats);
        if ((kind == Kind.FORMAT) == formats.isEmpty()) {
            throw new IllegalArgumentException("a " + kind.label() + " output " + (formats.isEmpty() ? "needs" : "has no")
                    + " format ids");
        }
        for (String f : formats) {
            if (!FORMAT_ID.matcher(f).matches()) {
                throw new IllegalArgumentException("not a format id: " + f);
            }
        }
    }

    /** The output of these formats (importer format ids), read as one of them only. */
    public static StepOutput formats(List<String> ids) {
        return new StepOutput(Kind.FORMAT, List.copyOf(new LinkedHashSet<>(ids)));
    }

    /** Whether this string is spelled as a format id (lower case words with dashes). */
    public static boolean isFormatId(String s) {
        return s != null && FORMAT_ID.matcher(s).matches();
    }

    /** A command FabricScope reads the output of: how to tell it in a step's command, and its format id. */
    private record Known(Pattern command, String format) {
    }

    /** Commands whose output the importers read, by format id (the importers' {@code FormatRegistry}). */
    private static final List<Known> KNOWN = List.of(
            new Known(Pattern.compile("\\bulimit\\s+-[al]\\b"), "ulimit"),
            new Known(Pattern.compile("\\bibstat(?!us)\\b"), "ibstat"),
            new Known(Pattern.compile("\\bibstatus\\b"), "ibstatus"),
            new Known(Pattern.compile("\\bibv_devinfo\\b"), "ibv-devinfo"),
            new Known(Pattern.compile("\\bls\\s+(?:-\\w+\\s+)*/dev/infiniband"), "dev-infiniband"),
            new Known(Pattern.compile("\\bshow_gids\\b|\\bgrep\\s+\\.\\s+/sys/class/infiniband/\\S*/gids"), "gid-table"),
            new Known(Pattern.compile("\\bip\\s+(?:-\\w+\\s+)*(?:addr|address|a|link)\\b"), "ip-addr"),
            new Known(Pattern.compile("\\bdf\\b[^;|]*/dev/shm"), "df-shm"),
            new Known(Pattern.compile("\\blspci\\b"), "lspci"),
            new Known(Pattern.compile("\\beadm\\s+stat\\b"), "eadm-stat"),
            new Known(Pattern.compile("\\bdmesg\\b|\\bjournalctl\\s+(?:-\\w+\\s+)*-k\\b"), "kernel-log"),
            new Known(Pattern.compile("(?:^|[\\s'\"(])(?:env|printenv)\\s*(?:$|['\")|])"), "env"),
            new Known(Pattern.compile("\\bkubectl\\s+(?:-\\S+\\s+\\S+\\s+)*describe\\s+(?:pod|pods|po)\\b"), "k8s-describe-pod"),
            new Known(Pattern.compile("\\bkubectl\\s+(?:-\\S+\\s+\\S+\\s+)*get\\s+events\\b"), "k8s-events-table"));

    /** A pipe into one of these rewrites what the command printed: its output is no longer that format. */
    private static final Pattern REWRITTEN = Pattern.compile("\\|\\s*(?:sed|cut|awk|wc|tr|jq|sort|uniq|xargs|paste)\\b");
    /** Where one command of a step's command line ends and the next begins. */
    private static final Pattern SEPARATOR = Pattern.compile(";|&&|\\|\\||,\\s*then\\b|\\bthen\\b|\\(on [^)]*\\)");

    /**
     * The output a step's command prints, worked out from its text: the formats of the commands in it
     * that FabricScope reads ({@code kubectl exec pod -- sh -c 'ulimit -l'}: {@code ulimit};
     * {@code ls -l /dev/infiniband/; id -nG}: {@code dev-infiniband}), a command piped into a rewrite
     * ({@code | sed}, {@code | cut}) counting as none; {@link #TEXT} when none is left.
     */
    public static StepOutput of(String command) {
        if (command == null || command.isBlank()) {
            return TEXT;
        }
        Set<String> found = new LinkedHashSet<>();
        for (String part : SEPARATOR.split(command)) {
            if (REWRITTEN.matcher(part).find()) {
                continue;
            }
            for (Known k : KNOWN) {
                if (k.command().matcher(part).find()) {
                    found.add(k.format());
                }
            }
        }
        return found.isEmpty() ? TEXT : formats(new ArrayList<>(found));
    }

    /** {@code format ulimit}, {@code formats ibstat, ibstatus}, {@code number}, {@code text}: for listings. */
    public String text() {
        return kind == Kind.FORMAT ? (formats.size() == 1 ? "format " : "formats ") + String.join(", ", formats) : kind.label();
    }
}
