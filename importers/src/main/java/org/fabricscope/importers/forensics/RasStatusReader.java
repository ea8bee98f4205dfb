package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;

/**
 * NCCL RAS status output ({@code ncclras}, or {@code STATUS} / {@code VERBOSE STATUS} on port 28028):
 * the text form (Job summary, Communicators table, Errors and Warnings with {@code INCOMPLETE},
 * {@code DEAD}, {@code MISMATCH}, {@code ERROR}, {@code TIMEOUT} blocks), the JSON form (NCCL 2.28.7+,
 * {@code ncclras -f json} / {@code SET FORMAT json}) and monitor-mode events (text and JSON, NCCL 2.29+).
 * Several text reports in one file (a query loop) are read as several statuses. Ranks are named by
 * node address, pid and GPU; the checks join them to pods through the NCCL log lines' {@code host:pid}
 * prefixes. RAS output that contradicts itself (more missing ranks than the job has GPUs) is kept out
 * with a diagnostic; JSON with missing commas (NCCL 2.28.9 writes none after {@code nvml_dev} in
 * {@code missing_ranks}) is repaired with a diagnostic. The forms are read by {@link RasText} and
 * {@link RasJson}; every number is range-checked and one out of range skips its record with a diagnostic.
 */
public final class RasStatusReader {
    public static final String ID = "nccl-ras";
    public static final String LABEL = "NCCL RAS status (ncclras text or JSON, monitor events)";
    static final int MAX_BYTES = 64 * 1024 * 1024;
    /** Most ranks (and missing ranks) kept per communicator. */
    static final int MAX_RANKS_PER_COMM = 1 << 20;
    /** Most communicators read from one status. */
    static final int MAX_COMMS = 100_000;
    /** Most collective kinds (count names) per rank. */
    static final int MAX_KINDS = 64;
    /** Longest collective or count name kept as a key, in characters. */
    static final int MAX_KEY = 256;

    /** Text or JSON RAS output, or monitor events, by lines no other tool prints. */
    public static boolean looksLike(List<String> head) {
        String first = FlightRecorderReader.firstNonBlank(head);
        if (first == null) {
            return false;
        }
        if (first.startsWith("{") || first.startsWith("[")) {
            String joined = String.join("\n", head);
            return (joined.contains("\"communicators\"") && (joined.contains("\"nccl_version\"")
                    || joined.contains("\"communicators_count\"") || joined.contains("\"missing_ranks\"")))
                    || (joined.contains("\"event\"") && joined.contains("\"peer\"") && joined.contains("\"group\""));
        }
        boolean jobSummary = false;
        for (int i = 0; i < head.size(); i++) {
            String l = head.get(i).strip();
            if (RasText.VERSION.matcher(l).matches() && i + 1 < head.size() && head.get(i + 1).startsWith("CUDA runtime version")) {
                return true;
            }
            if (l.equals("Job summary") && i + 1 < head.size() && head.get(i + 1).strip().startsWith("====")) {
                jobSummary = true;
            }
            if (l.startsWith("Group     Comms     Nodes") || l.startsWith("RAS Monitor Mode")) {
                return true;
            }
            Matcher e = RasText.EVENT.matcher(l);
            if (e.matches() && RasText.PROCESS.matcher(e.group(3)).lookingAt()) {
                return true;
            }
        }
        return jobSummary;
    }

    /** Reads every report in the input into {@code builder.forensics()}. */
    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            builder.diagnostic(Diagnostic.error(source, 0, "RAS output larger than " + MAX_BYTES + " bytes; not read"));
            return;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String t = text.replace("\uFEFF", "").stripLeading();
        List<Diagnostic> problems = new ArrayList<>();
        List<RasStatus> statuses = t.startsWith("{") || t.startsWith("[") ? new RasJson(t, source, problems).read()
                : new RasText(source, problems).read(bytes, cancel);
        problems.forEach(builder::diagnostic);
        statuses.forEach(builder.forensics()::ras);
    }

    /**
     * A collective or count name used as a key, at most {@link #MAX_KEY} characters: a longer one is not a
     * name NCCL prints and raises {@link Numbers.OutOfRange} (its record is skipped with a diagnostic).
     */
    static String key(String name) {
        if (name.length() > MAX_KEY) {
            throw new Numbers.OutOfRange("name", name, "at most " + MAX_KEY + " characters");
        }
        return name;
    }

    /** {@code 0x} and the hex digits without leading zeros ({@code %016lx} in the text, {@code 0x%lx} in JSON). */
    static String hash(String h) {
        String t = h.strip().toLowerCase(java.util.Locale.ROOT);
        String digits = t.startsWith("0x") ? t.substring(2) : t;
        if (digits.isEmpty()) {
            return t;
        }
        try {
            return "0x" + Long.toHexString(Long.parseUnsignedLong(digits, 16));
        } catch (NumberFormatException e) {
            return t.startsWith("0x") ? t : "0x" + t;
        }
    }

    /**
     * The missing ranks, unless RAS listed more than the communicator can have (a defect of NCCL 2.28's
     * RAS lists bytes of its own output buffer as ranks of a communicator still initialising): then none.
     */
    static List<RasRank> plausible(List<RasRank> missing, int bound, String source, String hash,
                                           List<Diagnostic> problems) {
        if (missing.isEmpty()) {
            return missing;
        }
        int bad = 0;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (RasRank r : missing) {
            if (r.rank() < 0 || (bound > 0 && r.rank() >= bound) || r.rank() >= MAX_RANKS_PER_COMM || !seen.add(r.rank())) {
                bad++;
            }
        }
        if ((bound > 0 && missing.size() > bound) || bad > 0) {
            problems.add(Diagnostic.warning(source, missing.get(0).evidence().line(), "RAS lists " + missing.size()
                    + " missing ranks of communicator " + hash + (bound > 0 ? " (at most " + bound + " possible)" : "")
                    + ", " + bad + " of them impossible (negative, out of range or repeated): the list contradicts "
                    + "itself and is not used"));
            return List.of();
        }
        return missing;
    }
}
