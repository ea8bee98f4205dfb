package org.fabricscope.importers.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.DeviceFile;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * {@code ls -l /dev/infiniband}: character devices {@code crw-rw-rw-. 1 root root 231, 192 Jan  1 00:00 uverbs0}
 * ({@code uverbsN}, {@code rdma_cm}, {@code umadN}, {@code issmN}), their mode, owner and group.
 */
public final class DevInfinibandReader extends HostEvidenceReader {
    public static final String ID = "dev-infiniband";
    private static final Pattern ENTRY = Pattern.compile(
            "^(c[rwxsStT-]{9})[.+@]?\\s+\\d+\\s+(\\S+)\\s+(\\S+)\\s+\\d+,\\s*\\d+\\s+.*?\\s((?:/dev/infiniband/)?(?:uverbs\\d+|rdma_cm|umad\\d+|issm\\d+|ucm\\d+))$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ls -l /dev/infiniband";
    }

    @Override
    public int maxConfidence() {
        return 65;
    }

    @Override
    public int confidence(Head head) {
        for (String l : content(head)) {
            if (ENTRY.matcher(l.strip()).matches()) {
                return maxConfidence();
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        return (line, at) -> {
            Matcher m = ENTRY.matcher(line.strip());
            if (m.matches()) {
                String name = m.group(4).replace("/dev/infiniband/", "");
                draft.deviceFile(new DeviceFile(name, m.group(1), m.group(2), m.group(3), at));
            }
        };
    }
}
