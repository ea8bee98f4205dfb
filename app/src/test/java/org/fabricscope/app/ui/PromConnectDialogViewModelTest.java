package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;

import org.fabricscope.app.live.prom.PromTarget;
import org.junit.jupiter.api.Test;

/** File › Connect to Prometheus: the choice, or why not, in the CLI's words; the last choice fills the fields again. */
class PromConnectDialogViewModelTest {
    @Test
    void aValidChoiceIsAPrometheusTarget() {
        PromConnectDialogViewModel vm = new PromConnectDialogViewModel(null);
        vm.urlProperty().set(" http://prom:9090/ ");
        vm.atProperty().set("2026-11-27T03:00:00Z");
        vm.windowProperty().set("30m");
        ConnectDialogViewModel.Choice c = vm.choice();
        PromTarget t = (PromTarget) c.target();
        assertEquals("http://prom:9090", t.base());
        assertEquals(Instant.parse("2026-11-27T03:00:00Z"), t.at());
        assertEquals(Duration.ofMinutes(30), t.window());
        assertEquals("http://prom:9090, 30 min to 2026-11-27T03:00:00Z", t.describe());
        assertEquals("", vm.messageProperty().get());
        PromConnectDialogViewModel again = new PromConnectDialogViewModel(c);
        assertEquals("http://prom:9090", again.urlProperty().get());
        assertEquals("30m", again.windowProperty().get());
        assertEquals("2026-11-27T03:00:00Z", again.atProperty().get());
    }

    @Test
    void whatIsWrongIsSaid() {
        PromConnectDialogViewModel vm = new PromConnectDialogViewModel(null);
        assertNull(vm.choice());
        assertEquals("Give the server's URL, e.g. http://prometheus:9090", vm.messageProperty().get());
        vm.urlProperty().set("http://prom:9090");
        vm.windowProperty().set("an hour");
        assertNull(vm.choice());
        assertEquals("'an hour' is not a duration: give e.g. 30m, 2h or 1h30m", vm.messageProperty().get());
        vm.windowProperty().set("1h");
        vm.userProperty().set("ops");
        assertNull(vm.choice());
        assertEquals("basic auth needs both --prometheus-user and --prometheus-password-file", vm.messageProperty().get());
    }
}
