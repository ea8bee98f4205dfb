package org.fabricscope.app.live.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A kubeconfig that cannot be used: the message names the file and what is wrong, in the caller's wording. */
class KubeconfigMessagesTest {
    @TempDir
    Path dir;

    @Test
    void aKubeconfigFabric8CannotMapNamesTheFile() throws Exception {
        Path f = dir.resolve("bad-kubeconfig");
        Files.writeString(f, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: lab
                  cluster:
                    server: {not: a-string}
                contexts:
                - name: lab
                  context: {cluster: lab, user: me}
                current-context: lab
                users:
                - name: me
                  user: {token: t}
                """);
        KubeException e = assertThrows(KubeException.class, () -> new KubeConnector().contexts(f));
        assertTrue(e.getMessage().startsWith("invalid kubeconfig " + f + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }

    @Test
    void aKubeconfigWithoutCurrentContextSaysHowToNameOneInTheCallersWords() throws Exception {
        Path f = dir.resolve("kubeconfig");
        Files.writeString(f, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: lab
                  cluster: {server: "https://127.0.0.1:1"}
                contexts:
                - name: lab
                  context: {cluster: lab, user: me}
                users:
                - name: me
                  user: {token: t}
                """);
        KubeTarget t = KubeTarget.current().withKubeconfig(f);
        KubeException cli = assertThrows(KubeException.class, () -> new KubeConnector().connect(t));
        assertEquals(f + " has no current-context; name one with --context: lab", cli.getMessage());
        KubeException gui = assertThrows(KubeException.class,
                () -> new KubeConnector().withHints(KubeConnector.Hints.DIALOG).connect(t));
        assertEquals(f + " has no current-context; pick one in the Context list: lab", gui.getMessage());
    }
}
