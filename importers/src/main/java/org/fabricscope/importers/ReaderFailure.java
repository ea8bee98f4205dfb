package org.fabricscope.importers;

import java.util.ConcurrentModificationException;

/** Says in words what went wrong when a reader failed unexpectedly, without naming Java classes. */
final class ReaderFailure {
    private ReaderFailure() {
    }

    static String describe(Throwable e) {
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
        return "unexpected failure";
    }
}
