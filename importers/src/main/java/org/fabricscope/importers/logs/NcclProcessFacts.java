package org.fabricscope.importers.logs;

import java.util.regex.Pattern;

import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * The facts an NCCL process reports about itself once, at INFO level, for comparing processes and nodes
 * ({@code config-drift}): the CUDA driver, NCCL's version and the CUDA it was built for, the network it chose and
 * the plugins it loaded. Message templates from NVIDIA/nccl src/init.cc ({@code cudaDriverVersion %d},
 * {@code NCCL version %s}), src/net.cc / src/plugin/net.cc ({@code Using network %s}, {@code NET/Plugin: Loaded
 * net plugin %s (v%d)}, {@code NET/Plugin: Could not find: %s}, {@code NET/Plugin : No plugin found (%s), using
 * internal implementation}, {@code NET/Plugin: Using internal network plugin.}), src/plugin/tuner.cc
 * ({@code TUNER/Plugin: Using tuner plugin %s}, {@code TUNER/Plugin: Using internal tuner plugin.}) and
 * src/plugin/profiler.cc ({@code PROFILER/Plugin: Loaded %s (v%d)}), NCCL 2.12 to 2.28.
 */
final class NcclProcessFacts {
    /** The {@code :} after {@code NET/Plugin} and the spaces around it (compiled once: a plugin line per process). */
    private static final Pattern LEADING_COLON = Pattern.compile("^\\s*:\\s*");

    private NcclProcessFacts() {
    }

    /** Records the fact a message states, if it states one; whether it did. */
    static boolean read(TrainingLogBuilder log, String host, int pid, String msg) {
        return read(log, host, pid, msg, 0);
    }

    /**
     * Records the fact the message {@code l} from {@code at} on states, if it states one; whether it did.
     * The message is read in place: it is cut out only when it states a fact.
     */
    static boolean read(TrainingLogBuilder log, String host, int pid, String l, int at) {
        char c0 = at < l.length() ? l.charAt(at) : ' ';
        if (c0 == 'c' && l.startsWith("cudaDriverVersion ", at)) {
            String v = l.substring(at + "cudaDriverVersion ".length()).strip();
            if (!v.isEmpty() && v.length() <= 12 && allDigits(v)) {
                log.processFact(host, pid, NcclProcess.CUDA_DRIVER, driver(v));
                return true;
            }
            return false;
        }
        if (c0 == 'N' && l.startsWith("NCCL version ", at)) {
            String v = firstToken(l.substring(at + "NCCL version ".length()));
            int plus = v.indexOf("+cuda");
            log.processFact(host, pid, NcclProcess.NCCL_VERSION, plus < 0 ? v : v.substring(0, plus));
            if (plus >= 0) {
                log.processFact(host, pid, NcclProcess.CUDA_RUNTIME, v.substring(plus + 5));
            }
            return true;
        }
        if (c0 == 'U' && l.startsWith("Using network ", at)) {
            log.processFact(host, pid, NcclProcess.NETWORK, firstToken(l.substring(at + "Using network ".length())));
            return true;
        }
        int slash = c0 == 'N' || c0 == 'T' || c0 == 'P' ? pluginSlash(l, at) : -1; // NET, TUNER, PROFILER
        if (slash < 0) {
            return false;
        }
        String msg = l.substring(at);
        String kind = msg.substring(0, slash);
        String key = switch (kind) {
            case "NET" -> NcclProcess.NET_PLUGIN;
            case "TUNER" -> NcclProcess.TUNER_PLUGIN;
            case "PROFILER" -> NcclProcess.PROFILER_PLUGIN;
            default -> null;
        };
        if (key == null) {
            return false;
        }
        String rest = LEADING_COLON.matcher(msg.substring(slash + "/Plugin".length())).replaceFirst("").strip();
        String value = null;
        if (rest.startsWith("Loaded net plugin ")) {
            value = rest.substring("Loaded net plugin ".length());
        } else if (rest.startsWith("Using tuner plugin ")) {
            value = rest.substring("Using tuner plugin ".length());
        } else if (rest.startsWith("Loaded ")) {
            value = rest.substring("Loaded ".length());
        } else if (rest.startsWith("Could not find") || rest.startsWith("No plugin found") || rest.startsWith("Using internal")) {
            value = key.equals(NcclProcess.PROFILER_PLUGIN) ? "none" : "internal";
        }
        if (value == null || value.isBlank() || value.length() > 80) {
            return false;
        }
        log.processFact(host, pid, key, value.strip());
        return true;
    }

    /** {@code 12040} as {@code 12.4} (NCCL prints CUDA_VERSION-style numbers: major*1000 + minor*10). */
    static String driver(String digits) {
        try {
            int v = Integer.parseInt(digits);
            return v >= 1000 ? (v / 1000) + "." + (v % 1000) / 10 : digits;
        } catch (NumberFormatException e) {
            return digits;
        }
    }

    /**
     * Where the message's {@code /Plugin} starts, counted from {@code at}, when a kind the caller knows comes before
     * it: at 3 ({@code NET}), 5 ({@code TUNER}) or 8 ({@code PROFILER}); -1 otherwise. The caller accepts no other
     * answer, and a {@code /} before one of these would have been a letter of the kind, so this is what the first
     * {@code indexOf} would give it, without a scan of the line.
     */
    private static int pluginSlash(String l, int at) {
        for (int k : PLUGIN_SLASH) {
            if (l.startsWith("/Plugin", at + k)) {
                return k;
            }
        }
        return -1;
    }

    /** The lengths of the plugin kinds, {@code NET}, {@code TUNER} and {@code PROFILER}. */
    private static final int[] PLUGIN_SLASH = {3, 5, 8};

    /** Whether every character is a digit (of any script, as {@link Character#isDigit(char)} says). */
    private static boolean allDigits(String v) {
        for (int i = 0; i < v.length(); i++) {
            if (!Character.isDigit(v.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String firstToken(String s) {
        String t = s.strip();
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }
}
