package dev.kruisevertx.manager;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.podreadiness.PodReadinessController;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class ManagerLeadershipTest {
    KubernetesMockServer server;
    KubernetesClient client;
    private ManagerApp first;
    private ManagerApp second;

    @AfterEach
    void stop() throws Exception {
        TestManagers.stop(first);
        TestManagers.stop(second);
    }

    @Test
    void onlyTheLeaderRunsControllersAndTheStandbyTakesOver() throws Exception {
        List<ControllerDefinition> controllers = List.of(new PodReadinessController());
        String[] fast = {"--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
                "--leader-election-retry-period=200ms"};
        first = TestManagers.start(client, controllers, fast);
        TestManagers.await("first manager leads and runs podreadiness", Duration.ofSeconds(30),
                () -> first.isLeader() && first.supervisor().status("podreadiness").state() == ControllerSupervisor.State.RUNNING,
                () -> first.supervisor().view());

        second = TestManagers.start(client, controllers, fast);
        Thread.sleep(1000);
        assertFalse(second.isLeader());
        assertEquals(ControllerSupervisor.State.READY, second.supervisor().status("podreadiness").state(),
                "a standby prepares its cache but runs no controller");
        assertTrue(TestManagers.get(second.metricsPort(), "/metrics").body().contains("kruise_manager_is_leader 0.0"));
        assertTrue(TestManagers.get(first.metricsPort(), "/metrics").body().contains("kruise_manager_is_leader 1.0"));

        TestManagers.stop(first);
        first = null;
        TestManagers.await("standby takes over", Duration.ofSeconds(30),
                () -> second.isLeader() && second.supervisor().status("podreadiness").state() == ControllerSupervisor.State.RUNNING,
                () -> second.supervisor().view());
    }
}
