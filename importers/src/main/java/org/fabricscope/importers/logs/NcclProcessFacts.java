package org.fabricscope.importers.logs;

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
    private NcclProcessFacts() {
    }

    /** Records the fact a message states, if it states one; whether it did. */
    static boolean read(TrainingLogBuilder log, String host, int pid, String msg) {
        char c0 = msg.isEmpty() ? ' ' : msg.charAt(0);
        if (c0 == 'c' && msg.startsWith("cudaDriverVersion ")) {
            String v = msg.substring("cudaDriverVersion ".length()).strip();
            if (!v.isEmpty() && v.length() <= 12 && v.chars().allMatch(Character::isDigit)) {
                log.processFact(host, pid, NcclProcess.CUDA_DRIVER, driver(v));
                return true;
            }
            return false;
        }
        if (c0 == 'N' && msg.startsWith("NCCL version ")) {
            String v = firstToken(msg.substring("NCCL version ".length()));
            int plus = v.indexOf("+cuda");
            log.processFact(host, pid, NcclProcess.NCCL_VERSION, plus < 0 ? v : v.substring(0, plus));
            if (plus >= 0) {
                log.processFact(host, pid, NcclProcess.CUDA_RUNTIME, v.substring(plus + 5));
            }
            return true;
        }
        if (c0 == 'U' && msg.startsWith("Using network ")) {
            log.processFact(host, pid, NcclProcess.NETWORK, firstToken(msg.substring("Using network ".length())));
            return true;
        }
        int slash = msg.indexOf("/Plugin");
        if (slash <= 0 || slash > 9) {
            return false;
        }
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
        String rest = msg.substring(slash + "/Plugin".length()).replaceFirst("^\\s*:\\s*", "").strip();
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

    private static String firstToken(String s) {
        String t = s.strip();
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }
}
