package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code kubectl get events} (and {@code -A}) as a table: its {@code LAST SEEN TYPE REASON OBJECT ... MESSAGE} header first. */
public final class EventsTableReader implements FormatReader {
    public static final String ID = "k8s-events-table";
    private static final Pattern EVENTS_HEADER = Pattern.compile(
            "^(?:NAMESPACE\\s+)?LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+.*MESSAGE.*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "kubectl get events";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.KUBERNETES;
    }

    @Override
    public int maxConfidence() {
        return 95;
    }

    @Override
    public int confidence(Head head) {
        KubeHead k = KubeHead.of(head);
        return k.first != null && !k.json && EVENTS_HEADER.matcher(k.first).matches() ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new EventsTableImporter().read(in, ctx);
    }
}
