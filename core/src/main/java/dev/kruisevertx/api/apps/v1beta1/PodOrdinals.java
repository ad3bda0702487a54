package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which ordinals an Advanced StatefulSet runs. {@code spec.replicas} counts running pods; reserved ordinals are
 * skipped, so the set runs the first {@code replicas} ordinals from the start ordinal that are not reserved (v0.7:
 * replicas 4 with {@code [1]} runs 0, 2, 3, 4; reserving 3 as well runs 0, 2, 4, 5).
 */
public final class PodOrdinals {
    private static final Pattern RANGE = Pattern.compile("^\\s*(\\d+)\\s*-\\s*(\\d+)\\s*$");
    private static final Pattern NUMBER = Pattern.compile("^\\s*(\\d+)\\s*$");
    /** More reserved ordinals than this, in one range or all entries together, are rejected rather than expanded. */
    public static final int MAX_RANGE = 1_000_000;

    private PodOrdinals() {
    }

    /**
     * The reserved ordinals of {@code spec.reserveOrdinals} (integers, numeric strings and {@code "a-b"} ranges, both
     * ends included) as ascending ranges that neither overlap nor touch. The ranges are never expanded: a set's
     * ordinals are {@link DesiredOrdinals}.
     *
     * @throws IllegalArgumentException naming the entry that is neither, or when more than {@link #MAX_RANGE}
     *                                  ordinals would be reserved
     */
    public static List<OrdinalRange> reservedRanges(List<IntOrString> reserveOrdinals) {
        List<OrdinalRange> out = new ArrayList<>();
        for (int[] r : ranges(reserveOrdinals)) {
            out.add(new OrdinalRange(r[0], r[1]));
        }
        return OrdinalRange.merged(out);
    }

    /**
     * Checks {@code spec.reserveOrdinals} as {@link #reservedRanges(List)} does.
     *
     * @return how many ordinals the entries name at most (an ordinal named twice counts twice)
     * @throws IllegalArgumentException as {@link #reservedRanges(List)}
     */
    public static long checkReserved(List<IntOrString> reserveOrdinals) {
        long count = 0;
        for (int[] r : ranges(reserveOrdinals)) {
            count += (long) r[1] - r[0] + 1;
        }
        return count;
    }

    /** Each entry as an inclusive range {from, to}, checked. */
    private static List<int[]> ranges(List<IntOrString> reserveOrdinals) {
        if (reserveOrdinals == null || reserveOrdinals.isEmpty()) {
            return List.of();
        }
        List<int[]> out = new ArrayList<>();
        long total = 0;
        for (IntOrString entry : reserveOrdinals) {
            if (entry == null) {
                continue;
            }
            int from;
            int to;
            if (entry.getIntVal() != null) {
                if (entry.getIntVal() < 0) {
                    throw new IllegalArgumentException("reserveOrdinals: " + entry.getIntVal() + " is negative");
                }
                from = entry.getIntVal();
                to = from;
            } else {
                String s = entry.getStrVal() == null ? "" : entry.getStrVal();
                Matcher number = NUMBER.matcher(s);
                Matcher range = RANGE.matcher(s);
                if (number.matches()) {
                    from = parse(number.group(1), s);
                    to = from;
                } else if (range.matches()) {
                    from = parse(range.group(1), s);
                    to = parse(range.group(2), s);
                } else {
                    throw new IllegalArgumentException("reserveOrdinals: '" + shown(s) + "' is neither an ordinal nor "
                            + "a range 'a-b'");
                }
                if (from > to) {
                    throw new IllegalArgumentException("reserveOrdinals: range '" + shown(s) + "' starts after it ends");
                }
                if ((long) to - from >= MAX_RANGE) {
                    throw new IllegalArgumentException("reserveOrdinals: range '" + shown(s) + "' spans more than "
                            + MAX_RANGE + " ordinals");
                }
            }
            total += (long) to - from + 1;
            if (total > MAX_RANGE) {
                throw new IllegalArgumentException("reserveOrdinals: more than " + MAX_RANGE
                        + " ordinals are reserved");
            }
            out.add(new int[]{from, to});
        }
        return out;
    }

    private static int parse(String digits, String entry) {
        // At most 10 digits: a longer run is out of range anyway, and parsing it would cost time for nothing.
        if (digits.length() > 10) {
            throw new IllegalArgumentException("reserveOrdinals: '" + shown(entry) + "' is out of range");
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("reserveOrdinals: '" + shown(entry) + "' is out of range");
        }
    }

    private static String shown(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }

    /** The ordinal of a pod named {@code <set>-<ordinal>}, or -1 when the name has another form. */
    public static int ordinalOf(String setName, String podName) {
        if (podName == null || !podName.startsWith(setName + "-")) {
            return -1;
        }
        String suffix = podName.substring(setName.length() + 1);
        // Up to ten digits: ordinals reach Integer.MAX_VALUE (ordinals.start near it is valid).
        if (suffix.isEmpty() || suffix.length() > 10 || !suffix.chars().allMatch(c -> c >= '0' && c <= '9')
                || (suffix.length() > 1 && suffix.charAt(0) == '0')) {
            return -1;
        }
        long ordinal = Long.parseLong(suffix);
        return ordinal > Integer.MAX_VALUE ? -1 : (int) ordinal;
    }

    public static String podName(String setName, int ordinal) {
        return setName + "-" + ordinal;
    }

    /** Name of the PVC of {@code claimTemplate} for one ordinal: {@code <template>-<set>-<ordinal>}. */
    public static String claimName(String claimTemplate, String setName, int ordinal) {
        return claimTemplate + "-" + setName + "-" + ordinal;
    }
}
