package org.fabricscope.model.forensics;

/**
 * One rank's collective entries of one process group: sequence numbers and entry indexes, ordered by
 * sequence number with the last entry of a repeated number kept (what a map put per entry kept): what
 * {@link FlightRecorderAnalysis}'s mismatch walk steps through, rank by rank.
 */
final class RankSeqs {
    final FlightRecorderDump dump;
    long[] seqs = new long[16];
    int[] idx = new int[16];
    int n;
    /** The entry index of the sequence number the walk last took from this rank. */
    int current;

    RankSeqs(FlightRecorderDump dump) {
        this.dump = dump;
    }

    void add(long seq, int index) {
        if (n == seqs.length) {
            seqs = java.util.Arrays.copyOf(seqs, n * 2);
            idx = java.util.Arrays.copyOf(idx, n * 2);
        }
        seqs[n] = seq;
        idx[n++] = index;
    }

    /** Sorts by sequence number (stable), keeping the last entry of each number. */
    void order() {
        boolean ascending = true;
        for (int i = 1; i < n && ascending; i++) {
            ascending = seqs[i] > seqs[i - 1];
        }
        if (!ascending) {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, java.util.Comparator.comparingLong(i -> seqs[i])); // stable
            long[] s = new long[n];
            int[] x = new int[n];
            int m = 0;
            for (int j = 0; j < n; j++) {
                int i = order[j];
                if (m > 0 && s[m - 1] == seqs[i]) {
                    x[m - 1] = idx[i]; // a later entry of the same number replaces the earlier
                } else {
                    s[m] = seqs[i];
                    x[m++] = idx[i];
                }
            }
            seqs = s;
            idx = x;
            n = m;
        }
    }
}
