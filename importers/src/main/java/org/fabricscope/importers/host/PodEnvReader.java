package org.fabricscope.importers.host;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.EnvVar;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * A process's or pod's environment ({@code env}, {@code printenv}, {@code kubectl exec POD -- env}):
 * {@code NAME=value} lines, recognised when they set an NCCL variable or torchrun's ({@code MASTER_ADDR},
 * {@code WORLD_SIZE}, {@code LOCAL_RANK}...). Weak evidence on the shared scale: {@code Name=value} lines
 * are what other formats have too, so only heads of nothing but such lines count. The pod is named by
 * {@code HOSTNAME=} (a pod's hostname is its name), else the file's folder or name.
 */
public final class PodEnvReader extends HostEvidenceReader {
    public static final String ID = "env";
    private static final Pattern VAR = Pattern.compile("^(?:export |declare -x )?([A-Za-z_][A-Za-z0-9_]{0,127})=(.*)$");
    private static final List<String> TORCHRUN = List.of("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "LOCAL_RANK",
            "LOCAL_WORLD_SIZE", "GROUP_RANK", "TORCHELASTIC_RUN_ID", "PET_NNODES", "PET_NPROC_PER_NODE");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "env (NCCL and torchrun variables)";
    }

    @Override
    public int maxConfidence() {
        return 35;
    }

    @Override
    public int confidence(Head head) {
        if (head.jsonDocument()) {
            return NONE;
        }
        List<String> c = content(head);
        int vars = 0;
        boolean ours = false;
        for (String l : c) {
            Matcher m = VAR.matcher(l);
            if (m.matches()) {
                vars++;
                String n = m.group(1);
                ours |= n.startsWith("NCCL_") || TORCHRUN.contains(n) || n.startsWith("TORCHELASTIC_");
            }
        }
        return ours && vars >= 2 && vars * 10 >= c.size() * 9 ? maxConfidence() : NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        return (line, at) -> {
            Matcher m = VAR.matcher(line);
            if (m.matches()) {
                String v = m.group(2);
                if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
                    v = v.substring(1, v.length() - 1);
                }
                if (m.group(1).equals("HOSTNAME")) {
                    draft.named(v.strip());
                }
                draft.env(new EnvVar(m.group(1), v.length() > 4096 ? v.substring(0, 4096) : v, at));
            }
        };
    }
}
