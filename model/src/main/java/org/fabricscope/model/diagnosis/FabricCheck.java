package org.fabricscope.model.diagnosis;

import java.util.List;

import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;

/**
 * One check of the diagnosis pass. Each layer (fabric, hosts, Kubernetes, training) adds its own.
 * A check declares every finding id it may raise ({@link #findings()}), with its layer, severity,
 * description and the source of its rule; {@link Diagnosis} refuses a finding whose id its check did
 * not declare, and {@code fabricscope checks} prints the declarations as the catalogue.
 */
public interface FabricCheck {
    /** The finding ids this check may raise, each once. */
    List<FindingSpec> findings();

    /** Runs over one analysed model; returns nothing when its layer was not loaded. */
    List<Finding> run(CheckContext context);
}
