package org.fabricscope.app.live.kube;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Opens read-only connections to clusters named in a kubeconfig. Authentication is fabric8's:
 * client certificates, bearer tokens, exec credential plugins and OIDC refresh all work as in
 * kubectl. Requests time out (connect and request timeouts below) and retry a few times with a
 * short exponential backoff; informers re-watch with their own backoff. A request that would
 * change the cluster (anything but GET to the API server) is refused before it is sent.
 */
public final class KubeConnector {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(20);
    /** Retries of a failed request (5xx, I/O), 250 ms then doubling. */
    public static final int DEFAULT_RETRIES = 2;
    /** How long an exec credential plugin (aws, gcloud, kubelogin) may run while the kubeconfig is loaded. */
    public static final Duration DEFAULT_EXEC_TIMEOUT = Duration.ofSeconds(30);
    /** The most body bytes one reply of a one-shot read may have (a pod list of a large namespace fits). */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 128L << 20;

    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final int retries;
    private final Duration execTimeout;
    private final Duration readDeadline;
    private final long maxResponseBytes;
    private final Hints hints;

    /**
     * How a message tells the user to name a kubeconfig or a context: the CLI's options, or the
     * desktop's Connect dialog fields.
     */
    public record Hints(String giveKubeconfig, String nameContext) {
        /** {@code pass --kubeconfig FILE}, {@code name one with --context}. */
        public static final Hints CLI = new Hints("pass --kubeconfig FILE", "name one with --context");
        /** The Connect dialog's wording. */
        public static final Hints DIALOG = new Hints("choose a kubeconfig file in the Kubeconfig field",
                "pick one in the Context list");
    }

    /** 5 s to connect, 20 s per request (60 s for a whole reply), 2 retries, 30 s for an exec plugin, 128 MiB a reply. */
    public KubeConnector() {
        this(DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_RETRIES);
    }

    /** The given timeouts; a whole reply may take three request timeouts; exec plugin and reply size as by default. */
    public KubeConnector(Duration connectTimeout, Duration requestTimeout, int retries) {
        this(connectTimeout, requestTimeout, retries, DEFAULT_EXEC_TIMEOUT, requestTimeout.multipliedBy(3),
                DEFAULT_MAX_RESPONSE_BYTES);
    }

    /**
     * @param requestTimeout   until a reply's headers come (fabric8's request timeout)
     * @param execTimeout      how long an exec credential plugin may run while the kubeconfig is loaded
     * @param readDeadline     how long one GET of a one-shot read may take, headers and body together
     * @param maxResponseBytes the most body bytes one reply of a one-shot read may have
     */
    public KubeConnector(Duration connectTimeout, Duration requestTimeout, int retries, Duration execTimeout,
                         Duration readDeadline, long maxResponseBytes) {
        if (connectTimeout.isNegative() || requestTimeout.isNegative() || retries < 0 || execTimeout.isNegative()
                || readDeadline.isNegative() || maxResponseBytes < 0) {
            throw new IllegalArgumentException("timeouts, limits and retries must not be negative");
        }
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
        this.retries = retries;
        this.execTimeout = execTimeout;
        this.readDeadline = readDeadline;
        this.maxResponseBytes = maxResponseBytes;
        this.hints = Hints.CLI;
    }

    private KubeConnector(KubeConnector c, Hints hints) {
        this.connectTimeout = c.connectTimeout;
        this.requestTimeout = c.requestTimeout;
        this.retries = c.retries;
        this.execTimeout = c.execTimeout;
        this.readDeadline = c.readDeadline;
        this.maxResponseBytes = c.maxResponseBytes;
        this.hints = hints;
    }

    /** This connector, its messages worded with {@code hints} (the desktop: {@link Hints#DIALOG}). */
    public KubeConnector withHints(Hints hints) {
        return new KubeConnector(this, java.util.Objects.requireNonNull(hints));
    }

    /**
     * The contexts of a kubeconfig for a picker, by name, the current one flagged. {@code kubeconfig} null
     * reads what kubectl reads ({@code $KUBECONFIG}, which may list several files, else
     * {@code ~/.kube/config}). Empty when there is no kubeconfig.
     */
    public List<KubeContext> contexts(Path kubeconfig) throws KubeException {
        Config config = load(kubeconfig, null).config();
        String current = config.getCurrentContext() == null ? null : config.getCurrentContext().getName();
        List<KubeContext> out = new ArrayList<>();
        for (NamedContext c : config.getContexts() == null ? List.<NamedContext>of() : config.getContexts()) {
            var ctx = c.getContext();
            out.add(new KubeContext(c.getName(), ctx == null ? null : ctx.getCluster(), ctx == null ? null : ctx.getUser(),
                    ctx == null ? null : ctx.getNamespace(), c.getName().equals(current)));
        }
        out.sort(java.util.Comparator.comparing(KubeContext::name));
        return out;
    }

