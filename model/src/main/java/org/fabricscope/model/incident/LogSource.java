package org.fabricscope.model.incident;

import java.util.List;

/**
 * What one scanned log file (or stream) was: its name, how many lines it had, its first and last
 * stamped times, and who printed in it: the NCCL prefixes' {@code host:pid} and torchrun's
 * {@code [rankN]:} ranks. The reasoning uses it to tell a log that stopped without a word from one
 * that was never captured, and to place lines that carry no prefix.
 */
public record LogSource(String name, int lines, Stamp first, Stamp last, List<String> processes, List<Integer> ranks,
                        boolean kernel) {
    public LogSource {
        processes = List.copyOf(processes);
        ranks = List.copyOf(ranks);
    }
}
