package org.fabricscope.model.forensics;

/**
 * One rank's collective entries of one process group: sequence numbers and entry indexes, ordered by
 * sequence number with the last entry of a repeated number kept (what a map put per entry kept): what
 * {@link FlightRecorderAnalysis}'s mismatch walk steps through, rank by rank.
 */
final class RankSeqs {
    final FlightRecorderDump dump;
    /** Shared with the dump's {@link PgIndex} until changed: never written in place. */
    long[] seqs;
    int[] idx;
    int n;
    /** The entry index of the sequence number the walk last took from this rank. */
    int current;
    /** {@link FrEntries#sharedSignature} of the dump's entries. */
    final Object[] signature;

    /** The first {@code n} sequence numbers and entry indexes, in entry order (the arrays are not changed). */
    RankSeqs(FlightRecorderDump dump, long[] seqs, int[] idx, int n) {
        this.dump = dump;
        this.signature = dump.entryTable().sharedSignature();
        this.seqs = seqs;
        this.idx = idx;
        this.n = n;
    }

    /** Adds another group's entries of this dump, keeping entry order (both are in entry order). */
    void merge(long[] moreSeqs, int[] moreIdx, int more) {
        long[] s = new long[n + more];
        int[] x = new int[n + more];
        int a = 0;
        int b = 0;
        for (int k = 0; k < s.length; k++) {
            if (b >= more || (a < n && idx[a] < moreIdx[b])) {
                s[k] = seqs[a];
                x[k] = idx[a++];
            } else {
                s[k] = moreSeqs[b];
                x[k] = moreIdx[b++];
            }
        }
        seqs = s;
        idx = x;
        n += more;
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

    /** Whether both ranks' entries all hold the same name, dtypes and shapes instances: they agree at every entry. */
    boolean agreesEverywhereWith(RankSeqs other) {
        Object[] a = signature;
        Object[] b = other.signature;
        return a != null && b != null && a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
    }
}
