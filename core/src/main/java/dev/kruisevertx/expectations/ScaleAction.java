package dev.kruisevertx.expectations;

/** What a controller asked the API server to do with one of its pods. */
public enum ScaleAction {
    CREATE("create"),
    DELETE("delete");

    private final String label;

    ScaleAction(String label) {
        this.label = label;
    }

    /** OpenKruise's spelling, used in logs. */
    @Override
    public String toString() {
        return label;
    }
}
