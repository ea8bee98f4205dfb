package org.fabricscope.app.live.poll;

import java.time.Instant;
import java.util.List;

import org.fabricscope.model.fabric.LinkChange;

/**
 * What one poll found: when, how many ports' counters were read, the counters that rose since the
 * poll before (with the rate per hour over everything read of them so far), the link state changes,
 * whether the link table was read, and what could not be read (one line each).
 */
public record PollResult(int number, Instant time, int portsRead, List<Rise> rises, List<LinkChange> changes,
                         boolean linksRead, List<String> errors) {
    /** One counter of one port that rose: by how much since the last poll, and per hour over the whole series. */
    public record Rise(String port, int lid, int portNumber, String counter, long increase, double perHour, long now,
                       int samples) {
    }

    public PollResult {
        rises = List.copyOf(rises);
        changes = List.copyOf(changes);
        errors = List.copyOf(errors);
    }
}
