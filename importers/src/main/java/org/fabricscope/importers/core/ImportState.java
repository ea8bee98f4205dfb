package org.fabricscope.importers.core;

import org.fabricscope.model.FabricModelBuilder;

/**
 * State that readers keep across the files of one import (the {@code --node-name-map} names,
 * gathered from every node-name-map file), applied to the model once, after the last file is read.
 * Kept by {@link ReadContext#state}.
 */
public interface ImportState {
    /** Applies what the files gave, after all files are read and before the model is built. */
    void applyTo(FabricModelBuilder builder);
}
