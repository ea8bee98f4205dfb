package org.fabricscope.importers;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The input formats FabricScope reads, told apart by content, never by file name: each has
 * lines no other tool prints.
 */
public enum Format {
    IBNETDISCOVER("ibnetdiscover topology"),
    IBNETDISCOVER_PORTS("ibnetdiscover -p port list"),
    IBNETDISCOVER_LIST("ibnetdiscover -l node list"),
    IBLINKINFO("iblinkinfo"),
    PERFQUERY("perfquery"),
    IBQUERYERRORS("ibqueryerrors"),
    NODE_NAME_MAP("node-name-map"),
    THRESHOLDS("error thresholds"),
    IBSIM_NET("ibsim net file (simulator input)"),
    NCCL_TOPOLOGY("NCCL topology XML"),
    NCCL_GRAPH("NCCL graph XML"),
    HWLOC_XML("hwloc topology XML (not NCCL's format)"),
    NVIDIA_SMI_TOPO("nvidia-smi topo -m matrix"),
    K8S_OBJECTS("Kubernetes objects (kubectl -o json|yaml, job manifests)"),
    K8S_ALLOCATABLE("Kubernetes node allocatable map (kubectl jsonpath)"),
    K8S_DESCRIBE_POD("kubectl describe pod"),
    K8S_EVENTS_TABLE("kubectl get events table"),
    FLIGHT_RECORDER(org.fabricscope.importers.forensics.FlightRecorderReader.LABEL),
    NCCL_RAS(org.fabricscope.importers.forensics.RasStatusReader.LABEL),
    NCCL_TESTS(org.fabricscope.importers.forensics.NcclTestsReader.LABEL),
    NCCL_INSPECTOR(org.fabricscope.importers.forensics.NcclInspectorReader.LABEL),
    NCCL_LOG("NCCL / PyTorch log"),
    UNKNOWN("unknown");

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
    private static final Pattern THRESHOLD = Pattern.compile("^#?\\s*(?:SymbolErrorCounter|LinkErrorRecoveryCounter|PortXmitWait)=\\d+\\s*$");

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final Pattern SMI_HEADER = Pattern.compile("^\\s*GPU0(?:\\s+\\S+)*\\s+CPU Affinity\\b.*");
    private static final Pattern XML_COMMENT = Pattern.compile("(?s)<!--.*?(?:-->|$)");
    private static final Pattern XML_ROOT = Pattern.compile("<([A-Za-z_][\\w.:-]*)");
    private static final Pattern XML_DOCTYPE = Pattern.compile("<!DOCTYPE\\s+([A-Za-z_][\\w.:-]*)");

    private static final Pattern K8S_KINDS = Pattern.compile(
            "(?:Node|Pod|Event|List|NodeList|PodList|EventList|PyTorchJob|MPIJob|TFJob|XGBoostJob|PaddleJob)");
    private static final Pattern K8S_JSON_KIND = Pattern.compile("\"kind\"\\s*:\\s*\"" + K8S_KINDS.pattern() + "\"");
    private static final Pattern K8S_YAML_KIND = Pattern.compile(
            "^\\s*(?:-\\s+)?kind:\\s*[\"']?" + K8S_KINDS.pattern() + "[\"']?\\s*$");
    private static final Pattern K8S_YAML_API = Pattern.compile("^\\s*(?:-\\s+)?apiVersion:\\s*\\S+\\s*$");
    private static final Pattern ALLOCATABLE_KEY = Pattern.compile(
            "[{,]\\s*\"(?:cpu|memory|pods|ephemeral-storage|nvidia\\.com/gpu|aliyun/erdma)\"\\s*:\\s*\"");
    private static final Pattern NODE_NAME_LINE = Pattern.compile("^(?:node/)?[A-Za-z0-9][A-Za-z0-9._-]*:?$");
    private static final Pattern EVENTS_HEADER = Pattern.compile(
            "^(?:NAMESPACE\\s+)?LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+.*MESSAGE.*$");
    private static final Pattern ALLOCATABLE_GO = Pattern.compile("^map\\[.*\\b(?:cpu|memory|pods):\\S+.*\\]$");

