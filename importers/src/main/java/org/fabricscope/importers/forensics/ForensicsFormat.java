package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.Predicate;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/**
 * The hang-forensics readers in the reader registry: PyTorch flight recorder dumps (pickled, a
 * binary head, or JSON), NCCL RAS status, nccl-tests output, NCCL Inspector output and perftest
 * output (the pairwise tests beside nccl-tests). Each is
 * claimed below kubectl objects (which declare themselves) and above NCCL logs (which these
 * outputs may quote), and read in the logs phase so the rank joins see every log line.
 */
public final class ForensicsFormat implements FormatReader {
    /** One reader's read call: a stream and the import's context (source name, builder, cancel, shared state). */
    @FunctionalInterface
    interface Read {
        void read(InputStream in, ReadContext ctx) throws IOException;
    }

    private static final int CONFIDENCE = 90;

    private final String id;
    private final String label;
    private final Predicate<Head> claims;
    private final Read read;

    private ForensicsFormat(String id, String label, Predicate<Head> claims, Read read) {
        this.id = id;
        this.label = label;
        this.claims = claims;
        this.read = read;
    }

    /** The five formats, in registry order. */
    public static List<FormatReader> all() {
        return List.of(
                new ForensicsFormat(FlightRecorderReader.ID, FlightRecorderReader.LABEL,
                        h -> h.isBinary() ? h.binaryMatches(FlightRecorderReader::looksLikePickle) : FlightRecorderReader.looksLike(h.lines()),
                        (in, ctx) -> new FlightRecorderReader(ctx.state(SharedValues.class, SharedValues::new)).read(in, ctx)),
                new ForensicsFormat(RasStatusReader.ID, RasStatusReader.LABEL, h -> RasStatusReader.looksLike(h.lines()),
                        (in, ctx) -> new RasStatusReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation())),
                new ForensicsFormat(NcclTestsReader.ID, NcclTestsReader.LABEL, h -> NcclTestsReader.looksLike(h.lines()),
                        (in, ctx) -> new NcclTestsReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation())),
                new ForensicsFormat(NcclInspectorReader.ID, NcclInspectorReader.LABEL,
                        h -> NcclInspectorReader.looksLike(h.lines()),
                        (in, ctx) -> new NcclInspectorReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation())),
                new ForensicsFormat(PerftestReader.ID, PerftestReader.LABEL, h -> PerftestReader.looksLike(h.lines()),
                        (in, ctx) -> new PerftestReader().read(in, ctx)));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.LOGS;
    }

    @Override
    public int maxConfidence() {
        return CONFIDENCE;
    }

    @Override
    public int confidence(Head head) {
        return claims.test(head) ? CONFIDENCE : NONE;
    }

    /** Flight recorder dumps are parsed on several threads (1,024 ranks' dumps are half a gigabyte of pickles). */
    @Override
    public Parse parallelParse(ReadContext ctx) {
        if (!id.equals(FlightRecorderReader.ID)) {
            return null;
        }
        FlightRecorderReader reader = new FlightRecorderReader(ctx.state(SharedValues.class, SharedValues::new));
        return (in, source, size, cancel) -> {
            FlightRecorderReader.Parsed p = reader.parse(in, source, size, cancel);
            return p::applyTo;
        };
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        read.read(in, ctx);
    }
}
