package org.fabricscope.importers.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;

/**
 * What torchrun's elastic agent says of its worker processes, one line each: a worker that failed
 * with its exit code (PROCESS_FAILED, with the signal of a {@code -N} exit code), and the signals
 * it sent or a process received (SIGNAL); and the Linux names of those signals.
 */
final class TorchrunWorkers {
    private static final Pattern PROCESS_FAILED = Pattern.compile(
            "failed \\(exitcode: (-?\\d+)\\) local_rank: (\\d+) \\(pid: (\\d+)\\)");
    private static final Pattern CLOSING_SIGNAL = Pattern.compile("Sending process (\\d+) closing signal (SIG\\w+)");
    private static final Pattern GOT_SIGNAL = Pattern.compile("(?:Process (\\d+) )?got signal: (\\d+)");
    static final Pattern SIGNAL_BY_PID = Pattern.compile("Signal (\\d+) \\((SIG\\w+)\\) received by PID (\\d+)");

    private TorchrunWorkers() {
    }

    /** Adds the worker failure or signal line {@code l} to {@code t}'s log, if it is one. */
    static void read(TorchLines t, String l, Evidence ev) {
        Matcher m;
        Map<String, String> f = new LinkedHashMap<>();
        if (l.indexOf("exitcode") >= 0 && (m = PROCESS_FAILED.matcher(l)).find()) {
            f.put("exitcode", m.group(1));
            f.put("localRank", m.group(2));
            f.put("pid", m.group(3));
            int exitcode = Numbers.checkedInt(m.group(1), "exit code");
            int pid = NcclLogParser.num(m.group(3), "pid");
            NcclLogParser.num(m.group(2), "local rank");
            putSignal(f, exitcode);
            t.add(NcclEvent.Kind.PROCESS_FAILED, "", pid, -1, l, f, ev);
        } else if (l.indexOf("ignal") >= 0) {
            if ((m = CLOSING_SIGNAL.matcher(l)).find()) {
                f.put("signal", m.group(2));
                f.put("pid", m.group(1));
                f.put("direction", "sent");
                t.add(NcclEvent.Kind.SIGNAL, "", NcclLogParser.num(m.group(1), "pid"), -1, l, f, ev);
            } else if ((m = SIGNAL_BY_PID.matcher(l)).find()) {
                f.put("signal", m.group(2));
                f.put("signalNumber", m.group(1));
                f.put("pid", m.group(3));
                f.put("direction", "received");
                int pid = NcclLogParser.num(m.group(3), "pid");
                NcclLogParser.num(m.group(1), "signal");
                t.add(NcclEvent.Kind.SIGNAL, "", pid, -1, l, f, ev);
            } else if ((m = GOT_SIGNAL.matcher(l)).find()) {
                int n = NcclLogParser.num(m.group(2), "signal");
                int pid = m.group(1) == null ? -1 : NcclLogParser.num(m.group(1), "pid");
                f.put("signal", signalName(n));
                f.put("signalNumber", m.group(2));
                if (m.group(1) != null) {
                    f.put("pid", m.group(1));
                }
                f.put("direction", "received");
                t.add(NcclEvent.Kind.SIGNAL, "", pid, -1, l, f, ev);
            }
        }
    }

    static void putSignal(Map<String, String> f, int exitcode) {
        if (exitcode < 0 && exitcode > -256) { // -N: killed by signal N
            f.put("signal", signalName(-exitcode));
            f.put("signalNumber", String.valueOf(-exitcode));
        }
    }

    /** Linux signal names for the numbers torchrun prints (exit code -N, {@code got signal: N}). */
    static String signalName(int n) {
        return switch (n) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 15 -> "SIGTERM";
            default -> "signal " + n;
        };
    }
}
