package org.fabricscope.app.live.poll;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.live.source.LiveSnapshot;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.ibnet.IblinkinfoImporter;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.LinkChange;

/**
 * The fabric poller's state at one moment, immutable: the last link table (iblinkinfo's text, read
 * into the builder by the same reader as a captured file), every port's timed counter samples (each
 * one {@code FabricBuilder.counters(..., time)}), and the link state changes seen.
 */
public final class FabricPollSnapshot implements LiveSnapshot {
    private final String source;
    private final String links;
    private final List<FabricPoller.Reading> readings;
    private final List<LinkChange> changes;
    private final List<Diagnostic> diagnostics;
    private final Map<String, String> failures;
    private final Instant taken;
    private final boolean disconnected;
    private final int ports;
    private final int polls;

    FabricPollSnapshot(String source, String links, List<FabricPoller.Reading> readings, List<LinkChange> changes,
                       List<Diagnostic> diagnostics, Map<String, String> failures, Instant taken, boolean disconnected,
                       int ports, int polls) {
        this.source = source;
        this.links = links;
        this.readings = List.copyOf(readings);
        this.changes = List.copyOf(changes);
        this.diagnostics = List.copyOf(diagnostics);
        this.failures = org.fabricscope.model.core.OrderedMaps.copyOf(failures);
        this.taken = taken;
        this.disconnected = disconnected;
        this.ports = ports;
        this.polls = polls;
    }

    @Override
    public void contribute(FabricModelBuilder builder) {
        builder.source(source);
        if (links != null) {
            try (TextLines lines = new TextLines(new ByteArrayInputStream(links.getBytes(StandardCharsets.UTF_8)))) {
                new IblinkinfoImporter().read(lines, source + "/iblinkinfo", builder, Cancellation.NEVER);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        for (FabricPoller.Reading r : readings) {
            // by GUID first (the builder's own order): a reading from before a LID change lands on its own node
            builder.counters(r.lid(), r.port(), r.guid(), null, r.counters(), r.evidence(), false, r.time());
        }
        changes.forEach(builder::linkChange);
    }

    @Override
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    @Override
    public Map<String, String> failures() {
        return failures;
    }

    @Override
    public Instant taken() {
        return taken;
    }

    @Override
    public boolean disconnected() {
        return disconnected;
    }

    /** Counter samples held, over all ports. */
    public int samples() {
        return readings.size();
    }

    /** The link state changes seen so far, in time order. */
    public List<LinkChange> changes() {
        return changes;
    }

    @Override
    public String counts() {
        return ports + " ports polled " + polls + (polls == 1 ? " time" : " times") + ", " + changes.size() + " link change"
                + (changes.size() == 1 ? "" : "s");
    }
}