    private final String label;

    Format(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Decides from the first lines of a file; most specific markers win. */
    public static Format detect(List<String> head) {
        Format xml = detectXml(head);
        if (xml != null) {
            return xml;
        }
        Format k8s = detectKubernetes(head);
        if (k8s != null) {
            return k8s;
        }
        if (org.fabricscope.importers.forensics.FlightRecorderReader.looksLike(head)) {
            return FLIGHT_RECORDER;
        }
        if (org.fabricscope.importers.forensics.RasStatusReader.looksLike(head)) {
            return NCCL_RAS;
        }
        if (org.fabricscope.importers.forensics.NcclTestsReader.looksLike(head)) {
            return NCCL_TESTS;
        }
        if (org.fabricscope.importers.forensics.NcclInspectorReader.looksLike(head)) {
            return NCCL_INSPECTOR;
        }
        if (isJsonDocument(head)) {
            return UNKNOWN; // JSON that is no Kubernetes object (a report, FabricScope's own --json): never a log
        }
        if (org.fabricscope.importers.logs.NcclLogParser.looksLikeLog(head)) {
            return NCCL_LOG;
        }
        for (String raw : head) {
            if (raw.contains("CPU Affinity") && SMI_HEADER.matcher(ANSI.matcher(raw).replaceAll("")).matches()) {
                return NVIDIA_SMI_TOPO;
            }
        }
        int ibnet = 0;
        int ports = 0;
        int list = 0;
        int linkinfo = 0;
        int perf = 0;
        int perfFields = 0;
        int qerr = 0;
        int map = 0;
        int thresholds = 0;
        int ibsim = 0;
        int ibnetPorts = 0;
        int other = 0;
        for (String raw : head) {
            String l = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
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
        if (ibsim > 0 && ibnetPorts == 0) { // a real dump with one garbled node id still has hex port lines
            return IBSIM_NET;
        }
        // Prose that quotes a few tool lines (a README, a ticket) is not a dump: the tool's own
        // lines must outnumber the rest.
        int recognised = ibnet + ibnetPorts + ports + list + linkinfo + perf + perfFields + qerr;
        if (recognised > 0 && recognised < other) {
            return UNKNOWN;
        }
        if (perf > 0 && perfFields > 0) {
            return PERFQUERY;
        }
        if (qerr > 0) {
            return IBQUERYERRORS;
        }
        if (ibnet > 0) {
            return IBNETDISCOVER;
        }
        if (linkinfo > 0) {
            return IBLINKINFO;
        }
        if (list > 0) {
            return IBNETDISCOVER_LIST;
        }
        if (ports > 0) {
            return IBNETDISCOVER_PORTS;
        }
        if (thresholds > 0) {
            return THRESHOLDS;
        }
        if (map > 0 && map >= other) {
            return NODE_NAME_MAP;
        }
        return UNKNOWN;
    }

    /**
     * Kubernetes input: JSON or YAML objects whose {@code kind} is one FabricScope reads (with an
     * {@code apiVersion}), an allocatable map (a JSON object with resource-name keys and string
     * values, or Go's {@code map[...]}), or {@code kubectl describe pod} text ({@code Name:} first,
     * then {@code Namespace:} and a pod section). Null when none of these.
     */
    private static final Pattern JSON_ARRAY_START = Pattern.compile("^\\[\\s*(?:[{\\[\"\\]]|$).*");

    /** Whether the head starts a JSON object or array ({@code [E1121 ...]} and {@code [rank0]:} log prefixes are not). */
    static boolean isJsonDocument(List<String> head) {
        for (String l : head) {
            String t = l.replace("\uFEFF", "").strip();
            if (!t.isEmpty()) {
                return t.startsWith("{") || JSON_ARRAY_START.matcher(t).matches();
            }
        }
        return false;
    }

    public static Format detectKubernetes(List<String> head) {
        String first = null;
        for (String l : head) {
            String t = l.replace("\uFEFF", "").strip();
            if (!t.isEmpty()) {
                first = t;
                break;
            }
        }
        if (first == null) {
            return null;
        }
        if (first.startsWith("{") || first.startsWith("[")) {
            String joined = String.join("\n", head);
            if (K8S_JSON_KIND.matcher(joined).find() && joined.contains("\"apiVersion\"")) {
                return K8S_OBJECTS;
            }
            if (!joined.contains("\"kind\"") && ALLOCATABLE_KEY.matcher(joined).find()) {
                return K8S_ALLOCATABLE;
            }
            return null;
        }
        if (ALLOCATABLE_GO.matcher(first).matches()) {
            return K8S_ALLOCATABLE;
        }
        if (NODE_NAME_LINE.matcher(first).matches() || first.indexOf('{') > 0) {
            // a shell loop's output: a node name line (or "name {...}") before each one-liner
            int maps = 0;
            for (String l : head) {
                String t = l.strip();
                if (t.isEmpty() || NODE_NAME_LINE.matcher(t).matches()) {
                    continue;
                }
                int brace = t.indexOf('{');
                if (brace >= 0 && t.endsWith("}") && !t.contains("\"kind\"") && ALLOCATABLE_KEY.matcher(t.substring(brace)).find()
                        && (brace == 0 || NODE_NAME_LINE.matcher(t.substring(0, brace).strip()).matches())) {
                    maps++;
                } else {
                    maps = -1;
                    break;
                }
            }
            if (maps > 0) {
                return K8S_ALLOCATABLE;
            }
        }
        if (EVENTS_HEADER.matcher(first).matches()) {
            return K8S_EVENTS_TABLE;
        }
        if (first.startsWith("Name:")) {
            boolean ns = false;
            boolean podSection = false;
            for (String l : head) {
                ns |= l.startsWith("Namespace:");
                podSection |= l.startsWith("Events:") || l.startsWith("Containers:") || l.startsWith("IP:");
            }
            return ns && podSection ? K8S_DESCRIBE_POD : null;
        }
        boolean kind = false;
        boolean api = false;
        for (String l : head) {
            kind |= K8S_YAML_KIND.matcher(l).matches();
            api |= K8S_YAML_API.matcher(l).matches();
        }
        return kind && api ? K8S_OBJECTS : null;
    }

    /**
     * XML by its root element: {@code <system>} NCCL topology, {@code <graphs>} NCCL graph,
     * {@code <topology>} hwloc. XML with a DOCTYPE or ENTITY declaration and another root goes to the
     * NCCL reader too, which refuses it with a diagnostic instead of skipping it silently.
     */
    static Format detectXml(List<String> head) {
        StringBuilder sb = new StringBuilder();
        for (String l : head) {
            sb.append(l).append('\n');
        }
        String text = sb.toString();
        int i = 0;
        while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == '\uFEFF')) {
            i++;
        }
        if (i >= text.length() || text.charAt(i) != '<') {
            return null;
        }
        String body = XML_COMMENT.matcher(text.substring(i)).replaceAll(" ");
        boolean dtd = body.contains("<!DOCTYPE") || body.contains("<!ENTITY");
        String root = null;
        java.util.regex.Matcher m = XML_ROOT.matcher(body);
        if (m.find()) {
            root = m.group(1);
        } else {
            java.util.regex.Matcher d = XML_DOCTYPE.matcher(body);
            if (d.find()) {
                root = d.group(1);
            }
        }
        if ("system".equals(root)) {
            return NCCL_TOPOLOGY;
        }
        if ("graphs".equals(root)) {
            return NCCL_GRAPH;
        }
        if ("topology".equals(root)) {
            return HWLOC_XML;
        }
        return dtd ? NCCL_TOPOLOGY : null;
    }
}
