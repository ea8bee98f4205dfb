package org.fabricscope.model.diagnosis;

import org.fabricscope.model.Cable;
import org.fabricscope.model.Guids;
import org.fabricscope.model.Port;

/** How findings name ports and cables, so every check names them the same way. */
final class Subjects {
    private Subjects() {
    }

    static String port(Port p) {
        return p.node().displayName() + " port " + p.number()
                + (p.node().isSwitch() ? "" : " (" + Guids.format(p.node().guid()) + ")");
    }

    static String cable(Cable c) {
        return port(c.a()) + " <-> " + port(c.b());
    }
}
