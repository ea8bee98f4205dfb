package org.fabricscope.importers.host;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.OomKill;
import org.fabricscope.model.incident.LineScanner;

/**
 * A host's kernel log ({@code dmesg}, {@code dmesg -T}, {@code dmesg -x}, {@code journalctl -k}, {@code /var/log/kern.log}),
 * whole or grepped, for what the troubleshooting flows ask of it: the processes the kernel's OOM killer killed.
 * Lines: {@code Out of memory: Killed process 727 (python) total-vm:...} (the host ran out of memory),
 * {@code Memory cgroup out of memory: Killed process 727 (python) ...} (a cgroup, such as a container's memory
 * limit), the older {@code Out of memory: Kill process 727 (python) score 900 or sacrifice child} followed by
 * {@code Killed process 727 (python) ...}, and {@code oom-kill:constraint=CONSTRAINT_MEMCG,...,task=python,pid=727,uid=0};
 * the lines about one pid are one kill. Recognised by the kernel log's line prefixes ({@code [ 1234.567890] },
 * {@code [Mon Nov 23 09:29:54 2026] }, {@code kern  :err   : }, {@code Nov 23 09:29:54 node-a kernel: }); a journal
 * line's host names the host.
 */
public final class KernelLogReader extends HostEvidenceReader {
    public static final String ID = "kernel-log";
    /** The prefix of a kernel log line: dmesg's timestamp (plain, -T, -x facility) or a journal / syslog line's. */
    private static final Pattern PREFIX = Pattern.compile("^(?:(?:kern|user|daemon|syslog)\\s{0,8}:\\s{0,8}[a-z]{1,8}\\s{0,8}: )?"
            + "(?:\\[\\s{0,12}\\d{1,10}\\.\\d{3,9}\\]|\\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\])"
            + "|^(?:[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\S{0,16}) ([A-Za-z0-9][A-Za-z0-9_.-]{0,62}) kernel: ");
    /** {@code Out of memory: Killed process 727 (python)}, {@code Memory cgroup out of memory: Kill process ...}. */
    private static final Pattern OOM = Pattern.compile("(Memory cgroup out of memory|Out of memory(?: \\([a-z_]{1,40}\\))?): "
            + "Kill(?:ed)? process (\\d{1,10}) \\(([^)]{0,64})\\)");
    /** The older kernels' second line: {@code Killed process 727 (python) total-vm:...}. */
    private static final Pattern KILLED = Pattern.compile("(?:^|[\\]:] )Killed process (\\d{1,10}) \\(([^)]{0,64})\\)");
    /** {@code oom-kill:constraint=CONSTRAINT_MEMCG,...,task=python,pid=727,uid=0}. */
    private static final Pattern OOM_KILL = Pattern.compile("oom-kill:constraint=(CONSTRAINT_[A-Z]{1,16})\\b.{0,2000}?,task=([^,]{0,64}),pid=(\\d{1,10})");
    private static final int MAX_KILLS = 10_000;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "kernel log (dmesg, journalctl -k)";
    }

    @Override
    public int maxConfidence() {
        return 60;
    }

    @Override
    public int confidence(Head head) {
        if (head.jsonDocument()) {
            return NONE;
        }
        List<String> c = content(head);
        int prefixed = 0;
        boolean oom = false;
        for (String l : c) {
            if (PREFIX.matcher(l).find()) {
                prefixed++;
                oom |= OOM.matcher(l).find() || OOM_KILL.matcher(l).find();
            }
        }
        if (prefixed == 0) {
            return NONE;
        }
        if (prefixed * 2 >= c.size() && (prefixed >= 2 || oom)) {
            return maxConfidence();
        }
        return oom ? 30 : NONE;
    }

    /** One kill gathered over its lines. */
    private static final class Kill {
        long pid;
        String process = "";
        boolean cgroup;
        String text = "";
        Evidence at;
        /** Whether {@code text} is a line that says the process was killed (not only the constraint). */
        boolean killedLine;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        Map<Long, Kill> kills = new LinkedHashMap<>();
        LineScanner scanner = ctx.builder().incident().scanner(ctx.source(), true);
        return new Parser() {
            private boolean named;

            @Override
            public void line(String line, Evidence at) {
                scanner.line(line, at.line());
                String t = line.strip();
                Matcher p = PREFIX.matcher(t);
                if (!p.find()) {
                    return;
                }
                if (!named && p.group(1) != null) {
                    named = true;
                    draft.named(p.group(1));
                }
                String msg = t.substring(p.end()).strip();
                Matcher m;
                if ((m = OOM.matcher(msg)).find()) {
                    Kill k = kill(m.group(2), m.group(3));
                    if (k != null) {
                        k.cgroup |= m.group(1).startsWith("Memory cgroup");
                        text(k, msg, at, true);
                    }
                } else if ((m = KILLED.matcher(msg)).find()) {
                    Kill k = kill(m.group(1), m.group(2));
                    if (k != null) {
                        text(k, msg, at, true);
                    }
                } else if ((m = OOM_KILL.matcher(msg)).find()) {
                    Kill k = kill(m.group(3), m.group(2));
                    if (k != null) {
                        k.cgroup |= m.group(1).equals("CONSTRAINT_MEMCG");
                        text(k, msg, at, false);
                    }
                }
            }

            private Kill kill(String pid, String process) {
                long n = intOr(pid, 10, "pid");
                if (n < 0 || !kills.containsKey(n) && kills.size() >= MAX_KILLS) {
                    return null;
                }
                Kill k = kills.computeIfAbsent(n, x -> new Kill());
                k.pid = n;
                if (k.process.isEmpty()) {
                    k.process = process.strip();
                }
                return k;
            }

            private void text(Kill k, String msg, Evidence at, boolean killed) {
                if (k.at == null || killed && !k.killedLine) {
                    k.text = msg.length() > 300 ? msg.substring(0, 300) : msg;
                    k.at = at;
                    k.killedLine = killed;
                }
            }

            @Override
            public void end() {
                scanner.close();
                kills.values().forEach(k -> draft.oomKill(new OomKill(k.pid, k.process, k.cgroup, k.text, k.at)));
            }
        };
    }
}
