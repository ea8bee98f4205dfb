package org.fabricscope.app.live.source;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;

/**
 * What a live source holds at one moment, immutable: handed to the model builder as objects
 * ({@link #contribute}), never as text for the readers to sniff and parse again. Only what is text by
 * nature (a pod's log read in one go) comes as {@link #texts()}, for the file readers.
 */
public interface LiveSnapshot {
    /** Adds what the source read to a model being built; called on the rebuild's thread, once per build. */
    void contribute(FabricModelBuilder builder);

    /** Text the source read that the file readers should read (logs); empty for most sources. */
    default List<ImportSource> texts() {
        return List.of();
    }

    /** Warnings and notes about what could not be read; added to the model's diagnostics. */
    List<Diagnostic> diagnostics();

    /** Why each kind of thing the source reads cannot be read now, by kind; empty when all could be. */
    Map<String, String> failures();

    /** When the snapshot was taken. */
    Instant taken();

    /** Whether nothing at all could be read (so counts would read as an idle source). */
    boolean disconnected();

    /** One line of what it holds, for a status bar: {@code 4 nodes, 16 pods, 9 events}. */
    String counts();
}
