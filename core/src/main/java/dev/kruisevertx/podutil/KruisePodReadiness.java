package dev.kruisevertx.podutil;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@value WellKnown#KRUISE_POD_READY_CONDITION} readiness gate shared by Kruise components: each component that
 * wants a pod out of service adds a {userAgent, key} entry to the JSON list in the condition's message and sets the
 * condition False; removing the last entry sets it True again. Only pods created with that readiness gate are
 * touched. Methods return a changed copy (a status write) or the pod itself when nothing changes.
 */
public final class KruisePodReadiness {
    private static final TypeReference<List<Message>> MESSAGES = new TypeReference<>() {
    };

    private KruisePodReadiness() {
    }

    /** One reason for holding the pod not ready; JSON {@code {"userAgent":..,"key":..}} as OpenKruise writes it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Message(String userAgent, String key) {
    }

    /** The pod has the KruisePodReady readiness gate. */
    public static boolean hasGate(Pod pod) {
        return Pods.hasReadinessGate(pod, WellKnown.KRUISE_POD_READY_CONDITION);
    }

    /** Adds a not-ready reason; the condition becomes False. */
    public static Pod addNotReadyKey(Pod pod, Message msg, Instant now) {
        if (!hasGate(pod)) {
            return pod;
        }
        PodCondition current = Pods.condition(pod, WellKnown.KRUISE_POD_READY_CONDITION).orElse(null);
        List<Message> messages = current == null ? new ArrayList<>() : parse(current.getMessage());
        if (current != null && !"True".equals(current.getStatus()) && messages.contains(msg)) {
            return pod;
        }
        if (!messages.contains(msg)) {
            messages.add(msg);
        }
        return withCondition(pod, "False", messages, now);
    }

    /** Removes a not-ready reason; the condition becomes True when no reason is left. */
    public static Pod removeNotReadyKey(Pod pod, Message msg, Instant now) {
        if (!hasGate(pod)) {
            return pod;
        }
        PodCondition current = Pods.condition(pod, WellKnown.KRUISE_POD_READY_CONDITION).orElse(null);
        if (current == null) {
            return pod;
        }
        List<Message> messages = parse(current.getMessage());
        if (!messages.remove(msg)) {
            return pod;
        }
        return withCondition(pod, messages.isEmpty() ? "True" : current.getStatus(), messages, now);
    }

    /** The reasons currently holding the pod not ready. */
    public static List<Message> notReadyKeys(Pod pod) {
        return Pods.condition(pod, WellKnown.KRUISE_POD_READY_CONDITION).map(c -> parse(c.getMessage()))
                .orElseGet(ArrayList::new);
    }

    private static Pod withCondition(Pod pod, String status, List<Message> messages, Instant now) {
        Pod copy = new PodBuilder(pod).build();
        if (copy.getStatus() == null) {
            copy.setStatus(new PodStatus());
        }
        if (copy.getStatus().getConditions() == null) {
            copy.getStatus().setConditions(new ArrayList<>());
        }
        messages.sort(Comparator.comparing(Message::userAgent, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Message::key, Comparator.nullsFirst(Comparator.naturalOrder())));
        PodCondition c = PodConditions.get(copy.getStatus(), WellKnown.KRUISE_POD_READY_CONDITION);
        if (c == null) {
            c = new PodCondition();
            c.setType(WellKnown.KRUISE_POD_READY_CONDITION);
            copy.getStatus().getConditions().add(c);
        }
        c.setStatus(status);
        c.setMessage(ApiJson.toJson(messages));
        c.setLastTransitionTime(Pods.formatTime(now));
        return copy;
    }

    private static List<Message> parse(String message) {
        if (message == null || message.isEmpty()) {
            return new ArrayList<>();
        }
        try {
            List<Message> parsed = ApiJson.serialization().unmarshal(message, MESSAGES);
            return parsed == null ? new ArrayList<>() : new ArrayList<>(parsed);
        } catch (RuntimeException notJson) {
            // Another writer left free text; OpenKruise ignores it the same way and starts a fresh list.
            return new ArrayList<>();
        }
    }
}
