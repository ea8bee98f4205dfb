package org.fabricscope.model.forensics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank's PyTorch flight recorder dump (the pickle written on a watchdog timeout, or the JSON of
 * {@code _dump_nccl_trace_json}): its global rank (from the file name's trailing digits, as PyTorch's
 * {@code fr_trace} reads it; -1 when the name has none), the dump format version, the NCCL version,
 * the process groups it belongs to ({@code pg_config}, by name), the per-group progress
 * ({@code pg_status}, by {@code pg_id}) and the entries, oldest first.
 */
public record FlightRecorderDump(String source, int rank, String version, String commLibVersion,
                                 Map<String, FrProcessGroup> processGroups, Map<String, FrPgStatus> pgStatus,
                                 List<FrEntry> entries) {
    public FlightRecorderDump {
        source = source == null ? "" : source;
        version = version == null ? "" : version;
        commLibVersion = commLibVersion == null ? "" : commLibVersion;
        processGroups = Collections.unmodifiableMap(new LinkedHashMap<>(processGroups));
        pgStatus = Collections.unmodifiableMap(new LinkedHashMap<>(pgStatus));
        entries = FrEntries.copyOf(entries);
    }

    /** The entries as columns (what {@link #entries} always is): field accessors without making records. */
    public FrEntries entryTable() {
        return (FrEntries) entries;
    }
}
