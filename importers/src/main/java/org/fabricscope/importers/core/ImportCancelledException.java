package org.fabricscope.importers.core;

/** Thrown out of an import whose {@link Cancellation} said stop; nothing half-read is kept. */
public final class ImportCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ImportCancelledException() {
        super("import cancelled", null, false, false);
    }
}
