package org.fabricscope.importers.nccl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.host.HostTopologyBuilder;
import org.fabricscope.model.host.NvidiaSmiMatrix;
import org.fabricscope.model.host.PathType;

/**
 * Reads {@code nvidia-smi topo -m} (and {@code -mp}) output: one or more matrices whose header is
 * {@code GPU0 GPU1 ... NIC0 ... CPU Affinity NUMA Affinity GPU NUMA ID}, rows of labels
 * ({@code X}, {@code NV18}, {@code PIX}, {@code PXB}, {@code PHB}, {@code NODE}, {@code SYS}), and the
 * {@code NIC Legend} ({@code NIC0: mlx5_0}). Terminal underline escapes ({@code ESC[4m}) around the
 * header are dropped. The lighter source of GPU/NIC affinity when no NCCL topology file is at hand.
 */
public final class NvidiaSmiTopoImporter extends LineImporter {
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final Pattern DEVICE = Pattern.compile("(?:GPU|NIC)\\d+|mlx\\d+_\\d+|mlx5_\\w+");
    private static final Pattern LEGEND = Pattern.compile("^\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*$");

    private HostTopologyBuilder host;
    private final Map<String, String> legend = new LinkedHashMap<>();
    private final List<Pending> matrices = new ArrayList<>();
    private Pending current;

    private static final class Pending {
        final List<String> devices;
        final Evidence evidence;
        final List<List<String>> rows = new ArrayList<>();
        final Map<String, String> cpu = new LinkedHashMap<>();
        final Map<String, String> numa = new LinkedHashMap<>();

        Pending(List<String> devices, Evidence evidence) {
            this.devices = devices;
            this.evidence = evidence;
        }
    }

    public NvidiaSmiTopoImporter() {
    }

    @Override
    protected void begin() {
        host = new HostTopologyBuilder(source);
        legend.clear();
        matrices.clear();
        current = null;
    }

    /**
     * One line. Lines end in LF, CRLF or CR (TextLines splits them; a CR left inside a line, and
     * the BOM or terminal escapes around the header, are dropped here too). A device number or an
     * NVLink count past 32 bits skips its header or row with a diagnostic.
     */
    @Override
    protected void line(String raw) {
        for (String part : raw.replace("\uFEFF", "").split("\r")) {
            try {
                record(part);
            } catch (Numbers.OutOfRange e) {
                bad(e.getMessage() + "; row skipped");
            }
        }
    }

    private void record(String raw) {
        String l = ANSI.matcher(raw).replaceAll("");
        if (l.contains("CPU Affinity")) {
            String[] tokens = l.substring(0, l.indexOf("CPU Affinity")).strip().split("\\s+");
            List<String> devices = new ArrayList<>();
            for (String t : tokens) {
                if (DEVICE.matcher(t).matches()) {
                    devices.add(t);
                }
            }
            try {
                for (String d : devices) {
                    if (d.startsWith("GPU") || d.startsWith("NIC")) {
                        Numbers.nonNegativeInt(d.substring(3), d.substring(0, 3) + " number");
                    }
                }
            } catch (Numbers.OutOfRange e) {
                bad(e.getMessage() + "; matrix skipped");
                current = null;
                return;
            }
            if (devices.isEmpty()) {
                bad("matrix header without device columns (GPU0 ...)");
                current = null;
                return;
            }
            current = new Pending(devices, evidence(l));
            matrices.add(current);
            return;
        }
        Matcher lm = LEGEND.matcher(l);
        if (lm.matches()) {
            legend.put(lm.group(1), lm.group(2));
            return;
        }
        if (current == null) {
            return;
        }
        String s = l.strip();
        if (s.isEmpty() || s.startsWith("Legend")) {
            current = null;
            return;
        }
        String[] tok = s.split("\\s+");
        if (!current.devices.contains(tok[0])) {
            return;
        }
        int n = current.devices.size();
        if (tok.length < n + 1) {
            bad("row " + tok[0] + " has " + (tok.length - 1) + " cells for " + n + " device columns");
            return;
        }
        List<String> cells = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            PathType type = PathType.parse(tok[i]);
            if (type == null) {
                bad("\"" + tok[i] + "\" is not a topo -m label (X, NV#, PIX, PXB, PHB, NODE, SYS)");
            } else if (type == PathType.NV) {
                Numbers.nonNegativeInt(tok[i].substring(2), "NVLink count"); // NV<n>: n links
            }
            cells.add(tok[i]);
        }
        int idx = current.devices.indexOf(tok[0]);
        while (current.rows.size() <= idx) {
            current.rows.add(null);
        }
        current.rows.set(idx, cells);
        if (tok.length > n + 1) {
            current.cpu.put(tok[0], tok[n + 1]);
        }
        if (tok.length > n + 2) {
            current.numa.put(tok[0], tok[n + 2]);
        }
    }

    @Override
    protected void end() {
        for (Pending p : matrices) {
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < p.devices.size(); i++) {
                List<String> r = i < p.rows.size() ? p.rows.get(i) : null;
                rows.add(r != null ? r : java.util.Collections.nCopies(p.devices.size(), "?"));
            }
            host.matrix(new NvidiaSmiMatrix(p.devices, rows, p.cpu, p.numa, legend, p.evidence));
        }
        if (matrices.isEmpty()) {
            builder.diagnostic(org.fabricscope.model.core.Diagnostic.warning(source, 0,
                    "no nvidia-smi topo -m matrix found (a header line with GPU0 ... CPU Affinity)"));
        } else {
            builder.hostTopology(host);
        }
    }
}
