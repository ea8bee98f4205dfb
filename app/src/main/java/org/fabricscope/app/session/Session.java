package org.fabricscope.app.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A saved session of the window (File › Save session…): the inputs loaded ({@code sources}, as paths), the answers
 * given to the troubleshooting flows' steps ({@code flow/step} to the verdict, the pasted output and what was read
 * from it), and the view (colour mode, problems only, hosts collapsed, the side tab). Written and read by
 * {@link SessionFile}; reopening loads the sources again and puts the answers and the view back.
 */
public record Session(List<String> sources, Map<String, Answer> answers, View view, Map<String, Note> notes) {
    public Session {
        sources = List.copyOf(sources);
        answers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(answers));
        view = view == null ? View.DEFAULT : view;
        notes = notes == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notes));
    }

    /** A session without notes on subjects. */
    public Session(List<String> sources, Map<String, Answer> answers, View view) {
        this(sources, answers, view, Map.of());
    }

    /** The user's note on a subject: the subject's label when the note was written (for people) and the text. */
    public record Note(String label, String text) {
        public Note {
            label = label == null ? "" : label;
            text = text == null ? "" : text;
        }
    }

    /** An answer to a flow's step: {@code yes} or {@code no}, the output pasted with it, what the readers made of it. */
    public record Answer(String verdict, String output, List<String> read) {
        public Answer {
            output = output == null ? "" : output;
            read = read == null ? List.of() : List.copyOf(read);
        }
    }

    /**
     * The view: the map's colour mode ({@code ColourMode} name), whether only problems are drawn, whether every
     * host is collapsed, and the side tab shown ({@code SideTabs.Tab} name).
     */
    public record View(String colour, boolean problemsOnly, boolean collapseAll, String tab) {
        public static final View DEFAULT = new View("ERRORS", false, false, "INSPECTOR");
    }
}
