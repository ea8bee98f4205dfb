package org.fabricscope.importers.nccl;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code nvidia-smi topo -m} / {@code -mp}: the {@code GPU0 ... CPU Affinity} header, with or without colour codes. */
public final class NvidiaSmiTopoReader implements FormatReader {
    public static final String ID = "nvidia-smi-topo";
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final Pattern SMI_HEADER = Pattern.compile("^\\s*GPU0(?:\\s+\\S+)*\\s+CPU Affinity\\b.*");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "nvidia-smi topo -m";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.HOSTS;
    }

    @Override
    public int maxConfidence() {
        return 80;
    }

    @Override
    public int confidence(Head head) {
        if (head.jsonDocument()) {
            return NONE;
        }
        for (String raw : head.lines()) {
            if (raw.contains("CPU Affinity") && SMI_HEADER.matcher(ANSI.matcher(raw).replaceAll("")).matches()) {
                return maxConfidence(); // the tool's own header; below NCCL logs, which often print this matrix too
            }
        }
        return NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new NvidiaSmiTopoImporter().read(in, ctx);
    }
}
