package org.fabricscope.importers;

import java.io.IOException;
import java.io.InputStream;

/**
 * One input format: how to tell it from the head of a file, when to read it, and how. Readers
 * are registered in a {@link FormatRegistry}; {@link FabricImporter} asks every reader for its
 * {@link #confidence} in each file's head, gives the file to the most confident one (ties: the
 * one registered first), and calls its {@link #read} in its {@link #phase}. A reader holds no
 * state between files: everything of one read lives in locals or in the {@link ReadContext}.
 *
 * <p>Adding a format: one class implementing this (in the format's package), one line in
 * {@link FormatRegistry#standard()}, and golden files for its tests.
 */
public interface FormatReader {
    /** Not this format. */
    int NONE = 0;
    /** The most a reader can say: the file declares its type (an XML root element). */
    int CERTAIN = 100;

    /**
     * Stable id, lower case with dashes ({@code ibnetdiscover}, {@code k8s-objects}): what
     * {@link ImportResult#formats()} maps a file to. Never changes once released.
     */
    String id();

    /** What the user reads in diagnostics and docs ({@code ibnetdiscover -p}, {@code kubectl describe pod}). */
    String label();

    /**
     * How sure this reader is that the head is its format, from {@link #NONE} (not mine) to
     * {@link #CERTAIN}. The scale, so that readers of different formats compare: 90 and up, the
     * file declares what it is (an XML root, a Kubernetes {@code kind} with its
     * {@code apiVersion}, a header line only that tool prints); 60 to 89, lines only that tool
     * prints; below 60, shapes other text can have too, counted line by line. Called once per
     * file with at most {@link Head#MAX_LINES} lines: keep it cheap (patterns compiled once,
     * work shared with {@link Head#derived}) and never throw.
     */
    int confidence(Head head);

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
}
