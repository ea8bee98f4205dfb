package org.fabricscope.app.live.source;

/**
 * A live source could not be opened or read: one line for the user, saying what did not answer or
 * refused, and within which deadline. Never carries a Java class name or a stack trace to print.
 */
public class LiveSourceException extends Exception {
    private static final long serialVersionUID = 1L;

    public LiveSourceException(String message) {
        super(message, null, false, false);
    }
}
