package org.fabricscope.app.live.kube;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.k8s.KubeMappers;
import org.fabricscope.importers.k8s.YamlProblems;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Looks at a kubeconfig before fabric8 parses it: fabric8 gives an empty file a
 * NullPointerException, binary bytes an encoding exception, an alias bomb a parser exception and
 * deep nesting a StackOverflowError. Here each is one line naming the file: empty, binary (not
 * UTF-8 text), not YAML (with the line), too many aliases, nested too deeply, too large, or YAML
 * that is no kubeconfig. Also tells which exec credential plugin a context's user runs, so that a
 * plugin that hangs can be named and stopped.
 */
final class KubeconfigCheck {
    /** Largest kubeconfig read; real ones are a few KiB (certificates included). */
    static final int MAX_BYTES = 16 * 1024 * 1024;
    /** Longest line of a kubeconfig (a base64 certificate is one line of a few KiB). */
    static final int MAX_LINE = 1024 * 1024;

    private KubeconfigCheck() {
    }

    /** The files kubectl would read: {@code kubeconfig} itself, else those of $KUBECONFIG, else ~/.kube/config. */
    static List<Path> files(Path kubeconfig) {
        List<Path> out = new ArrayList<>();
        if (kubeconfig != null) {
            out.add(kubeconfig);
            return out;
        }
        String env = System.getenv("KUBECONFIG");
        if (env != null && !env.isBlank()) {
            for (String p : env.split(File.pathSeparator)) {
                if (!p.isBlank() && Files.isRegularFile(Path.of(p))) {
                    out.add(Path.of(p));
                }
            }
            return out;
        }
        Path home = Path.of(System.getProperty("user.home", "."), ".kube", "config");
        if (Files.isRegularFile(home)) {
            out.add(home);
        }
        return out;
    }

    /** Checks one file; the tree of a usable one (Jackson's, for looking up fields), else a {@link KubeException}. */
    static JsonNode check(Path file) throws KubeException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new KubeException("cannot read kubeconfig " + file + ": " + KubeErrors.firstLine(e.getMessage()));
        }
        String where = "kubeconfig " + file;
        if (bytes.length > MAX_BYTES) {
            throw new KubeException(where + " is larger than " + (MAX_BYTES >> 20) + " MiB: not a kubeconfig");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new KubeException(where + " is binary data, not YAML text (it is not UTF-8)");
        }
        if (text.indexOf('\0') >= 0) {
            throw new KubeException(where + " is binary data, not YAML text (it holds NUL bytes)");
        }
        if (text.replace("\uFEFF", "").isBlank()) {
            throw new KubeException(where + " is empty");
        }
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - lineStart > MAX_LINE) {
                    throw new KubeException(where + ": line " + line + " is longer than " + (MAX_LINE >> 20)
                            + " MiB: not a kubeconfig");
                }
                line++;
                lineStart = i + 1;
            }
        }
        Node root;
        try {
            root = KubeMappers.compose(new StringReader(text));
        } catch (RuntimeException | StackOverflowError e) {
            YamlProblems.Problem p = YamlProblems.describe(e, bytes, null);
            throw new KubeException(where + " is not valid YAML" + (p.line() > 0 ? " (line " + p.line() + ")" : "")
                    + ": " + p.text());
        }
        if (root == null) {
            throw new KubeException(where + " is empty");
        }
        if (!(root instanceof MappingNode)) {
            throw new KubeException(where + " is not a kubeconfig: expected a YAML mapping with clusters, contexts "
                    + "and users");
        }
        try {
            JsonNode tree = KubeMappers.yaml().readTree(bytes);
            if (tree == null || !tree.isObject()) {
                throw new KubeException(where + " is not a kubeconfig: expected a YAML mapping with clusters, contexts "
                        + "and users");
            }
            for (String list : new String[] {"clusters", "contexts", "users"}) {
                JsonNode v = tree.get(list);
                if (v != null && !v.isNull() && !v.isArray()) {
                    throw new KubeException(where + " is not a kubeconfig: " + list + " is not a list");
                }
            }
            return tree;
        } catch (IOException | RuntimeException e) {
            YamlProblems.Problem p = YamlProblems.describe(e, bytes, null);
            throw new KubeException(where + " is not valid YAML" + (p.line() > 0 ? " (line " + p.line() + ")" : "")
                    + ": " + p.text());
        }
    }

    /** The exec credential plugin {@code context} (null: the current one) runs, as its user names it; null when none. */
    static ExecPlugin execPlugin(List<JsonNode> configs, String context) {
        String ctx = context;
        for (JsonNode c : configs) {
            if (ctx == null && c.path("current-context").isTextual() && !c.path("current-context").asText().isBlank()) {
                ctx = c.path("current-context").asText();
            }
        }
        if (ctx == null) {
            return null;
        }
        String user = null;
        for (JsonNode c : configs) {
            for (JsonNode n : c.path("contexts")) {
                if (user == null && ctx.equals(n.path("name").asText(null))) {
                    user = n.path("context").path("user").asText(null);
                }
            }
        }
        if (user == null) {
            return null;
        }
        for (JsonNode c : configs) {
            for (JsonNode u : c.path("users")) {
                if (user.equals(u.path("name").asText(null))) {
                    JsonNode exec = u.path("user").path("exec");
                    String command = exec.path("command").asText("");
                    return command.isBlank() ? null : new ExecPlugin(KubeErrors.clean(command), user, ctx);
                }
            }
        }
        return null;
    }

    /** An exec credential plugin: its command as the kubeconfig gives it, and whose it is. */
    record ExecPlugin(String command, String user, String context) {
        /** The command's file name ({@code aws}, {@code kubelogin}, {@code gke-gcloud-auth-plugin}). */
        String name() {
            String c = command.replace('\\', '/');
            return c.substring(c.lastIndexOf('/') + 1);
        }
    }
}
