package dev.kruisevertx.predownload;

import dev.kruisevertx.revision.RevisionHistory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which container images a new revision brings that the older ones do not run (OpenKruise's diffImagesBetweenRevisions). */
public final class PreDownloadImages {
    private PreDownloadImages() {
    }

    /**
     * Container name to image, in the new template's container order: a container of the new revision whose image
     * differs from a same-named container of an old revision, or that no old revision has. Empty when a revision
     * holds no readable template (OpenKruise then creates nothing).
     */
    public static Map<String, String> changed(List<ControllerRevision> oldRevisions, ControllerRevision newRevision) {
        List<PodTemplateSpec> olds = new ArrayList<>();
        PodTemplateSpec newTemplate;
        try {
            for (ControllerRevision r : oldRevisions) {
                olds.add(RevisionHistory.templateOf(r));
            }
            newTemplate = RevisionHistory.templateOf(newRevision);
        } catch (RuntimeException unreadable) {
            return Map.of();
        }
        Map<String, String> images = new LinkedHashMap<>();
        for (Container c : containers(newTemplate)) {
            boolean found = false;
            for (PodTemplateSpec old : olds) {
                for (Container o : containers(old)) {
                    if (!java.util.Objects.equals(o.getName(), c.getName())) {
                        continue;
                    }
                    if (!java.util.Objects.equals(o.getImage(), c.getImage())) {
                        images.put(c.getName(), c.getImage());
                    }
                    found = true;
                    break;
                }
            }
            if (!found) {
                images.put(c.getName(), c.getImage());
            }
        }
        return images;
    }

    private static List<Container> containers(PodTemplateSpec t) {
        return t == null || t.getSpec() == null || t.getSpec().getContainers() == null ? List.of()
                : t.getSpec().getContainers();
    }
}
