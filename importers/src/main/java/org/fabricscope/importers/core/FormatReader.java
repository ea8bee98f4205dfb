package org.fabricscope.importers.core;

import java.io.IOException;
import java.io.InputStream;

/**
 * One input format: how to tell it from the head of a file, when to read it, and how. Readers
 * are registered in a {@link org.fabricscope.importers.FormatRegistry};
 * {@link org.fabricscope.importers.FabricImporter} asks the readers for their {@link #confidence}
 * in each file's head, gives the file to the most confident one (ties: the one registered first),
 * and calls its {@link #read} in its {@link #phase}. A reader holds no state between files:
 * everything of one read lives in locals or in the {@link ReadContext}.
 *
 * <p>Adding a format: one class implementing this (in the format's package), one line in
 * {@link org.fabricscope.importers.FormatRegistry#standard()}, and golden files for its tests.
 */
public interface FormatReader {
    /** Not this format. */
    int NONE = 0;
    /** The most a reader can say: the file declares its type (an XML root element). */
    int CERTAIN = 100;

    /**
     * Stable id, lower case with dashes ({@code ibnetdiscover}, {@code k8s-objects}): what
     * {@link org.fabricscope.importers.ImportResult#formats()} maps a file to. Never changes once released.
     */
    String id();

    /** What the user reads in diagnostics and docs ({@code ibnetdiscover -p}, {@code kubectl describe pod}). */
    String label();

    /**
     * How sure this reader is that the head is its format, from {@link #NONE} (not mine) to
     * {@link #CERTAIN}. The scale, so that readers of different formats compare: 90 and up, the
     * file says what it is (an XML root, a Kubernetes {@code kind} with its {@code apiVersion}, a
     * header only that tool prints); 40 to 89, lines only that tool prints, higher for the more
     * specific (an NCCL line prefix over nvidia-smi's matrix, which logs print too; perfquery's
     * header over ibnetdiscover's node lines); below 40, shapes other text has too
     * ({@code Name=value}, {@code 0xGUID "name"}). Called at most once per file with at most
     * {@link Head#MAX_LINES} lines: keep it cheap (patterns compiled once, work shared through
     * {@link Head#derived}), never above {@link #maxConfidence()}, and never throw.
     */
    int confidence(Head head);

    /**
     * The most {@link #confidence} ever answers for this format ({@link #CERTAIN} unless told).
     * The registry asks the readers in falling order of this and stops once no reader left could
     * beat the one found, so a head that a surer format claims (an XML root, a kubectl object) costs
     * nothing in the readers below it. Answers above it are taken as it.
     */
    default int maxConfidence() {
        return CERTAIN;
    }

    /**
     * For a reader whose {@link #confidence} has a cheap look that can reach {@link #maxConfidence()} and a
     * costly one that answers no more than {@link #lateCeiling()}: the cheap look alone. The registry asks it
     * in its place by {@code maxConfidence}, and asks {@link #lateConfidence} only when it answered
     * {@link #NONE} and nobody could beat the late answer yet. {@code confidence} must be this answer when it
     * is not {@code NONE}, else {@code lateConfidence}'s. The default: the whole {@code confidence}.
     */
    default int firstConfidence(Head head) {
        return confidence(head);
    }

    /** The most {@link #lateConfidence} answers; {@link #NONE} (the default): the reader has no late look. */
    default int lateCeiling() {
        return NONE;
    }

    /**
     * The costly look of {@link #firstConfidence}'s note, for a head its cheap look did not claim; never above
     * {@link #lateCeiling()}. The default: {@link #NONE}.
     */
    default int lateConfidence(Head head) {
        return NONE;
    }

    /** When files of this format are read. */
    ImportPhase phase();

    /**
     * Reads one file into {@link ReadContext#builder()}. Problems in the input are reported with
     * {@link ReadContext#report} (file and line), never thrown; read line-oriented input through
     * {@link ReadContext#lines} so that an unexpected failure can name the line it stopped at.
     * Throws {@link ImportCancelledException} when {@link ReadContext#cancellation()} says stop.
     * The caller opens and closes {@code in}.
     */
    void read(InputStream in, ReadContext ctx) throws IOException;

    /**
     * For a reader whose work on a file splits into parsing, which needs only the file, and adding
     * what it parsed to the model: the parsing, as a function that the importer runs on other
     * threads, ahead of the file's turn (the importer still adds the results in file order, on its own
     * thread). Null (the default) for a reader that does not split: its files are {@link #read}.
     * Called on the importer's thread, once per import, so that the function can capture state
     * kept by {@link ReadContext#state} (it must then be thread-safe).
     */
    default Parse parallelParse(ReadContext ctx) {
        return null;
    }

    /**
     * Parses one file; must be thread-safe and touch neither the model builder nor the context.
     * {@code size} is what the file's size was when listed (a hint: the file may have changed since).
     */
    @FunctionalInterface
    interface Parse {
        Parsed parse(InputStream in, String source, long size, Cancellation cancel) throws IOException;
    }

    /** What {@link Parse} made of one file: added to the model on the importer's thread, in file order. */
    @FunctionalInterface
    interface Parsed {
        void applyTo(ReadContext ctx);
    }
}
