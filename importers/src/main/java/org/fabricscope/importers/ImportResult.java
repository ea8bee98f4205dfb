package org.fabricscope.importers;

import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * What an import produced: the model (with every diagnostic), which format each file was read
 * as, and counter thresholds when the input carried an error_thresholds file.
 */
public record ImportResult(FabricModel model, Map<String, Format> formats, ErrorThresholds thresholds) {
    /** Whether at least one file was recognised and read (a binary or empty file maps to null). */
    public boolean readAnything() {
        return formats.values().stream().anyMatch(f -> f != null && f != Format.UNKNOWN && f != Format.IBSIM_NET
                && f != Format.HWLOC_XML);
    }

    public List<String> sources() {
        return model.sources();
    }
}
