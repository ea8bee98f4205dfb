package org.fabricscope.importers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.DeclaredFormat;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.flows.PasteReading;
import org.fabricscope.model.flows.PastedOutput;

/**
 * The importers as a paste check needs them ({@link PastedOutput.Readers}): which of a step's formats
 * claims a paste (only those readers are asked), what every reader would say of it (to name it in a
 * refusal), and what reading it as one format alone gives. Also the text of the file that imports a
 * paste with the other inputs as that format and nothing else ({@link #declared}).
 */
public final class PasteReaders implements PastedOutput.Readers {
    /** How a paste is named in what is read from it alone. */
    private static final String SOURCE = "pasted output";
    private final FormatRegistry registry;

    public PasteReaders() {
        this(FormatRegistry.standard());
    }

    public PasteReaders(FormatRegistry registry) {
        this.registry = registry;
    }

    @Override
    public String claim(String text, List<String> formats) {
        List<FormatReader> readers = new ArrayList<>();
        for (String id : formats) {
            FormatReader r = registry.byId(id);
            if (r != null) {
                readers.add(r);
            }
        }
        return readers.isEmpty() ? null : id(FormatRegistry.of(readers).detect(head(text)));
    }

    @Override
    public String detect(String text) {
        return id(registry.detect(head(text)));
    }

    @Override
    public String label(String format) {
        FormatReader r = registry.byId(format);
        return r == null ? format : r.label();
    }

    @Override
    public List<String> read(String text, String format) {
        FormatReader r = registry.byId(format);
        if (r == null) {
            return List.of();
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ImportSource s = new ImportSource(SOURCE, bytes.length, () -> new java.io.ByteArrayInputStream(bytes), true);
        ImportResult result = new FabricImporter(FormatRegistry.of(List.of(r)))
                .importSources(List.of(s), List.of(), ImportProgress.NONE, Cancellation.NEVER);
        return PasteReading.describe(result.model());
    }

    /** The text of a file that is read as {@code format} alone: the declaration line, then the paste. */
    public static String declared(String format, String text) {
        return DeclaredFormat.line(format) + (text.endsWith("\n") ? text : text + "\n");
    }

    private static Head head(String text) {
        return Head.of(text);
    }

    private static String id(FormatReader r) {
        return r == null ? null : r.id();
    }
}
