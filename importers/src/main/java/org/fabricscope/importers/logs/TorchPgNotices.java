package org.fabricscope.importers.logs;

import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;

/**
 * ProcessGroupNCCL's one-line notices: the flight recorder's (dump signals, dumps prepared, traces not
 * found) as FLIGHT_RECORDER events, and the aborts of communicators and of the process as ABORT events.
 */
final class TorchPgNotices {
    private TorchPgNotices() {
    }

    /**
     * Adds the notice {@code l} (rank {@code rank}, process-group fields already in {@code f}) to
     * {@code t}'s log; false when {@code l} is no such notice.
     */
    static boolean read(TorchLines t, String l, Map<String, String> f, int rank, Evidence ev) {
        if (l.indexOf("ProcessGroupNCCL") >= 0 || l.indexOf("Rank ") >= 0) {
            String fr = flightAction(l);
            if (fr != null) {
                f.put("action", fr);
                t.add(NcclEvent.Kind.FLIGHT_RECORDER, "", -1, rank, l, f, ev);
                return true;
            }
            String abort = abortAction(l);
            if (abort != null) {
                f.put("action", abort);
                String level = TorchPrefix.glogLevel(l);
                if (level != null) {
                    f.put("level", level);
                }
                t.add(NcclEvent.Kind.ABORT, "", -1, rank, l, f, ev);
                return true;
            }
        }
        return false;
    }

    private static String flightAction(String l) {
        if (l.indexOf("dump signal due to a collective timeout") >= 0) {
            return "dump-signal";
        }
        if (l.indexOf("preparing to dump debug info") >= 0) {
            return "preparing-dump";
        }
        if (l.indexOf("Observed flight recorder dump signal") >= 0) {
            return "observed-signal";
        }
        if (l.indexOf("to signal dumping") >= 0 || l.indexOf("to set the dump signal") >= 0) {
            return "first-to-signal";
        }
        if (l.indexOf("Stack trace of the failed collective not found") >= 0) {
            return "trace-not-found";
        }
        if (l.indexOf("Flight Recorder") >= 0 || l.indexOf("flight recorder") >= 0) {
            return "flight-recorder";
        }
        return null;
    }

    private static String abortAction(String l) {
        if (l.indexOf("Aborting communicators") >= 0 || l.indexOf("Aborting comm") >= 0) {
            return "aborting-communicators";
        }
        if (l.indexOf("ncclCommAbort") >= 0) {
            return "ncclCommAbort";
        }
        if (l.indexOf("ProcessGroupNCCL destroyed") >= 0) {
            return "destroyed";
        }
        if (l.indexOf("ProcessGroup abort") >= 0 || l.indexOf("aborts successfully") >= 0) {
            return "pg-abort";
        }
        if (l.indexOf("taking the entire process down") >= 0) {
            return "taking-process-down";
        }
        if (l.indexOf("Terminating the process after attempting to dump debug info") >= 0) {
            return "terminating";
        }
        return null;
    }
}
