package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.app.live.kube.KubeContext;
import org.fabricscope.app.live.kube.KubeException;
import org.fabricscope.app.live.kube.KubeTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connect dialog's state without a dialog: contexts read through the executor, the choice checked. */
class ConnectDialogViewModelTest {
    @TempDir
    Path dir;

    @Test
    void contextsAreReadAndTheCurrentOneIsPicked() throws Exception {
        Path cfg = Files.writeString(dir.resolve("config"), "apiVersion: v1");
        ConnectDialogViewModel vm = new ConnectDialogViewModel(new CurrentThreadTaskExecutor(), null, p -> List.of(
                new KubeContext("dev", "c1", "u", "team-a", false), new KubeContext("prod", "c2", "u", "ml-train", true)));
        vm.kubeconfigProperty().set(cfg.toString());
        vm.loadContexts();
        assertEquals(List.of("dev", "prod"), vm.contexts());
        assertEquals("prod", vm.contextProperty().get());
        assertEquals("2 contexts", vm.messageProperty().get());
        assertEquals("ml-train (the context's namespace)", vm.namespacePromptProperty().get());
        vm.jobProperty().set("llama-pretrain");
        ConnectDialogViewModel.Choice c = vm.choice();
        assertEquals("llama-pretrain", ((KubeTarget) c.target()).job());
        assertEquals(cfg, ((KubeTarget) c.target()).kubeconfig());
        assertTrue(c.followLogs());
    }

    @Test
    void aJobAndASelectorTogetherAreRefused() {
        ConnectDialogViewModel vm = new ConnectDialogViewModel(new CurrentThreadTaskExecutor(),
                new ConnectDialogViewModel.Choice(KubeTarget.current().withJob("bert"), false), p -> List.of());
        assertEquals("bert", vm.jobProperty().get());
        vm.selectorProperty().set("app=bert");
        assertNull(vm.choice());
        assertEquals("Give a job name or a label selector, not both", vm.messageProperty().get());
    }

    @Test
    void anUnreadableKubeconfigIsSaidInTheMessageLine() {
        ConnectDialogViewModel vm = new ConnectDialogViewModel(new CurrentThreadTaskExecutor(), null, p -> {
            throw new KubeException("cannot read " + p + ": not YAML");
        });
        vm.kubeconfigProperty().set(dir.resolve("missing").toString());
        vm.loadContexts();
        assertEquals("Kubeconfig " + dir.resolve("missing") + " does not exist: choose the file with Browse…, or leave the "
                + "field empty for " + ConnectDialogViewModel.defaultKubeconfigText(), vm.messageProperty().get());
        vm.kubeconfigProperty().set(dir.toString());
        vm.loadContexts();
        assertEquals("Kubeconfig " + dir + " is a folder, not a kubeconfig file", vm.messageProperty().get());
        vm.kubeconfigProperty().set("");
        vm.loadContexts();
        assertEquals("cannot read null: not YAML", vm.messageProperty().get());
    }

    @Test
    void aTypedPathIsReadWhenTheFieldLosesFocusOncePerText() throws Exception {
        Path cfg = Files.writeString(dir.resolve("config"), "apiVersion: v1");
        List<Path> reads = new java.util.ArrayList<>();
        ConnectDialogViewModel vm = new ConnectDialogViewModel(new CurrentThreadTaskExecutor(), null, p -> {
            reads.add(p);
            return List.of(new KubeContext("lab", "c", "u", null, true));
        });
        vm.kubeconfigProperty().set(cfg.toString());
        vm.kubeconfigEdited();
        assertEquals(List.of(cfg), reads);
        assertEquals("lab", vm.contextProperty().get());
        vm.kubeconfigEdited(); // focus comes and goes again: the same text is not read twice
        assertEquals(1, reads.size());
        vm.kubeconfigProperty().set(cfg + " ");
        vm.kubeconfigEdited();
        assertEquals(1, reads.size(), "only blanks changed");
    }

    @Test
    void theDialogsReaderSaysWhatToDoInTheDialogsWords() throws Exception {
        Path cfg = Files.writeString(dir.resolve("config"), "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\n");
        ConnectDialogViewModel vm = new ConnectDialogViewModel(new CurrentThreadTaskExecutor(), null);
        vm.kubeconfigProperty().set(cfg.toString());
        vm.loadContexts();
        assertEquals("No contexts in " + cfg + ": choose a kubeconfig file", vm.messageProperty().get());
        Files.writeString(cfg, "clusters: [unclosed");
        vm.loadContexts();
        assertTrue(vm.messageProperty().get().startsWith("kubeconfig " + cfg + " is not valid YAML"), vm.messageProperty().get());
        assertTrue(!vm.messageProperty().get().contains("--"), vm.messageProperty().get());
    }
}
