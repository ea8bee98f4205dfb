package org.fabricscope.importers.host;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;
import org.fabricscope.model.evidence.MemlockLimit;

/**
 * {@code ulimit -a} (bash: {@code max locked memory       (kbytes, -l) 64}; dash and busybox:
 * {@code -l: locked memory (kb)   64} / {@code locked memory(kbytes)  64}) and {@code ulimit -l} alone
 * (one line, {@code unlimited} or a number of kbytes; recognised only after a {@code $ ulimit -l}
 * prompt or as a file of that one line, weakly).
 */
public final class UlimitReader extends HostEvidenceReader {
    public static final String ID = "ulimit";
    private static final Pattern LOCKED = Pattern.compile("^(?:max locked memory|-l: locked memory|locked memory)\\s*\\([^)]*\\)\\s*(\\S+)\\s*$");
    private static final Pattern BARE = Pattern.compile("^(unlimited|\\d{1,30})$");
    private static final Pattern ASKED = Pattern.compile(".*(?:^|[$#] ?)ulimit -l\\s*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ulimit -a / -l";
    }

    @Override
    public int maxConfidence() {
        return 70;
    }

    @Override
    public int confidence(Head head) {
        List<String> c = content(head);
        for (String l : c) {
            if (LOCKED.matcher(l.strip()).matches()) {
                return maxConfidence();
            }
        }
        boolean asked = head.lines().stream().anyMatch(l -> ASKED.matcher(l.strip()).matches());
        if (c.size() == 1 && BARE.matcher(c.get(0).strip()).matches()) {
            return asked ? 60 : 12;
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        return new Parser() {
            @Override
            public void line(String line, Evidence at) {
                String t = line.strip();
                Matcher m = LOCKED.matcher(t);
                String v = m.matches() ? m.group(1) : BARE.matcher(t).matches() ? t : null;
                if (v == null) {
                    return;
                }
                if (v.equals("unlimited")) {
                    draft.memlock(new MemlockLimit(true, -1, at));
                } else {
                    long kb = Numbers.decimal(v, 0, Long.MAX_VALUE, "locked-memory limit (kbytes)");
                    draft.memlock(new MemlockLimit(false, kb, at));
                }
            }
        };
    }
}
