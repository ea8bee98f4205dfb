package org.fabricscope.importers.host;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * The base of the readers of commands run on one host or in one pod (ibstat, ibv_devinfo, GID
 * listings, ulimit, ls -l /dev/infiniband, ip, df, env, dmesg), saved to a file or pasted. Each file is one
 * host's: named by a {@code hostname} line or a shell prompt ({@code root@dgx-01:~# ibstat}) in it,
 * else by its folder, else by its file name; the model settles the host when it is built (a known
 * host name, else an HCA GUID the fabric dump places). Prompt lines, {@code $ cmd} lines and blank
 * lines are skipped before a reader sees them. Read in the {@link ImportPhase#HOSTS} phase.
 */
abstract class HostEvidenceReader implements FormatReader {
    /** {@code user@host:dir$ cmd}, {@code [user@host dir]# cmd}. */
    private static final Pattern PROMPT = Pattern.compile("^(?:\\[)?[A-Za-z0-9_.-]+@([A-Za-z0-9_.-]+)[: ][^$#]*\\]?[$#] ?(.*)$");
    /** {@code $ cmd} or {@code # cmd} (a bare prompt). */
    private static final Pattern BARE_PROMPT = Pattern.compile("^[$#>] ?(\\S.*)?$");
    private static final Pattern HOSTNAME_LINE = Pattern.compile("^(?:hostname|Hostname|HOSTNAME|host)\\s*[:=]\\s*([A-Za-z0-9][A-Za-z0-9_.-]*)\\s*$");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    /** Folder names that say nothing about the host. */
    private static final List<String> GENERIC = List.of("tmp", "out", "output", "outputs", "evidence", "host-evidence",
            "logs", "captures", "capture", "data", "inputs", "input", "home", "root", "downloads", "desktop", "files",
            "pasted");

    /** A parser of one file's lines, made per read (readers hold no state). */
    interface Parser {
        void line(String line, Evidence at);

        /** A command the file shows was run ({@code $ eadm stat -d erdma_0 -l}); the line itself is not passed to {@link #line}. */
        default void command(String command, Evidence at) {
        }

        default void end() {
        }
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.HOSTS;
    }

    /** The parser for one file, writing into {@code draft}. */
    abstract Parser parser(Draft draft, ReadContext ctx);

    @Override
    public final void read(InputStream in, ReadContext ctx) throws IOException {
        Draft draft = ctx.builder().hostEvidence().file(ctx.source(), namesFromSource(ctx.source()));
        Parser p = parser(draft, ctx);
        TextLines lines = ctx.lines(in);
        boolean nextIsHostname = false;
        String line;
        while ((line = ctx.nextLine(lines)) != null) {
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (nextIsHostname) {
                nextIsHostname = false;
                if (NAME.matcher(t).matches()) {
                    draft.named(t);
                    continue;
                }
            }
            Matcher m = PROMPT.matcher(t);
            if (m.matches()) {
                draft.named(m.group(1));
                nextIsHostname = isHostnameCommand(m.group(2));
                p.command(m.group(2).strip(), evidence(ctx, lines, t));
                continue;
            }
            m = BARE_PROMPT.matcher(t);
            if (m.matches() && !line.startsWith("\t")) {
                nextIsHostname = m.group(1) != null && isHostnameCommand(m.group(1));
                if (m.group(1) != null) {
                    p.command(m.group(1).strip(), evidence(ctx, lines, t));
                }
                continue;
            }
            m = HOSTNAME_LINE.matcher(t);
            if (m.matches()) {
                draft.named(m.group(1));
                if (!t.startsWith("HOSTNAME")) {
                    continue;
                }
            }
            try {
                p.line(line, evidence(ctx, lines, t));
            } catch (Numbers.OutOfRange e) {
                ctx.report(Diagnostic.warning(ctx.source(), lines.lineNumber(), e.getMessage() + "; line skipped: "
                        + (t.length() > 120 ? t.substring(0, 117) + "..." : t)));
            }
        }
        try {
            p.end();
        } catch (Numbers.OutOfRange e) {
            ctx.report(Diagnostic.warning(ctx.source(), 0, e.getMessage() + "; skipped"));
        }
        if (lines.truncated()) {
            ctx.report(Diagnostic.warning(ctx.source(), 0, "a line longer than " + TextLines.MAX_LINE
                    + " characters was cut"));
        }
    }

    /**
     * An HCA's fact (firmware, type, a port's MTU) for {@code device}; none without a device or a value. A value longer
     * than {@link org.fabricscope.model.evidence.HcaFact#MAX_VALUE} is out of range: the line is skipped with a warning
     * naming the limit.
     */
    static void fact(Draft draft, String device, int port, String name, String value, Evidence at) {
        if (device == null || device.isEmpty() || value == null || value.isEmpty()) {
            return;
        }
        if (value.length() > org.fabricscope.model.evidence.HcaFact.MAX_VALUE) {
            throw new Numbers.OutOfRange(name, value, "at most " + org.fabricscope.model.evidence.HcaFact.MAX_VALUE
                    + " characters, HcaFact.MAX_VALUE");
        }
        draft.hcaFact(new org.fabricscope.model.evidence.HcaFact(device, port, name, value, at));
    }

    /** The command a prompt line runs ({@code root@h:~# ibstat} or {@code $ ibstat}), or null when the line is no prompt. */
    static String commandOf(String line) {
        String t = line.strip();
        Matcher m = PROMPT.matcher(t);
        if (m.matches()) {
            return m.group(2).strip();
        }
        m = BARE_PROMPT.matcher(t);
        return m.matches() && !line.startsWith("\t") && m.group(1) != null ? m.group(1).strip() : null;
    }

    private static Evidence evidence(ReadContext ctx, TextLines lines, String t) {
        return Evidence.at(ctx.source(), lines.lineNumber(), t.length() > 300 ? t.substring(0, 300) : t);
    }

    private static boolean isHostnameCommand(String cmd) {
        String c = cmd == null ? "" : cmd.strip();
        return c.equals("hostname") || c.equals("hostname -s") || c.equals("uname -n") || c.equals("cat /etc/hostname");
    }

    /**
     * Host names a file's path suggests, best first: its parent folder ({@code dgx-01/ibstat.txt}),
     * then its name up to the first dot when that is not just the command ({@code dgx-01.ibstat.txt}).
     */
    static List<String> namesFromSource(String source) {
        List<String> out = new ArrayList<>();
        if (source == null) {
            return out;
        }
        String s = source.replace('\\', '/');
        int bang = s.lastIndexOf('!'); // archive!entry
        if (bang >= 0) {
            s = s.substring(bang + 1);
        }
        String[] parts = s.split("/");
        String file = parts[parts.length - 1];
        String stem = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
        if (parts.length >= 2) {
            String parent = parts[parts.length - 2];
            if (!parent.isEmpty() && !parent.equals(".") && !parent.equals("..")
                    && !GENERIC.contains(parent.toLowerCase(Locale.ROOT)) && NAME.matcher(parent).matches()) {
                out.add(parent);
            }
        }
        String lower = stem.toLowerCase(Locale.ROOT);
        if (!stem.isEmpty() && NAME.matcher(stem).matches() && !COMMAND_WORDS.contains(lower)
                && !lower.startsWith("eadm")) { // eadm-stat-erdma_0.txt names the command and device, not the host
            out.add(stem);
        }
        return out;
    }

    private static final List<String> COMMAND_WORDS = List.of("ibstat", "ibstatus", "ibv_devinfo", "ibv-devinfo",
            "devinfo", "gids", "gid", "show_gids", "show-gids", "ulimit", "memlock", "ls", "dev-infiniband",
            "devinfiniband", "ip", "ip-addr", "ip_addr", "addr", "ip-link", "link", "df", "shm", "env", "environ",
            "printenv", "lspci", "dmesg", "journalctl", "kern", "kernel", "kern-log", "kernel-log", "syslog", "messages");

    /** The non-blank lines of a head that are not shell prompts or hostname lines: what a format is told by. */
    static List<String> content(Head head) {
        List<String> out = new ArrayList<>();
        boolean nextIsHostname = false;
        for (String l : head.lines()) {
            String t = l.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (nextIsHostname) {
                nextIsHostname = false;
                if (NAME.matcher(t).matches()) {
                    continue;
                }
            }
            Matcher p = PROMPT.matcher(t);
            Matcher b = BARE_PROMPT.matcher(t);
            if (p.matches()) {
                nextIsHostname = isHostnameCommand(p.group(2));
                continue;
            }
            if (b.matches() && !l.startsWith("\t")) {
                nextIsHostname = b.group(1) != null && isHostnameCommand(b.group(1));
                continue;
            }
            if (HOSTNAME_LINE.matcher(t).matches() && !t.startsWith("HOSTNAME")) {
                continue;
            }
            out.add(l);
        }
        return out;
    }

    /**
     * An int, or -1 when the text is no number; a number past the int range raises {@link Numbers.OutOfRange}
     * (the line is skipped with a diagnostic) instead of reading as "no number".
     */
    static int intOr(String s, int radix) {
        return intOr(s, radix, "number");
    }

    /** {@link #intOr(String, int)} naming the field in its diagnostic. */
    static int intOr(String s, int radix, String field) {
        if (s == null) {
            return -1;
        }
        String t = s.strip();
        try {
            return Integer.parseInt(t, radix);
        } catch (NumberFormatException e) {
            if (isNumber(t, radix)) {
                throw new Numbers.OutOfRange(field, t, radix == 16 ? "0..0x7fffffff" : "-2147483648..2147483647");
            }
            return -1;
        }
    }

    /** A port number, 0..255 ({@link Numbers#MAX_PORT}); -1 when the text is no number. */
    static int port(String s) {
        int v = intOr(s, 10, "port");
        if (v > Numbers.MAX_PORT) {
            throw new Numbers.OutOfRange("port", s.strip(), "0.." + Numbers.MAX_PORT);
        }
        return v;
    }

    /** Digits of the radix only (an optional leading minus): a number, whatever its size. */
    static boolean isNumber(String t, int radix) {
        int i = t.startsWith("-") ? 1 : 0;
        if (i >= t.length()) {
            return false;
        }
        for (; i < t.length(); i++) {
            if (Character.digit(t.charAt(i), radix) < 0) {
                return false;
            }
        }
        return true;
    }
}
