package org.fabricscope.app.live.kube;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Turns a failed Kubernetes API call into one line a user can act on: refused credentials (401),
 * the missing permission (403, naming the verb, resource and namespace), a missing resource (404),
 * a server error (5xx), and the transport failures (connection refused, unknown host, timeouts,
 * TLS, a reply cut off) naming the API server. Never a stack trace.
 */
public final class KubeErrors {
    /** Where the README explains the permissions a read needs. */
    public static final String RBAC_HINT = "(README 'Live clusters' has a ClusterRole)";

    private static final Pattern FORBIDDEN = Pattern.compile(
            "User \"([^\"]*)\" cannot (\\w+) resource \"([^\"]+)\"(?: in API group \"([^\"]*)\")?");

    private KubeErrors() {
    }

    /**
     * One line for a failed call of {@code verb} (list, watch, get) on {@code resource} (plural,
     * e.g. {@code pods}, {@code pods/log}, {@code pytorchjobs.kubeflow.org}) in {@code namespace}
     * (null for cluster-scoped resources such as nodes), made through {@code connection}.
     */
    public static String describe(Throwable t, KubeConnection connection, String verb, String resource, String namespace) {
        return describe(t, connection.context(), connection.server(), connection.requestTimeoutMillis(), verb, resource,
                namespace);
    }

    /**
     * As {@link #describe(Throwable, KubeConnection, String, String, String)} without a connection
     * object. What the server sent is {@link #clean cleaned} of control characters.
     */
    public static String describe(Throwable t, String context, String server, long requestTimeoutMillis, String verb,
                                  String resource, String namespace) {
        return clean(describeRaw(t, context, server, requestTimeoutMillis, verb, resource, namespace));
    }

