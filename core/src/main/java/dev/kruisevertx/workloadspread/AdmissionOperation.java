package dev.kruisevertx.workloadspread;

/** The pod operations the WorkloadSpread webhook step records (OpenKruise's Operation). */
public enum AdmissionOperation {
    CREATE("Create"),
    DELETE("Delete"),
    EVICTION("Eviction");

    private final String value;

    AdmissionOperation(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }
}
