package org.fabricscope.importers.core;

/** Asked between lines and files; an import stops soon after it answers true. */
@FunctionalInterface
public interface Cancellation {
    Cancellation NEVER = () -> false;

    boolean isCancelled();
}
