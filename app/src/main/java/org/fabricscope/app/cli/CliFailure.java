package org.fabricscope.app.cli;

/** A failure the CLI reports as one line and an exit status, never as a stack trace. */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    CliFailure(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }
}
