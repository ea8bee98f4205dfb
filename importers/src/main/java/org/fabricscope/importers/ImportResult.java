package org.fabricscope.importers;

import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * What an import produced: the model (with every diagnostic), which format each file was read
 * as, and counter thresholds when the input carried an error_thresholds file.
 *
 * @param formats source name to the {@link FormatReader#id() id} of the format it was read as,
 *                {@link FormatRegistry#UNKNOWN} when no reader recognised it, null when it was
 *                empty, binary or unreadable (or telling its format failed)
 */
public record ImportResult(FabricModel model, Map<String, String> formats, ErrorThresholds thresholds) {
    /**
     * Whether at least one file was recognised and read: unknown, empty and binary files and
     * formats recognised only to be skipped do not count.
     */
    public boolean readAnything() {
        return !model.sources().isEmpty();
    }

    /** The files some reader read, in the order they were read. */
    public List<String> sources() {
        return model.sources();
    }
}
