package dev.kruisevertx.bench.cache;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark's stand-in API server, read through fabric8 as the watch cache reads it. */
class PagingPodServerTest {
    private final RealisticPods pods = new RealisticPods();

    @Test
    void pagesEveryPodOnce() throws Exception {
        try (PagingPodServer server = new PagingPodServer(1_201);
             KubernetesClient client = KubeClients.forTest(new ConfigBuilder().withMasterUrl(server.url()).build())) {
            Set<String> names = new HashSet<>();
            String next = null;
            int pages = 0;
            do {
                PodList page = client.pods().inAnyNamespace().list(new ListOptionsBuilder().withLimit(500L)
                        .withContinue(next).build());
                page.getItems().forEach(p -> names.add(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()));
                next = page.getMetadata().getContinue();
                pages++;
            } while (next != null && !next.isEmpty());
            assertEquals(3, pages);
            assertEquals(1_201, names.size());
            Pod last = new KubernetesSerialization().unmarshal(pods.json(1_200), Pod.class);
            assertTrue(names.contains(last.getMetadata().getNamespace() + "/" + last.getMetadata().getName()));
        }
    }

    @Test
    void streamsAWholeListWithoutALimit() throws Exception {
        try (PagingPodServer server = new PagingPodServer(2_501);
             KubernetesClient client = KubeClients.forTest(new ConfigBuilder().withMasterUrl(server.url()).build())) {
            PodList all = client.pods().inAnyNamespace().list();
            Set<String> names = new HashSet<>();
            all.getItems().forEach(p -> names.add(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()));
            assertEquals(2_501, names.size());
            assertTrue(all.getMetadata().getContinue() == null || all.getMetadata().getContinue().isEmpty());
            Pod last = new KubernetesSerialization().unmarshal(pods.json(2_500), Pod.class);
            assertEquals(last, all.getItems().get(2_500));
        }
    }
}
