package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** A custom resource used only by the tests, so they do not depend on the project's API model. */
@Group("test.kruisevertx.dev")
@Version("v1alpha1")
@Kind("Widget")
@Plural("widgets")
public class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {
    public static class Spec {
        private int size;

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }
    }
}
