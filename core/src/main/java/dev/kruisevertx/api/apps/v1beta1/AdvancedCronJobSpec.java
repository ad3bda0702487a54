package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Optional;

/** Desired state of an AdvancedCronJob. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdvancedCronJobSpec extends UnknownFields {
    @Required
    @JsonPropertyDescription("The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.")
    private String schedule;
    @JsonPropertyDescription("The time zone name for the given schedule, see "
            + "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to "
            + "the time zone of the kruise-controller-manager process.")
    private String timeZone;
    @JsonPropertyDescription("Optional deadline in seconds for starting the job if it misses scheduled time for any "
            + "reason.  Missed jobs executions will be counted as failed ones.")
    private Long startingDeadlineSeconds;
    @JsonPropertyDescription("Specifies how to treat concurrent executions of a Job. Valid values are: "
            + "\"Allow\" (default), \"Forbid\", \"Replace\".")
    private String concurrencyPolicy;
    @JsonPropertyDescription("Paused will pause the cron job.")
    private Boolean paused;
    @JsonPropertyDescription("The number of successful finished jobs to retain. This is a pointer to distinguish "
            + "between explicit zero and not specified.")
    private Integer successfulJobsHistoryLimit;
    @JsonPropertyDescription("The number of failed finished jobs to retain. This is a pointer to distinguish between "
            + "explicit zero and not specified.")
    private Integer failedJobsHistoryLimit;
    @Required
    @JsonPropertyDescription("Specifies the job that will be created when executing a CronJob.")
    private CronJobTemplate template;

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    public String getTimeZone() {
        return timeZone;
    }

    public void setTimeZone(String timeZone) {
        this.timeZone = timeZone;
    }

    public Long getStartingDeadlineSeconds() {
        return startingDeadlineSeconds;
    }

    public void setStartingDeadlineSeconds(Long startingDeadlineSeconds) {
        this.startingDeadlineSeconds = startingDeadlineSeconds;
    }

    public String getConcurrencyPolicy() {
        return concurrencyPolicy;
    }

    public void setConcurrencyPolicy(String concurrencyPolicy) {
        this.concurrencyPolicy = concurrencyPolicy;
    }

    /** The policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<ConcurrencyPolicy> concurrencyPolicyValue() {
        return ConcurrencyPolicy.fromValue(concurrencyPolicy);
    }

    public Boolean getPaused() {
        return paused;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    /** Whether paused (unset is not). Not a bean getter, so it cannot shadow the {@code paused} property. */
    public boolean pausedOrFalse() {
        return Boolean.TRUE.equals(paused);
    }

    public Integer getSuccessfulJobsHistoryLimit() {
        return successfulJobsHistoryLimit;
    }

    public void setSuccessfulJobsHistoryLimit(Integer successfulJobsHistoryLimit) {
        this.successfulJobsHistoryLimit = successfulJobsHistoryLimit;
    }

    public Integer getFailedJobsHistoryLimit() {
        return failedJobsHistoryLimit;
    }

    public void setFailedJobsHistoryLimit(Integer failedJobsHistoryLimit) {
        this.failedJobsHistoryLimit = failedJobsHistoryLimit;
    }

    public CronJobTemplate getTemplate() {
        return template;
    }

    public void setTemplate(CronJobTemplate template) {
        this.template = template;
    }

    /** The template, never null. */
    public CronJobTemplate template() {
        return template == null ? new CronJobTemplate() : template;
    }
}
