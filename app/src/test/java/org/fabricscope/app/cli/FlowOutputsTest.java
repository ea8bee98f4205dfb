package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fabricscope.importers.FormatRegistry;
import org.fabricscope.model.flows.Flow;
import org.fabricscope.model.flows.FlowLibrary;
import org.fabricscope.model.flows.StepOutput;
import org.junit.jupiter.api.Test;

/** Every format a built-in flow's manual step says its command prints is one the importers read (the model cannot check it). */
class FlowOutputsTest {
    @Test
    void everyDeclaredOutputFormatHasAReader() {
        int formats = 0;
        for (Flow f : FlowLibrary.builtIn().flows()) {
            for (Flow.Step s : f.steps()) {
                if (s.kind() == Flow.Kind.MANUAL && s.output().kind() == StepOutput.Kind.FORMAT) {
                    for (String id : s.output().formats()) {
                        assertNotNull(FormatRegistry.standard().byId(id), f.id() + "/" + s.id() + " reads its paste as '" + id
                                + "', which no reader is");
                        formats++;
                    }
                }
            }
        }
        assertTrue(formats >= 5, "the built-in manual steps name the formats of their commands: " + formats);
    }
}
