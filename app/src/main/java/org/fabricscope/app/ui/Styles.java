package org.fabricscope.app.ui;

import java.util.Locale;

import org.fabricscope.model.core.Severity;

import javafx.css.PseudoClass;

/**
 * The style classes, pseudo-classes and node ids the Java code sets, by the names app.css (and
 * the UI tests' lookups) use. Code names a style through these constants, never a string literal.
 */
public final class Styles {
    private Styles() {
    }

    // views and panes
    public static final String MAIN_VIEW = "main-view";
    public static final String FABRIC_MAP = "fabric-map";
    public static final String CLUSTER_VIEW = "cluster-view";
    public static final String HOST_VIEW = "host-view";
    public static final String INSPECTOR = "inspector";
    public static final String INSPECTOR_TITLE = "inspector-title";
    public static final String LEGEND = "legend";
    public static final String STATUS_BAR = "status-bar";

    // table rows (inspector ports, Kubernetes nodes)
    public static final String ROW_DANGER = "row-danger";
    public static final String ROW_WARNING = "row-warning";
    public static final String ROW_DEGRADED = "row-degraded";

    // the training tab's collective timeline: a bar per rank, timeline-bar plus behind when it lags
    public static final String TIMELINE_BAR = "timeline-bar";
    public static final String BEHIND = "behind";

    // the Timeline tab: the chart, the root cause's table row, the header while it names a failure, the legend
    public static final String TIMELINE_CHART = "timeline-chart";
    public static final String TIMELINE_ROOT = "timeline-root";
    public static final String TIMELINE_HEADER_FAILURE = "timeline-failure";
    public static final String TIMELINE_HELP = "timeline-help";
    public static final String TIMELINE_SWATCH = "timeline-swatch";

    // the Pairs tab: the heat map, the verdict while it names a slow node or link, the swatches of the colour scale
    public static final String PAIR_CHART = "pair-chart";
    public static final String PAIR_SLOW = "pair-slow";
    public static final String PAIR_SWATCH = "pair-swatch";

    // the nccl-tests chart's expected bus bandwidth: a dashed line (added to the series' line node)
    public static final String EXPECTED_LINE = "expected-line";

    // list cells by severity (findings, NCCL events): sev-error, sev-warning, sev-info
    public static final String SEV_ERROR = "sev-error";
    public static final String SEV_WARNING = "sev-warning";
    public static final String SEV_INFO = "sev-info";

    // the host view's affinity matrix: matrix-cell plus path-<type> (path-nv, path-pix, ..., path-none)
    public static final String MATRIX_HEADER = "matrix-header";
    public static final String MATRIX_CELL = "matrix-cell";
    public static final String PATH_PREFIX = "path-";
    public static final String PATH_NONE = "path-none";

    // log console lines
    public static final String LOG_ERROR = "log-error";
    public static final String LOG_WARN = "log-warn";
    public static final String LOG_NCCL = "log-nccl";

    public static final String MAP_HIGHLIGHTS = "map-highlights";
    public static final String MAP_HIGHLIGHT = "map-highlight";
    public static final String MAP_HIGHLIGHT_CABLE = "map-highlight-cable";
    public static final String MAP_HIGHLIGHT_NAME = "map-highlight-name";

    /** An input the code rejects (the log console's rank filter when it is not a number). */
    public static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");

    /** {@code sev-error}, {@code sev-warning}, {@code sev-info}. */
    public static String severity(Severity s) {
        return switch (s) {
            case ERROR -> SEV_ERROR;
            case WARNING -> SEV_WARNING;
            case INFO -> SEV_INFO;
        };
    }

    /** {@code path-nv}, {@code path-pix}, ...: the matrix cell class of an affinity path type. */
    public static String path(Enum<?> type) {
        return PATH_PREFIX + type.name().toLowerCase(Locale.ROOT);
    }

    /** Node ids ({@code #id} in app.css and in the UI tests' lookups). */
    public static final class Id {
        private Id() {
        }

        // main window
        public static final String SEARCH = "search";
        public static final String COLOUR_MODE = "colourMode";
        public static final String COLLAPSE_HOSTS = "collapseHosts";
        public static final String CANCEL_IMPORT = "cancelImport";
        public static final String STATUS = "status";
        public static final String FINDINGS = "findings";
        public static final String DIAGNOSTICS = "diagnostics";
        // inspector
        public static final String PORT_TABLE = "portTable";
        public static final String OPEN_HOST = "openHost";
        // host view
        public static final String PCIE_TREE = "pcieTree";
        public static final String AFFINITY_MATRIX = "affinityMatrix";
        public static final String GPU_PATHS = "gpuPaths";
        // training view
        public static final String RANKS = "ranks";
        public static final String NCCL_EVENTS = "ncclEvents";
        // timeline view
        public static final String TIMELINE_CHART = "timelineChart";
        public static final String TIMELINE_EVENTS = "timelineEvents";
        public static final String TIMELINE_HEADER = "timelineHeader";
        // pairs view
        public static final String PAIR_CHART = "pairChart";
        public static final String PAIR_HEADER = "pairHeader";
        public static final String PAIR_TEST = "pairTest";
        // Kubernetes view
        public static final String K8S_NODES = "k8sNodes";
        public static final String PENDING_PODS = "pendingPods";
        public static final String K8S_JOB = "k8sJob";
        // log console
        public static final String LOG_CONSOLE = "logConsole";
        public static final String LOG_POD = "logPod";
        public static final String LOG_LEVEL = "logLevel";
        public static final String LOG_RANK = "logRank";
        public static final String LOG_TEXT = "logText";
        // connect dialog
        public static final String KUBECONFIG = "kubeconfig";
        public static final String KUBE_CONTEXT = "kubeContext";
        public static final String KUBE_NAMESPACE = "kubeNamespace";
        public static final String KUBE_JOB = "kubeJob";
        public static final String KUBE_SELECTOR = "kubeSelector";
        public static final String KUBE_FOLLOW = "kubeFollow";
        public static final String CONNECT_MESSAGE = "connectMessage";
    }
}
