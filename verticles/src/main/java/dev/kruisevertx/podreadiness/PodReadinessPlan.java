package dev.kruisevertx.podreadiness;

/** What the podreadiness controller will do to one pod, and why. */
public record PodReadinessPlan(Action action, String reason) {
    public enum Action { NONE, ADD_READY_CONDITION }

    static PodReadinessPlan none(String reason) {
        return new PodReadinessPlan(Action.NONE, reason);
    }
}
