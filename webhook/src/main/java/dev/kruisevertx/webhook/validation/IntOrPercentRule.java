package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.List;

/**
 * What an int-or-percent field (partition, maxUnavailable, maxSurge) may hold: an integer not below
 * {@link #min()}, or a percentage written as Kubernetes writes them ({@code [0-9]+%}) not below {@code min}% and, when
 * {@link #atMost100Percent()}, not above 100% (Kubernetes' rule for a Deployment's maxUnavailable: more than all pods
 * cannot be unavailable).
 *
 * @param min              the smallest integer, and the smallest number of percent
 * @param atMost100Percent whether percentages above 100% are refused
 */
public record IntOrPercentRule(int min, boolean atMost100Percent) {
    /** The percent syntax message of Kubernetes' ValidatePositiveIntOrPercent. */
    static final String PERCENT_SYNTAX = "a valid percent string must be a numeric string followed by an ending '%' "
            + "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

    /** Non-negative, at most 100% (a partition, an update's maxUnavailable). */
    public static final IntOrPercentRule NON_NEGATIVE_AT_MOST_ALL = new IntOrPercentRule(0, true);
    /** Non-negative, no upper bound (maxSurge, as for a Deployment). */
    public static final IntOrPercentRule NON_NEGATIVE = new IntOrPercentRule(0, false);
    /** At least 1 (or 1%), at most 100%: a limit of 0 would stop the work it limits for good. */
    public static final IntOrPercentRule POSITIVE_AT_MOST_ALL = new IntOrPercentRule(1, true);

    /**
     * Checks {@code value} (null is fine: the field is unset) and records what is wrong.
     *
     * @return whether the value can be used
     */
    public boolean check(String field, IntOrString value, List<FieldError> errors) {
        if (value == null || (value.getIntVal() == null && value.getStrVal() == null)) {
            return true;
        }
        if (value.getIntVal() != null) {
            int n = value.getIntVal();
            if (n < min) {
                errors.add(FieldError.invalid(field, n, tooSmall("")));
                return false;
            }
            return true;
        }
        String s = value.getStrVal();
        int percent;
        try {
            percent = IntOrPercent.percent(s);
        } catch (IllegalArgumentException e) {
            boolean digitsOnly = s.length() > 1 && s.endsWith("%")
                    && s.substring(0, s.length() - 1).chars().allMatch(c -> c >= '0' && c <= '9');
            errors.add(FieldError.invalid(field, s, digitsOnly ? tooLarge() : PERCENT_SYNTAX));
            return false;
        }
        if (percent < min) {
            errors.add(FieldError.invalid(field, s, tooSmall("%")));
            return false;
        }
        if (atMost100Percent && percent > 100) {
            errors.add(FieldError.invalid(field, s, tooLarge()));
            return false;
        }
        return true;
    }

    private String tooSmall(String unit) {
        return min == 0 ? "must be greater than or equal to 0" + unit : "should not be less than " + min + unit;
    }

    private String tooLarge() {
        return atMost100Percent ? "must not be greater than 100%" : "must not be greater than " + Integer.MAX_VALUE + "%";
    }
}
