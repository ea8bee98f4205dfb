package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A step's {@code "output"} field as a flow file writes it: {@code "number"}, {@code "text"}, a format id
 * ({@code "ulimit"}) or an array of them ({@code ["ibstat", "ibstatus"]}). Only a manual step takes
 * one (an automatic step is answered from the model, nothing is pasted for it). Problems go to the
 * loader's error sink as a JSON pointer and a message; the format ids are checked against the importers
 * by the app's tests, since the model does not know the importers.
 */
final class StepOutputField {
    private StepOutputField() {
    }

    /** The declared output, or null when there is none or it is wrong (then reported to {@code error}). */
    static StepOutput read(JsonNode v, String at, Flow.Kind kind, BiConsumer<String, String> error) {
        if (v == null) {
            return null;
        }
        if (kind != Flow.Kind.MANUAL) {
            error.accept(at, "only a manual step declares its command's output (what the user pastes)");
            return null;
        }
        if (v.isTextual()) {
            String t = v.asText();
            if (t.equals("number")) {
                return StepOutput.NUMBER;
            }
            if (t.equals("text")) {
                return StepOutput.TEXT;
            }
            if (StepOutput.isFormatId(t)) {
                return StepOutput.formats(List.of(t));
            }
        } else if (v.isArray() && !v.isEmpty()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < v.size(); i++) {
                JsonNode x = v.get(i);
                if (!x.isTextual() || !StepOutput.isFormatId(x.asText())) {
                    error.accept(at + "/" + i, "must be a format id (lower case words with dashes, e.g. ulimit), not "
                            + (x.isTextual() ? "'" + x.asText() + "'" : x.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
                    return null;
                }
                ids.add(x.asText());
            }
            return StepOutput.formats(ids);
        }
        error.accept(at, "must be \"number\", \"text\", a format id (\"ulimit\") or an array of format ids, not "
                + (v.isTextual() ? "'" + v.asText() + "'" : v.toString()));
        return null;
    }
}
