package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.AdvancedStatefulSetTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.DeploymentTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.StatefulSetTemplateSpec;
import dev.kruisevertx.api.common.UnknownFields;

/** The workload template the subsets are made from; exactly one is set (the webhook enforces it). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SubsetTemplate extends UnknownFields {
    @JsonPropertyDescription("StatefulSet template")
    private StatefulSetTemplateSpec statefulSetTemplate;
    @JsonPropertyDescription("AdvancedStatefulSet template")
    private AdvancedStatefulSetTemplateSpec advancedStatefulSetTemplate;
    @JsonPropertyDescription("CloneSet template")
    private CloneSetTemplateSpec cloneSetTemplate;
    @JsonPropertyDescription("Deployment template")
    private DeploymentTemplateSpec deploymentTemplate;

    public StatefulSetTemplateSpec getStatefulSetTemplate() {
        return statefulSetTemplate;
    }

    public void setStatefulSetTemplate(StatefulSetTemplateSpec statefulSetTemplate) {
        this.statefulSetTemplate = statefulSetTemplate;
    }

    public AdvancedStatefulSetTemplateSpec getAdvancedStatefulSetTemplate() {
        return advancedStatefulSetTemplate;
    }

    public void setAdvancedStatefulSetTemplate(AdvancedStatefulSetTemplateSpec advancedStatefulSetTemplate) {
        this.advancedStatefulSetTemplate = advancedStatefulSetTemplate;
    }

    public CloneSetTemplateSpec getCloneSetTemplate() {
        return cloneSetTemplate;
    }

    public void setCloneSetTemplate(CloneSetTemplateSpec cloneSetTemplate) {
        this.cloneSetTemplate = cloneSetTemplate;
    }

    public DeploymentTemplateSpec getDeploymentTemplate() {
        return deploymentTemplate;
    }

    public void setDeploymentTemplate(DeploymentTemplateSpec deploymentTemplate) {
        this.deploymentTemplate = deploymentTemplate;
    }
}
