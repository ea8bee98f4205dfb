package org.fabricscope.importers.k8s;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.LineImporter;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.k8s.JobIdentity;
import org.fabricscope.model.k8s.ContainerStatus;
import org.fabricscope.model.k8s.K8sEvent;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.k8s.PodSpecSummary;
import org.fabricscope.model.k8s.Quantity;
import org.fabricscope.model.k8s.ShmVolume;
import org.fabricscope.model.k8s.Toleration;

/**
 * Reads {@code kubectl describe pod} text: the header (Name, Namespace, Node, Status, Labels,
 * Annotations), each container's Requests, Limits, Environment and Mounts, the Volumes, and the
 * Events table, whose columns are found from its header line (kubectl aligns them with a
 * tabwriter; Age may read {@code 67s (x3 over 5m)}). Several pods in one file (describe with a
 * selector) are separated by their {@code Name:} lines.
 */
public final class DescribePodImporter extends LineImporter {
    private static final Pattern FIELD = Pattern.compile("^([A-Za-z][A-Za-z -]*):(?:\\s+(.*))?$");
    private static final Pattern SUB = Pattern.compile("^(\\s+)([^:]+?):(?:\\s+(.*))?$");
    private static final Pattern REPEAT = Pattern.compile("\\(x(\\d+) over");
    /** {@code 67s (x3 over 5m)}: the part after the age. */
    private static final Pattern REPEAT_TAIL = Pattern.compile("\\s*\\(x\\d+ over[^)]*\\)\\s*$");

    private Pod pod;
    private String top;
    private String container;
    private String containerField;
    private String volume;
    private int[] eventCols;

    private static final class Pod {
        String name;
        String namespace = "default";
        String node;
        String phase;
        int line;
        final Map<String, String> labels = new LinkedHashMap<>();
        final Map<String, String> annotations = new LinkedHashMap<>();
        final Map<String, Quantity> requests = new TreeMap<>();
        final Map<String, Quantity> limits = new TreeMap<>();
        final Map<String, String> env = new LinkedHashMap<>();
        final Map<String, String> nodeSelector = new LinkedHashMap<>();
        String shmVolume;
        final Map<String, Map<String, String>> volumes = new LinkedHashMap<>();
        final List<String[]> events = new ArrayList<>();
        final List<Integer> eventLines = new ArrayList<>();
        final Map<String, Evidence> cites = new LinkedHashMap<>();
        final List<Toleration> tolerations = new ArrayList<>();
        final Map<String, Status> statuses = new LinkedHashMap<>();
    }

    /** A container's State / Last State / Restart Count lines, as describe prints them. */
    private static final class Status {
        int restarts;
        String state;
        String reason;
        Integer exit;
        String lastReason;
        Integer lastExit;
    }

    private Status status() {
        return pod.statuses.computeIfAbsent(container, k -> new Status());
    }

    private static Integer exitCode(String v) {
        return v != null && v.strip().matches("-?\\d{1,9}") ? Integer.valueOf(v.strip()) : null;
    }

    /** {@code key[=value][:effect] [op=Exists] [for 300s]}, as describe prints a toleration. */
    private static final Pattern TOLERATION = Pattern.compile(
            "^([^=:\\s]*)(?:=([^:\\s]*))?(?::(\\S+))?(?:\\s+op=(\\S+))?.*$");

    private void toleration(String v) {
        if (v.isEmpty() || v.equals("<none>")) {
            return;
        }
        Matcher m = TOLERATION.matcher(v);
        if (m.matches()) {
            pod.tolerations.add(new Toleration(m.group(1), m.group(4), m.group(2), m.group(3)));
        }
    }

    @Override
    protected void begin() {
        pod = null;
    }

    @Override
    protected void line(String raw) {
        String l = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (l.isBlank()) {
            return;
        }
        if (!Character.isWhitespace(l.charAt(0))) {
            Matcher f = FIELD.matcher(l);
            if (!f.matches()) {
                bad("expected a describe field \"Name:  value\"; got: " + (l.length() > 120 ? l.substring(0, 117) + "..." : l));
                return;
            }
            String key = f.group(1).strip();
            String value = f.group(2) == null ? "" : f.group(2).strip();
            if (key.equals("Name")) {
                flush();
                pod = new Pod();
                pod.name = value;
                pod.line = lineNumber;
            }
            if (pod == null) {
                bad("expected \"Name:\" first");
                return;
            }
            top = key;
            container = null;
            containerField = null;
            volume = null;
            switch (key) {
                case "Namespace" -> pod.namespace = value;
                case "Node" -> pod.node = value.equals("<none>") || value.isEmpty() ? null : value.replaceFirst("/.*$", "");
                case "Status" -> pod.phase = value;
                case "Labels" -> keyValue(value, '=', pod.labels);
                case "Annotations" -> keyValue(value, ':', pod.annotations);
                case "Node-Selectors" -> keyValue(value, '=', pod.nodeSelector);
                case "Tolerations" -> toleration(value);
                case "Events" -> eventCols = null;
                default -> { }
            }
            return;
        }
        if (pod == null || top == null) {
            return;
        }
        switch (top) {
            case "Labels" -> keyValue(l.strip(), '=', pod.labels);
            case "Annotations" -> keyValue(l.strip(), ':', pod.annotations);
            case "Node-Selectors" -> keyValue(l.strip(), '=', pod.nodeSelector);
            case "Tolerations" -> toleration(l.strip());
            case "Containers" -> containerLine(l);
            case "Volumes" -> volumeLine(l);
            case "Events" -> eventLine(l);
            default -> { }
        }
    }

