package org.fabricscope.model.diagnosis;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.Finding;

/** One check of the diagnosis pass. Each layer (fabric, hosts, Kubernetes, training) adds its own. */
public interface FabricCheck {
    /** The finding id this check emits, e.g. {@code link-errors}. */
    String id();

    /** What the check looks for, one sentence, for the docs and the findings view. */
    String description();

    List<Finding> run(FabricModel model);
}
