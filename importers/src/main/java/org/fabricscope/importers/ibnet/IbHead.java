package org.fabricscope.importers.ibnet;

import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;

/**
 * One scan of a head for the infiniband-diags readers: each line is given to the first tool whose
 * line shape it has (the order below settles lines two shapes would match), and counted. Each
 * reader of the family decides from these counts; computed once per head.
 */
final class IbHead {
    private static final Pattern IBNET_NODE = Pattern.compile(
            "^(?:[<>] )?(?:(?:Switch|Ca|Rt)\\s*\\d+\\s+\"[SHR?]-[0-9a-fA-F]+\"|(?:switchguid|caguid|rtguid|rtrguid|sysimgguid|vendid)=0x[0-9a-fA-F]+).*");
    /** ibsim's net files look like ibnetdiscover output but name nodes symbolically: "S-leaf-01". */
    private static final Pattern IBSIM_NODE = Pattern.compile(
            "^(?:Switch|Ca|Rt|Hca)\\s*\\d+\\s+\"[SHR]-(?![0-9a-fA-F]+\")[^\"]+\".*");
    private static final Pattern IBNET_PORT_LINE = Pattern.compile(
            "^(?:[<>] )?\\[\\d+\\](?:\\([0-9a-fA-F]+\\))?.*\"[SHR?]-[0-9a-fA-F]+\"\\[\\d+\\].*");
    private static final Pattern IBNET_PORTS = Pattern.compile(
            "^\\s*(?:SW|CA|RT)\\s+\\d+\\s+\\d+\\s+0x[0-9a-fA-F]{16}\\s+\\S+\\s+\\S+.*");
    private static final Pattern IBNET_LIST = Pattern.compile(
            "^(?:Switch|Ca|Router)\\s*:\\s+0x[0-9a-fA-F]+\\s+ports\\s+\\d+\\s+devid.*");
    private static final Pattern LINKINFO = Pattern.compile(
            "^(?:Switch|CA|Router):?\\s+0x[0-9a-fA-F]+\\s.*|^\\s*(?:0x[0-9a-fA-F]+\\s+)?(?:\"[^\"]*\"\\s+)?\\d+\\s+\\d+\\[[^\\]]*\\]\\s*==\\(.*\\)==>.*");
    private static final Pattern PERFQUERY_HDR = Pattern.compile("^# Port (?:extended )?counters: .*");
    private static final Pattern PERF_FIELD = Pattern.compile("^[A-Za-z0-9]+:\\.+\\S*$");
    private static final Pattern QUERYERRORS = Pattern.compile(
            "^(?:Errors for |\\s+GUID 0x[0-9a-fA-F]+ port (?:\\d+|ALL):|## Summary: \\d+ nodes checked).*");
    private static final Pattern NAME_MAP = Pattern.compile("^\\s*(?:0x)?[0-9a-fA-F]{1,16}\\s+\"[^\"]*\"\\s*(?:#.*)?$");
    private static final Pattern THRESHOLD = Pattern.compile(
            "^#?\\s*(?:SymbolErrorCounter|LinkErrorRecoveryCounter|PortXmitWait)=\\d+\\s*$");

    int ibnet;
    int ports;
    int list;
    int linkinfo;
    int perf;
    int perfFields;
    int qerr;
    int map;
    int thresholds;
    int ibsim;
    int ibnetPorts;
    int other;

    static IbHead of(Head head) {
        return head.derived(IbHead.class, IbHead::new);
    }

    private IbHead(Head head) {
        if (head.jsonDocument()) {
            return; // a JSON document quoting tool lines is not a dump
        }
        for (String l : head.lines()) {
            if (l.isBlank()) {
                continue;
            }
            if (IBSIM_NODE.matcher(l).matches()) {
                ibsim++;
            } else if (PERFQUERY_HDR.matcher(l).matches()) {
                perf++;
            } else if (QUERYERRORS.matcher(l).matches()) {
                qerr++;
            } else if (IBNET_NODE.matcher(l).matches()) {
                ibnet++;
            } else if (IBNET_PORT_LINE.matcher(l).matches()) {
                ibnetPorts++;
            } else if (IBNET_LIST.matcher(l).matches()) {
                list++;
            } else if (IBNET_PORTS.matcher(l).matches()) {
                ports++;
            } else if (LINKINFO.matcher(l).matches()) {
                linkinfo++;
            } else if (PERF_FIELD.matcher(l).matches()) {
                perfFields++;
            } else if (THRESHOLD.matcher(l).matches()) {
                thresholds++;
            } else if (NAME_MAP.matcher(l).matches()) {
                map++;
            } else if (!l.startsWith("#")) {
                other++;
            }
        }
    }

    /** ibsim node lines (symbolic ids) and no hex port lines: a real dump with one garbled id still has those. */
    boolean ibsimNet() {
        return ibsim > 0 && ibnetPorts == 0;
    }

    /**
     * Prose that quotes a few tool lines (a README, a ticket) is not a dump: the tools' own lines
     * must outnumber the rest. True when they do not; then no reader of the family claims the file.
     */
    boolean prose() {
        int recognised = ibnet + ibnetPorts + ports + list + linkinfo + perf + perfFields + qerr;
        return recognised > 0 && recognised < other;
    }
}
