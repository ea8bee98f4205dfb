package org.fabricscope.app.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The CLI's standard output: a {@link PrintStream} (which, like every print stream, never throws) that
 * remembers why a write failed, so that the run can end by saying so. A full disk or {@code > /dev/full}
 * is an error (status 74, EX_IOERR, one line on standard error): the output the user asked for is not
 * there. A pipe whose reader went away ({@code fabricscope checks | head -n 3}) is not: the reader chose
 * to stop, as {@code head} does, so the run ends quietly with its own status.
 */
public final class StandardOutput extends PrintStream {
    /** EX_IOERR of sysexits.h: the output could not be written. */
    static final int WRITE_FAILED = 74;

    private final Recorder recorder;

    private StandardOutput(Recorder recorder, Charset charset) {
        super(recorder, false, charset);
        this.recorder = recorder;
    }

    /** The process's standard output, buffered, in the platform's charset. */
    public static StandardOutput stdout() {
        return over(new FileOutputStream(FileDescriptor.out), Charset.defaultCharset());
    }

    static StandardOutput over(OutputStream raw, Charset charset) {
        return new StandardOutput(new Recorder(raw), charset);
    }

    /** The first write failure, or null. */
    IOException failure() {
        return recorder.failure;
    }

    /**
     * The run's status once its output is flushed: {@code status} when everything was written (or the reader
     * of a pipe stopped reading), else {@link #WRITE_FAILED} with one line on {@code err} naming the cause.
     */
    static int judge(int status, PrintStream out, PrintWriter err) {
        if (!out.checkError()) { // flushes
            return status;
        }
        IOException cause = out instanceof StandardOutput s ? s.failure() : null;
        String why = cause == null || cause.getMessage() == null ? "" : cause.getMessage();
        if (why.contains("Broken pipe")) {
            return status;
        }
        err.println("fabricscope: could not write the output to standard output"
                + (why.isEmpty() ? "" : ": " + why) + " (the output is incomplete)");
        err.flush();
        return status == 0 ? WRITE_FAILED : status;
    }

    /** Passes bytes on and keeps the first exception; after one, later writes are dropped. */
    private static final class Recorder extends FilterOutputStream {
        private IOException failure;

        Recorder(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (failure != null) {
                throw failure;
            }
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public void flush() throws IOException {
            if (failure != null) {
                throw failure;
            }
            try {
                out.flush();
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }
}
