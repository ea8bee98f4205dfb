package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.JsonTrees;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The {@code -J} JSON form of nccl-tests output: one run, its devices, results, out-of-bounds count and
 * errors. Numbers are range-checked ({@link JsonNumbers}); a device or result with one out of range is
 * skipped with a diagnostic naming its line. The file's rows and devices count against
 * {@link NcclTestsReader#MAX_FILE_RECORDS}, the results against {@link NcclTestsReader#MAX_ROWS}.
 */
final class NcclTestsJson {
    private static final long INT = Integer.MAX_VALUE;
    private final NcclTestsReader reader;

    NcclTestsJson(NcclTestsReader reader) {
        this.reader = reader;
    }

    void read(InputStream in, String source, FabricModelBuilder builder) throws IOException {
        byte[] bytes = in.readNBytes(RasStatusReader.MAX_BYTES + 1);
        if (bytes.length > RasStatusReader.MAX_BYTES) {
            builder.diagnostic(Diagnostic.error(source, 0, "nccl-tests JSON larger than " + RasStatusReader.MAX_BYTES
                    + " bytes; not read"));
            return;
        }
        JsonNode root;
        String text = new String(bytes, StandardCharsets.UTF_8);
        try {
            try (com.fasterxml.jackson.core.JsonParser p = Jsons.FACTORY.createParser(text)) {
                root = JsonTrees.readNext(p);
            }
        } catch (IOException e) {
            builder.diagnostic(Diagnostic.error(source, 0, "nccl-tests JSON not read: " + Jsons.brief(e)));
            return;
        }
        String test = "nccl-tests";
        JsonNode args = root.path("args");
        if (args.isArray() && args.size() > 0) {
            String bin = args.get(0).asText("");
            test = bin.substring(Math.max(bin.lastIndexOf('/'), bin.lastIndexOf('\\')) + 1);
        }
        JsonNode cfg = root.path("config");
        List<NcclTestDevice> devices = new ArrayList<>();
        reader.kept = 0;
        reader.fileCut = false;
        for (JsonNode dv : cfg.path("devices")) {
            try {
                NcclTestDevice dev = new NcclTestDevice(JsonNumbers.intField(dv, "rank", -1, -1, INT),
                        JsonNumbers.intField(dv, "group", 0, 0, INT), JsonNumbers.intField(dv, "pid", -1, -1, INT),
                        dv.path("hostname").asText(""), JsonNumbers.intField(dv, "device", -1, -1, INT),
                        dv.path("device_hex").asText(""), dv.path("device_info").asText(""));
                if (!reader.keep(source, 0, builder)) {
                    break;
                }
                devices.add(dev);
            } catch (Numbers.OutOfRange e) {
                builder.diagnostic(Diagnostic.warning(source, JsonNumbers.lineOf(text, e.text()), e.getMessage()
                        + "; nccl-tests device skipped"));
            }
        }
        List<NcclTestRow> rows = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            if (rows.size() >= NcclTestsReader.MAX_ROWS) {
                builder.diagnostic(Diagnostic.warning(source, 0, "more than " + NcclTestsReader.MAX_ROWS
                        + " results in the nccl-tests JSON (NcclTestsReader.NcclTestsReader.MAX_ROWS); kept the first " + NcclTestsReader.MAX_ROWS));
                break;
            }
            try {
                NcclTestRow row = jsonRow(r, source);
                if (!reader.keep(source, 0, builder)) {
                    break;
                }
                rows.add(row);
            } catch (Numbers.OutOfRange e) {
                builder.diagnostic(Diagnostic.warning(source, JsonNumbers.lineOf(text, e.text()), e.getMessage()
                        + "; nccl-tests result skipped"));
            }
        }
        JsonNode oob = root.path("out_of_bounds");
        long oobCount = -1;
        try {
            oobCount = JsonNumbers.longField(oob, "count", -1, -1, Long.MAX_VALUE);
        } catch (Numbers.OutOfRange e) {
            builder.diagnostic(Diagnostic.warning(source, JsonNumbers.lineOf(text, e.text()), e.getMessage()
                    + "; out-of-bounds count not used"));
        }
        boolean oobOk = !oob.path("okay").asText("true").equalsIgnoreCase("false") && oobCount <= 0;
        double avg = root.path("average_bus_bandwidth").has("bandwidth")
                ? root.path("average_bus_bandwidth").path("bandwidth").asDouble(Double.NaN) : Double.NaN;
        List<Evidence> errors = new ArrayList<>();
        for (JsonNode e : root.path("errors")) {
            if (!e.asText("").isBlank() && errors.size() < 100) {
                errors.add(Evidence.at(source, 0, e.asText("")));
            }
        }
        String nccl = root.has("nccl_version") ? NcclTestsReader.ncclVersion(root.path("nccl_version").asText("")) : "";
        int threads = -1;
        int gpus = -1;
        try {
            threads = JsonNumbers.intField(cfg, "nthreads", -1, -1, INT);
            gpus = JsonNumbers.intField(cfg, "ngpus", -1, -1, INT);
        } catch (Numbers.OutOfRange e) {
            builder.diagnostic(Diagnostic.warning(source, JsonNumbers.lineOf(text, e.text()), e.getMessage()
                    + "; thread and GPU counts not used"));
        }
        builder.forensics().ncclTest(new NcclTestRun(source, 1, test, "", nccl, threads, gpus, devices, rows, oobCount,
                oobOk, avg, errors, oobOk ? null : Evidence.at(source, 0, "out_of_bounds: " + oob)));
    }

    private static NcclTestRow jsonRow(JsonNode r, String source) {
        NcclTestRow.Result oop = jsonResult(r.path("out_of_place"));
        NcclTestRow.Result ip = r.has("in_place") ? jsonResult(r.path("in_place")) : null;
        long size = JsonNumbers.longField(r, "size", -1, -1, Long.MAX_VALUE);
        return new NcclTestRow(size, JsonNumbers.longField(r, "count", -1, -1, Long.MAX_VALUE), r.path("type").asText(""),
                r.path("redop").asText(""), JsonNumbers.intField(r, "root", -1, -1, INT), oop, ip,
                r.path("timestamp").asText(""), Evidence.at(source, 0, "size " + size + " "
                        + r.path("type").asText("") + ": out-of-place #wrong " + oop.wrong()
                        + (ip == null ? "" : ", in-place #wrong " + ip.wrong())));
    }

    private static NcclTestRow.Result jsonResult(JsonNode n) {
        JsonNode w = n.path("nwrong");
        long wrong = w.isNumber() ? JsonNumbers.value(w, "nwrong", -1, -1, Long.MAX_VALUE)
                : w.asText("").equalsIgnoreCase("N/A") ? -1 : NcclTestsReader.parseLong(w.asText(""), -1);
        return new NcclTestRow.Result(n.path("time").asDouble(Double.NaN), n.path("alg_bw").asDouble(Double.NaN),
                n.path("bus_bw").asDouble(Double.NaN), wrong);
    }
}
