package org.fabricscope.importers;

import java.util.ConcurrentModificationException;

/**
 * Says in words what went wrong when a reader (or the CLI) failed unexpectedly, without naming Java
 * classes.
 */
public final class ReaderFailure {
    private ReaderFailure() {
    }

    /** A few words for {@code e}'s kind of failure; never a class name or the exception's own message. */
    public static String describe(Throwable e) {
        if (e instanceof NumberFormatException) {
            return "number out of range";
        }
        if (e instanceof ArithmeticException) {
            return "arithmetic overflow";
        }
        if (e instanceof IndexOutOfBoundsException || e instanceof NegativeArraySizeException) {
            return "index out of range";
        }
        if (e instanceof NullPointerException) {
            return "missing value";
        }
        if (e instanceof ClassCastException || e instanceof ArrayStoreException) {
            return "value of an unexpected type";
        }
        if (e instanceof ConcurrentModificationException) {
            return "data changed while being read";
        }
        if (e instanceof UnsupportedOperationException) {
            return "unsupported operation";
        }
        if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
            return "unexpected value";
        }
        if (e instanceof StackOverflowError) {
            return "input nested too deeply";
        }
        if (e instanceof AssertionError) {
            return "assertion failed";
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory";
        }
        if (e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException) {
            return "input or output failed";
        }
        return "unexpected failure";
    }
}
