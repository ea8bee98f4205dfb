package org.fabricscope.importers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Severity;

/** Small helpers shared by the importer tests. */
public final class TestSupport {
    private TestSupport() {
    }

    /** Where a piece of evidence is and its text, for listing a model's facts; "no evidence" when there is none. */
    public static String where(org.fabricscope.model.core.Evidence e) {
        return e == null ? "no evidence" : e.where() + " " + e.text();
    }

    /** The model's cables, one line each (ends, rate, evidence), sorted: to hold two ways of reading to one model. */
    public static List<String> cableFacts(FabricModel m) {
        return m.cables().stream().map(c -> "cable " + c.a().label() + " - " + c.b().label() + " " + c.width() + " "
                + c.speed() + " " + where(c.evidence())).sorted().toList();
    }

    /** Runs one line importer over {@code text} into a fresh builder and builds the model. */
    public static FabricModel read(LineImporter importer, String text) {
        FabricModelBuilder b = new FabricModelBuilder();
        readInto(b, importer, "in.txt", text);
        return b.build();
    }

    public static void readInto(FabricModelBuilder b, LineImporter importer, String name, String text) {
        readInto(b, importer, name, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code work} with {@link LineImporter#READ_AHEAD_THREADS} set to {@code threads} (null: unset), and puts the
     * property back as it was.
     */
    public static void withReadAheadThreads(String threads, Runnable work) {
        String before = System.getProperty(LineImporter.READ_AHEAD_THREADS);
        try {
            if (threads == null) {
                System.clearProperty(LineImporter.READ_AHEAD_THREADS);
            } else {
                System.setProperty(LineImporter.READ_AHEAD_THREADS, threads);
            }
            work.run();
        } finally {
            if (before == null) {
                System.clearProperty(LineImporter.READ_AHEAD_THREADS);
            } else {
                System.setProperty(LineImporter.READ_AHEAD_THREADS, before);
            }
        }
    }

    public static void readInto(FabricModelBuilder b, LineImporter importer, String name, byte[] bytes) {
        try {
            importer.read(new TextLines(new ByteArrayInputStream(bytes)), name, b, Cancellation.NEVER);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An in-memory file. */
    public static ImportSource source(String name, String text) {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        return new ImportSource(name, data.length, () -> new ByteArrayInputStream(data));
    }

    /** Imports in-memory files through the full pipeline (format detection, ordering). */
    public static ImportResult importTexts(String... nameAndText) {
        List<ImportSource> sources = new ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) {
            byte[] data = nameAndText[i + 1].getBytes(StandardCharsets.UTF_8);
            sources.add(new ImportSource(nameAndText[i], data.length, () -> new ByteArrayInputStream(data)));
        }
        return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
    }

    public static List<Diagnostic> atLeast(FabricModel m, Severity worst) {
        return m.diagnostics().stream().filter(d -> d.severity().compareTo(worst) <= 0).toList();
    }

    public static String dump(List<Diagnostic> ds) {
        return ds.stream().map(Diagnostic::toString).collect(Collectors.joining("\n"));
    }
}