    private static String describeRaw(Throwable t, String context, String server, long requestTimeoutMillis, String verb,
                                      String resource, String namespace) {
        String what = verb + " " + resource + (namespace == null ? " (cluster-wide)" : " in namespace " + namespace);
        int code = code(t);
        if (code == 401) {
            return "credentials refused (401 Unauthorized) by " + server + " for context " + context + " to " + what
                    + ": the token has expired or the auth plugin (exec, OIDC) failed; log in again and retry";
        }
        if (code == 403) {
            String msg = statusMessage(t);
            Matcher m = msg == null ? null : FORBIDDEN.matcher(msg);
            String user = "";
            String v = verb;
            String r = resource;
            if (m != null && m.find()) {
                user = " (user \"" + m.group(1) + "\")";
                v = m.group(2);
                r = m.group(4) == null || m.group(4).isEmpty() ? m.group(3) : m.group(3) + "." + m.group(4);
            }
            String grant = r.endsWith("/log") ? "get on " + r : "get/list/watch on " + r;
            return "forbidden: cannot " + v + " " + r + (namespace == null ? " (cluster-wide)" : " in namespace " + namespace)
                    + user + "; grant " + grant + " " + RBAC_HINT;
        }
        if (code == 404) {
            return "not found (404): " + what + " on " + server + detail(t);
        }
        if (code == 429) {
            return "the API server " + server + " is throttling requests (429 Too Many Requests) on " + what + "; try again later";
        }
        if (code >= 500) {
            return "API server error " + code + " on " + what + " at " + server + detail(t) + "; try again later";
        }
        if (code > 0) {
            return "HTTP " + code + " on " + what + " at " + server + detail(t);
        }
        Throwable cause = transportCause(t);
        if (unresolved(t)) {
            cause = new UnknownHostException(host(server));
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return "no connection to the API server " + server + " (context " + context + ") within the connect timeout; "
                    + "check the network path, VPN or firewall";
        }
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException
                || (cause instanceof InterruptedIOException && !(cause instanceof java.nio.channels.ClosedByInterruptException))) {
            return "the API server " + server + " did not answer " + what + " within " + seconds(requestTimeoutMillis)
                    + "; the server or the network is slow or overloaded";
        }
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
            return "cannot connect to the API server " + server + " (context " + context + "): connection refused; is the "
                    + "cluster up and the kubeconfig's server address right?";
        }
        if (cause instanceof UnknownHostException) {
            return "cannot resolve the API server's host " + host(server) + " (" + server + ", context " + context
                    + "): unknown host; check the kubeconfig's server address, VPN or DNS";
        }
        if (cause instanceof SSLException) {
            return "TLS with the API server " + server + " failed: " + firstLine(cause.getMessage())
                    + "; check the kubeconfig's certificate-authority data";
        }
        if (cause instanceof JsonProcessingException || cause instanceof EOFException) {
            return "the reply to " + what + " from " + server + " was cut off or malformed ("
                    + (cause.getMessage() == null ? "it ended early" : message(cause)) + ")";
        }
        if (cause instanceof IOException) {
            return "the connection to the API server " + server + " failed during " + what + ": " + message(cause);
        }
        return what + " at " + server + " failed: " + message(t);
    }

    /**
     * Whether the failure concerns the connection or the credentials rather than one resource:
     * then every other call would fail the same way, and a read stops at once. A request timeout
     * counts: a server that does not answer one list within the timeout is not worth waiting on
     * for each of the others.
     */
    public static boolean affectsEveryCall(Throwable t) {
        int code = code(t);
        if (code == 401) {
            return true;
        }
        if (code > 0) {
            return false;
        }
        if (unresolved(t)) {
            return true;
        }
        Throwable cause = transportCause(t);
        return cause instanceof HttpTimeoutException || cause instanceof TimeoutException || cause instanceof ConnectException || cause instanceof NoRouteToHostException
                || cause instanceof UnknownHostException || cause instanceof HttpConnectTimeoutException
                || cause instanceof SSLException;
    }

    /** The HTTP status of the failure, 0 when the call got no reply. */
    public static int code(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() > 0) {
                return k.getCode();
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return 0;
    }

    /** The JDK client reports an unknown host as a ConnectException caused by UnresolvedAddressException. */
    private static boolean unresolved(Throwable t) {
        int depth = 0;
        for (Throwable c = t; c != null && depth < 16; c = c.getCause(), depth++) {
            if (c instanceof java.nio.channels.UnresolvedAddressException || c instanceof UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    private static String statusMessage(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof KubernetesClientException k) {
                Status s = k.getStatus();
                if (s != null && s.getMessage() != null) {
                    return s.getMessage();
                }
            }
        }
        return null;
    }

    private static String detail(Throwable t) {
        String m = statusMessage(t);
        return m == null || m.isBlank() ? "" : " (" + firstLine(m) + ")";
    }

    /** The deepest non-Kubernetes cause: the transport's own exception. */
    private static Throwable transportCause(Throwable t) {
        Throwable found = t;
        int depth = 0;
        for (Throwable c = t; c != null && depth < 16; c = c.getCause(), depth++) {
            if (!(c instanceof KubernetesClientException) && !(c instanceof java.util.concurrent.ExecutionException)
                    && !(c instanceof java.util.concurrent.CompletionException)) {
                // the most specific cause wins: keep walking to a timeout or connect failure under a wrapper
                found = c;
                if (c instanceof HttpTimeoutException || c instanceof ConnectException || c instanceof UnknownHostException
                        || c instanceof SSLException || c instanceof TimeoutException || c instanceof NoRouteToHostException) {
                    return c;
                }
            }
        }
        return found;
    }

    private static String seconds(long ms) {
        return ms <= 0 ? "the request timeout" : ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }

    private static String host(String server) {
        try {
            String h = URI.create(server).getHost();
            return h == null ? server : h;
        } catch (IllegalArgumentException e) {
            return server;
        }
    }

    /** The first line of {@code s}, cleaned ({@link #clean}) and cut at 300 characters. */
    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        String l = clean(s.lines().findFirst().orElse(""));
        return l.length() > 300 ? l.substring(0, 297) + "..." : l;
    }

    private static final Pattern ESCAPE = Pattern.compile("\u001B(?:\\[[0-?]*[ -/]*[@-~]|\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)?|[@-Z\\\\-_])");
    private static final Pattern CLASS_NAME = Pattern.compile(
            "(?:\\b[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");

    /**
     * Text a server sent (a Status message, a pod name, a reason), fit to print on a terminal or in a
     * diagnostic: terminal escape sequences are removed and every other control or format character
     * (C0, DEL, C1, line and paragraph separators, bidirectional overrides) becomes a space, so a
     * hostile reply cannot move the cursor, recolour the screen or break the one-line message.
     */
    public static String clean(String s) {
        if (s == null) {
            return "";
        }
        String t = ESCAPE.matcher(s).replaceAll("");
        StringBuilder sb = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); ) {
            int c = t.codePointAt(i);
            int type = Character.getType(c);
            boolean control = type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
            sb.appendCodePoint(control ? ' ' : c);
            i += Character.charCount(c);
        }
        return sb.toString().replaceAll(" {2,}", " ").strip();
    }

    /**
     * A failure as one line for a user: the innermost message worth showing, cleaned, without Java
     * class names; the kind of failure in words when there is no message.
     */
    public static String message(Throwable t) {
        Throwable c = t;
        int depth = 0;
        while (c.getCause() != null && c.getCause() != c && depth++ < 16 && (c.getMessage() == null
                || c.getMessage().isBlank() || c.getMessage().equals(c.getCause().toString())
                || c instanceof java.util.concurrent.ExecutionException || c instanceof java.util.concurrent.CompletionException)) {
            c = c.getCause();
        }
        String m = c.getMessage();
        if (m == null || m.isBlank()) {
            return c instanceof java.io.IOException ? "input/output error" : "unexpected failure";
        }
        return firstLine(CLASS_NAME.matcher(m).replaceAll(""));
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper REPLY_JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** {@code CODE: message} from a Kubernetes {@code Status} body, or the raw body's first line. */
    static String replyMessage(int code, byte[] body) {
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8).strip();
        try {
            com.fasterxml.jackson.databind.JsonNode n = REPLY_JSON.readTree(text);
            if (n != null && n.hasNonNull("message")) {
                text = n.get("message").asText();
            }
        } catch (Exception e) {
            // not JSON: keep the text
        }
        text = firstLine(text);
        return code + (text.isEmpty() ? "" : ": " + text);
    }

    /** A throwable as one line: the innermost cause's message, with its type if the message is empty. */
    static String oneLine(Throwable t) {
        Throwable c = t;
        while ((c instanceof java.util.concurrent.ExecutionException || c instanceof java.util.concurrent.CompletionException) && c.getCause() != null) {
            c = c.getCause();
        }
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null
                || c.getMessage().equals(c.getCause().toString()))) {
            c = c.getCause();
        }
        if (c instanceof KubernetesClientException k && k.getCode() > 0) {
            return k.getCode() + ": " + firstLine(k.getStatus() != null && k.getStatus().getMessage() != null
                    ? k.getStatus().getMessage() : String.valueOf(k.getMessage()));
        }
        return message(c);
    }
}