    private static int indent(String l) {
        int i = 0;
        while (i < l.length() && (l.charAt(i) == ' ' || l.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static void keyValue(String v, char sep, Map<String, String> into) {
        if (v.isEmpty() || v.equals("<none>")) {
            return;
        }
        int i = v.indexOf(sep);
        if (i > 0) {
            into.put(v.substring(0, i).strip(), v.substring(i + 1).strip());
        }
    }

    private void containerLine(String l) {
        int ind = indent(l);
        Matcher m = SUB.matcher(l);
        if (ind <= 2) {
            if (m.matches()) {
                container = m.group(2).strip();
                containerField = null;
            }
            return;
        }
        if (container == null) {
            return;
        }
        if (ind <= 4) {
            containerField = m.matches() ? m.group(2).strip() : null;
            String value = m.matches() && m.group(3) != null ? m.group(3).strip() : "";
            switch (containerField == null ? "" : containerField) {
                case "State" -> status().state = value.toLowerCase(java.util.Locale.ROOT);
                case "Restart Count" -> {
                    if (value.matches("\\d{1,9}")) {
                        status().restarts = Integer.parseInt(value);
                    }
                }
                default -> { }
            }
            if ("Environment".equals(containerField) && m.group(3) != null && m.group(3).strip().equals("<none>")) {
                containerField = null;
            }
            return;
        }
        if (containerField == null) {
            return;
        }
        String s = l.strip();
        if ((containerField.equals("State") || containerField.equals("Last State")) && m.matches()) {
            boolean last = containerField.equals("Last State");
            String v = m.group(3) == null ? "" : m.group(3).strip();
            switch (m.group(2).strip()) {
                case "Reason" -> {
                    if (last) {
                        status().lastReason = v;
                    } else {
                        status().reason = v;
                    }
                }
                case "Exit Code" -> {
                    if (last) {
                        status().lastExit = exitCode(v);
                    } else {
                        status().exit = exitCode(v);
                    }
                }
                default -> { }
            }
            return;
        }
        switch (containerField) {
            case "Requests", "Limits" -> {
                if (m.matches() && m.group(3) != null) {
                    Quantity q = Quantity.tryParse(m.group(3).strip());
                    if (q == null) {
                        bad(containerField + " " + m.group(2).strip() + ": expected a quantity; got " + m.group(3).strip());
                    } else {
                        (containerField.equals("Requests") ? pod.requests : pod.limits)
                                .merge(m.group(2).strip(), q, Quantity::plus);
                    }
                }
            }
            case "Environment" -> {
                if (m.matches()) {
                    String v = m.group(3) == null ? "" : m.group(3).strip();
                    if (!v.startsWith("<set to the key")) {
                        pod.env.putIfAbsent(m.group(2).strip(), v);
                        if (m.group(2).strip().equals("NCCL_SOCKET_IFNAME")) {
                            pod.cites.putIfAbsent("NCCL_SOCKET_IFNAME", evidence(l));
                        }
                    }
                }
            }
            case "Mounts" -> {
                if (s.startsWith("/dev/shm from ") && pod.shmVolume == null) {
                    pod.shmVolume = s.substring("/dev/shm from ".length()).replaceFirst("\\s.*$", "");
                    pod.cites.put("/dev/shm", evidence(l));
                }
            }
            default -> { }
        }
    }

    private void volumeLine(String l) {
        int ind = indent(l);
        Matcher m = SUB.matcher(l);
        if (!m.matches()) {
            return;
        }
        if (ind <= 2) {
            volume = m.group(2).strip();
            pod.volumes.put(volume, new LinkedHashMap<>());
        } else if (volume != null) {
            pod.volumes.get(volume).put(m.group(2).strip(), m.group(3) == null ? "" : m.group(3).strip());
            if (volume.equals(pod.shmVolume) && m.group(2).strip().equals("SizeLimit")) {
                pod.cites.put("sizeLimit", evidence(l));
            }
        }
    }

    private void eventLine(String l) {
        String s = l.strip();
        if (s.equals("<none>") || s.startsWith("----")) {
            return;
        }
        if (eventCols == null && s.startsWith("Type") && s.contains("Reason") && s.contains("Message")) {
            // columns at the header's positions; one the header lacks (-1) stays empty in every row
            int[] cols = {l.indexOf("Type"), l.indexOf("Reason"), l.indexOf("Age"), l.indexOf("From"), l.indexOf("Message")};
            List<String> missing = new ArrayList<>();
            String[] names = {"Type", "Reason", "Age", "From", "Message"};
            int previous = -1;
            boolean ordered = true;
            for (int i = 0; i < cols.length; i++) {
                if (cols[i] < 0) {
                    missing.add(names[i]);
                } else {
                    ordered &= cols[i] > previous;
                    previous = cols[i];
                }
            }
            if (!ordered) {
                bad("Events header has its columns out of order; rows are split at runs of two or more spaces");
                eventCols = new int[0];
            } else {
                if (!missing.isEmpty()) {
                    bad("Events header lacks the " + String.join(", ", missing) + " column" + (missing.size() > 1 ? "s" : "")
                            + "; read as empty in every row");
                }
                eventCols = cols;
            }
            return;
        }
        String[] cols;
        int message = eventCols == null || eventCols.length < 5 ? -1 : eventCols[4];
        if (message > 0 && l.length() > message && l.substring(message - 1, message).isBlank()) {
            cols = new String[5];
            for (int i = 0; i < 5; i++) {
                int from = eventCols[i];
                if (from < 0) {
                    cols[i] = "";
                    continue;
                }
                int to = l.length();
                for (int j = i + 1; j < 5; j++) {
                    if (eventCols[j] >= 0) {
                        to = eventCols[j];
                        break;
                    }
                }
                cols[i] = from < l.length() ? l.substring(from, Math.min(to, l.length())).strip() : "";
            }
        } else {
            String[] parts = s.split("\\s{2,}", 5);
            if (parts.length < 5) {
                bad("expected an event row \"Type  Reason  Age  From  Message\"; got: "
                        + (s.length() > 120 ? s.substring(0, 117) + "..." : s));
                return;
            }
            cols = parts;
        }
        pod.events.add(cols);
        pod.eventLines.add(lineNumber);
    }

    @Override
    protected void end() {
        flush();
    }

    private void flush() {
        if (pod == null) {
            return;
        }
        Pod p = pod;
        pod = null;
        ShmVolume shm = null;
        if (p.shmVolume != null) {
            Map<String, String> v = p.volumes.getOrDefault(p.shmVolume, Map.of());
            String type = v.getOrDefault("Type", "unknown");
            boolean emptyDir = type.startsWith("EmptyDir");
            Quantity size = Quantity.tryParse(v.getOrDefault("SizeLimit", "").replace("<unset>", ""));
            shm = new ShmVolume(p.shmVolume, emptyDir ? "emptyDir" : type.replaceFirst("\\s.*$", ""),
                    v.getOrDefault("Medium", ""), size);
        }
        PodSpecSummary spec = new PodSpecSummary(p.requests, p.limits, p.env,
                p.annotations.get(PodSpecSummary.NETWORKS_ANNOTATION), shm, p.nodeSelector, p.cites, p.tolerations);
        String phase = p.phase == null ? "Unknown" : p.phase;
        Evidence ev = Evidence.at(source, p.line, "pod " + p.namespace + "/" + p.name + " " + phase
                + (p.node == null ? "" : " on " + p.node) + " requests "
                + KubeObjectImporter.compact(spec.effectiveRequests()));
        String indexProblem = JobIdentity.indexProblem(p.name, p.labels);
        if (indexProblem != null) {
            builder.diagnostic(Diagnostic.warning(source, p.line, indexProblem));
        }
        List<ContainerStatus> statuses = new ArrayList<>();
        p.statuses.forEach((name, s) -> statuses.add(new ContainerStatus(name, false, s.restarts, s.state, s.reason, s.exit,
                s.lastReason, s.lastExit)));
        builder.k8s().pod(new K8sPod(p.name, p.namespace, p.node, phase, p.labels, JobIdentity.of(p.name, p.labels), spec,
                ev, statuses), true);
        for (int i = 0; i < p.events.size(); i++) {
            String[] c = p.events.get(i);
            int count = 1;
            Matcher x = REPEAT.matcher(c[2]);
            if (x.find()) {
                try {
                    count = Numbers.nonNegativeInt(x.group(1), "event count");
                } catch (Numbers.OutOfRange e) {
                    builder.diagnostic(Diagnostic.warning(source, p.eventLines.get(i), e.getMessage() + "; event skipped"));
                    continue;
                }
            }
            builder.k8s().event(K8sEvent.of(p.namespace, "Pod", p.name, c[0], c[1], c[4], count, c[3],
                    Evidence.at(source, p.eventLines.get(i), String.join("  ", c)), REPEAT_TAIL.matcher(c[2]).replaceFirst("")));
        }

    }
}
