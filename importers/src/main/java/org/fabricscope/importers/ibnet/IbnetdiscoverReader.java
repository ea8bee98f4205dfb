package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code ibnetdiscover} (plain, {@code -g}, {@code --diff}): node headers, {@code switchguid=}/{@code caguid=} lines, port lines. */
public final class IbnetdiscoverReader implements FormatReader {
    public static final String ID = "ibnetdiscover";
    /** What ibnetdiscover writes on its second line, before the date. */
    static final String HEADER = "# Topology file: generated on ";
    private static final int HEADER_CONFIDENCE = 95;
    private static final int NODE_LINES_CONFIDENCE = 60;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibnetdiscover";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public int maxConfidence() {
        return HEADER_CONFIDENCE;
    }

    @Override
    public int confidence(Head head) {
        int first = firstConfidence(head);
        return first != NONE ? first : lateConfidence(head);
    }

    /**
     * The header only ibnetdiscover prints ({@code infiniband-diags} {@code ibnetdiscover.c}: a {@code #} line,
     * {@code # Topology file: generated on <ctime>}, {@code #}, {@code # Initiated from node <guid> port <guid>})
     * above its node lines: the file says what it is, so the readers below 95 are not asked (on Selene's dump
     * their sniffing was a sixth of the CLI's main thread before the read).
     */
    @Override
    public int firstConfidence(Head head) {
        if (!hasHeader(head)) {
            return NONE;
        }
        IbHead h = IbHead.of(head);
        // an ibsim net file made from a dump keeps the header but names its nodes symbolically: its own reader decides
        return !h.prose() && h.ibnet > 0 && h.ibsim == 0 ? HEADER_CONFIDENCE : NONE;
    }

    @Override
    public int lateCeiling() {
        return NODE_LINES_CONFIDENCE;
    }

    /** Node headers and guid lines without the tool's header (a diff, a hand-cut excerpt). */
    @Override
    public int lateConfidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.ibnet > 0 ? NODE_LINES_CONFIDENCE : NONE;
    }

    /** The tool's header among the comment and blank lines that open the file. */
    static boolean hasHeader(Head head) {
        for (String l : head.lines()) {
            if (l.startsWith(HEADER)) {
                return true;
            }
            if (!l.isBlank() && !l.startsWith("#")) {
                return false;
            }
        }
        return false;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IbnetdiscoverImporter().read(in, ctx);
    }
}