    /**
     * Connects to the target's context: checks that the context exists, resolves the namespace and
     * builds a client. No request is sent yet; the first read shows whether the server answers.
     */
    public KubeConnection connect(KubeTarget target) throws KubeException {
        Loaded loaded = load(target.kubeconfig(), null);
        Config config = loaded.config();
        List<NamedContext> contexts = config.getContexts() == null ? List.of() : config.getContexts();
        String where = target.kubeconfig() != null ? target.kubeconfig().toString() : "the kubeconfig ($KUBECONFIG or ~/.kube/config)";
        if (target.context() != null) {
            if (contexts.stream().noneMatch(c -> target.context().equals(c.getName()))) {
                String current = config.getCurrentContext() == null ? null : config.getCurrentContext().getName();
                throw new KubeException("context '" + target.context() + "' is not in " + where + "; available: "
                        + (contexts.isEmpty() ? "none" : contexts.stream().map(NamedContext::getName).sorted()
                        .map(c -> c + (c.equals(current) ? " (current)" : ""))
                        .collect(Collectors.joining(", "))));
            }
            loaded = load(target.kubeconfig(), target.context());
            config = loaded.config();
        } else if (contexts.isEmpty() && System.getenv("KUBERNETES_SERVICE_HOST") == null
                && System.getProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY) == null
                && System.getenv("KUBERNETES_MASTER") == null) {
            throw new KubeException("no cluster configured: " + where + " has no contexts; " + hints.giveKubeconfig() + " or "
                    + "set $KUBECONFIG");
        } else if (contexts.size() > 0 && config.getCurrentContext() == null) {
            throw new KubeException(where + " has no current-context; " + hints.nameContext() + ": "
                    + contexts.stream().map(NamedContext::getName).sorted().collect(Collectors.joining(", ")));
        }
        config.setConnectionTimeout((int) connectTimeout.toMillis());
        config.setRequestTimeout((int) requestTimeout.toMillis());
        config.setRequestRetryBackoffLimit(retries);
        config.setRequestRetryBackoffInterval(250);
        config.setWatchReconnectInterval(1000);
        config.setWatchReconnectLimit(-1);
        String context = config.getCurrentContext() != null ? config.getCurrentContext().getName() : "in-cluster";
        String namespace = target.namespace() != null ? target.namespace()
                : config.getNamespace() != null && !config.getNamespace().isBlank() ? config.getNamespace() : "default";
        String server = config.getMasterUrl();
        if (server != null && server.endsWith("/")) {
            server = server.substring(0, server.length() - 1);
        }
        final String api = server == null ? "" : server;
        try {
            KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                    .withHttpClientFactory(new ClosingHttpClients())
                    .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("fabricscope-read-only", new ReadOnly(api)))
                    .build();
            return new KubeConnection(client, context, namespace, server, requestTimeout.toMillis(),
                    Math.max(requestTimeout.toMillis(), readDeadline.toMillis()), maxResponseBytes, loaded.plugin());
        } catch (RuntimeException e) {
            throw new KubeException("cannot set up a client for context " + context + ": " + KubeErrors.message(e));
        }
    }

    /** A loaded config, and the exec credential plugin its context runs (null when none). */
    private record Loaded(Config config, KubeconfigCheck.ExecPlugin plugin) {
    }

    /**
     * Checks the kubeconfig files (one clear line for an empty, binary, malformed, alias-bomb or
     * deeply nested one, where fabric8 throws), then lets fabric8 load them, which runs the
     * context's exec credential plugin; a plugin still running after {@code execTimeout} is
     * stopped, with its children, and named in the error.
     */
    private Loaded load(Path kubeconfig, String context) throws KubeException {
        if (kubeconfig != null && (!Files.isRegularFile(kubeconfig) || !Files.isReadable(kubeconfig))) {
            throw new KubeException("cannot read kubeconfig " + kubeconfig);
        }
        List<com.fasterxml.jackson.databind.JsonNode> trees = new ArrayList<>();
        for (Path f : KubeconfigCheck.files(kubeconfig)) {
            trees.add(KubeconfigCheck.check(f));
        }
        KubeconfigCheck.ExecPlugin plugin = KubeconfigCheck.execPlugin(trees, context);
        java.util.concurrent.FutureTask<Config> task = new java.util.concurrent.FutureTask<>(() -> kubeconfig != null
                ? Config.fromKubeconfig(context, kubeconfig.toFile()) : Config.autoConfigure(context));
        Thread worker = new Thread(task, "fabricscope-kubeconfig");
        worker.setDaemon(true);
        long started = System.currentTimeMillis();
        worker.start();
        try {
            return new Loaded(task.get(execTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS), plugin);
        } catch (java.util.concurrent.TimeoutException e) {
            // stop the plugin before interrupting fabric8's wait, which may reap the process first
            int stopped = ExecPlugins.stop(plugin, started);
            task.cancel(true);
            boolean gone = stopped > 0 || !ExecPlugins.anyAlive(plugin, started);
            throw new KubeException((plugin == null ? "loading the kubeconfig" : "the exec credential plugin '"
                    + plugin.name() + "' (user " + plugin.user() + ", context " + plugin.context() + ")")
                    + " did not finish within " + seconds(execTimeout) + (gone ? "; it was stopped" : "")
                    + ". Run it by hand to see whether it waits for a login or a network");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            task.cancel(true);
            ExecPlugins.stop(plugin, started);
            throw new KubeException("loading the kubeconfig was interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String msg = cause.getCause() != null && cause.getCause().getMessage() != null ? cause.getCause().getMessage()
                    : cause.getMessage();
            List<Path> named = KubeconfigCheck.files(kubeconfig);
            String which = named.isEmpty() ? "" : " " + named.stream().map(Path::toString).collect(Collectors.joining(", "));
            throw new KubeException("invalid kubeconfig" + which + ": "
                    + (msg == null || cause instanceof Error ? "could not be read" : KubeErrors.message(new Exception(msg))));
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Refuses any request to the API server that is not a GET: FabricScope only reads. */
    private record ReadOnly(String server) implements Interceptor {
        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String method = request.method() == null ? "GET" : request.method().toUpperCase(Locale.ROOT);
            if (!method.equals("GET") && request.uri().toString().startsWith(server)) {
                throw new KubernetesClientException("FabricScope is read-only: refused " + method + " " + request.uri().getPath());
            }
        }
    }
}
