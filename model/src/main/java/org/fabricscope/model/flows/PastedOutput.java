package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Plural;

/**
 * Whether output pasted (or dropped) for a manual step fits the step, and what was read from it. The
 * paste is read as the output of that step's command and nothing else ({@link StepOutput}): for a
 * format, only that format's readers are asked, and a paste they do not claim, or from which they read
 * nothing, is refused with a message that names what the step expects and what the paste looks like
 * instead; a number must be one number; text no reader takes is kept as evidence and never read. The
 * readers are the importers' ({@link Readers}), which the model does not know.
 */
public final class PastedOutput {
    /** The importers as a paste check needs them. */
    public interface Readers {
        /** Of these formats, the one most sure that the text is its format, or null when none claims it. */
        String claim(String text, List<String> formats);

        /** The format the text reads as among every format FabricScope reads, or null. */
        String detect(String text);

        /** What the user reads for a format ({@code ulimit -a / -l}); the id when unknown. */
        String label(String format);

        /** What reading the text as this format gives, a line per fact ({@link PasteReading}); empty when nothing. */
        List<String> read(String text, String format);
    }

    /**
     * The verdict on one paste: whether it fits the step; the format it is read as (empty for a number or
     * text); what was read from it; and the message the user sees (what was read, or why it is refused).
     */
    public record Result(boolean fits, String format, List<String> read, String message) {
        public Result {
            format = format == null ? "" : format;
            read = List.copyOf(read);
            Objects.requireNonNull(message, "message");
        }

        /** Whether the paste is imported with the other inputs (read as {@link #format}). */
        public boolean imported() {
            return fits && !format.isEmpty();
        }
    }

    /** {@code user@host:~$ cmd}, {@code $ cmd}, {@code # cmd}: a prompt the user copied with the output. */
    private static final Pattern PROMPT = Pattern.compile("^(?:\\S+@\\S+[:\\s][^$#]*)?[$#]\\s.*$");
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d{1,18}");

    private PastedOutput() {
    }

    /**
     * Checks {@code text} pasted for a step whose command prints {@code output} (the messages say "this
     * step's command": the panel shows it just above). A blank paste fits every step and reads nothing
     * (an answer without output).
     */
    public static Result check(StepOutput output, String text, Readers readers) {
        if (text == null || text.isBlank()) {
            return new Result(true, "", List.of(), "");
        }
        return switch (output.kind()) {
            case NUMBER -> number(text, readers);
            case TEXT -> new Result(true, "", List.of(), "Kept as this answer's evidence, not read: FabricScope has no reader for "
                    + "this command's output (" + lines(content(text).size()) + ").");
            case FORMAT -> format(output, text, readers);
        };
    }

    private static Result format(StepOutput output, String text, Readers readers) {
        String expected = String.join(" or ", output.formats().stream().map(readers::label).toList());
        String claimed = readers.claim(text, output.formats());
        if (claimed == null) {
            return new Result(false, "", List.of(), "Not read: this step takes " + expected + " output, and the paste "
                    + looksLike(text, readers) + ". Paste what the command prints, or answer without output.");
        }
        List<String> read = readers.read(text, claimed);
        if (read.isEmpty()) {
            return new Result(false, "", List.of(), "Not read: nothing in the paste is " + readers.label(claimed)
                    + " output that FabricScope can use.");
        }
        return new Result(true, claimed, read, "Read from the paste as " + readers.label(claimed) + ": " + String.join("; ", read));
    }

    private static Result number(String text, Readers readers) {
        List<String> lines = content(text);
        if (lines.size() == 1 && NUMBER.matcher(lines.get(0)).matches()) {
            return new Result(true, "", List.of(lines.get(0)), "Read from the paste: " + lines.get(0)
                    + " (the number this step's command prints).");
        }
        return new Result(false, "", List.of(), "Not read: this step's command prints one number, and the paste "
                + (lines.size() == 1 ? "is '" + shorten(lines.get(0)) + "'" : "has " + lines(lines.size()))
                + looksLikeToo(text, readers) + ". Paste what the command prints, or answer without output.");
    }

    /** {@code reads as ibstat output}, or {@code is no output FabricScope reads}. */
    private static String looksLike(String text, Readers readers) {
        String f = readers.detect(text);
        return f == null ? "is no output FabricScope reads" : "reads as " + readers.label(f) + " output";
    }

    private static String looksLikeToo(String text, Readers readers) {
        String f = readers.detect(text);
        return f == null ? "" : " (it reads as " + readers.label(f) + " output)";
    }

    /** The paste's lines that are neither blank nor a copied shell prompt, stripped. */
    static List<String> content(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\\R")) {
            String t = l.strip();
            if (!t.isEmpty() && !PROMPT.matcher(t).matches()) {
                out.add(t);
            }
        }
        return out;
    }

    private static String lines(int n) {
        return Plural.of(n, "line");
    }

    private static String shorten(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
