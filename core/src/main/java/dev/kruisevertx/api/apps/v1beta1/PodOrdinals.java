package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
    /** A range larger than this is rejected rather than expanded into memory. */
    public static final int MAX_RANGE = 1_000_000;

    private PodOrdinals() {
    }

    /**
     * The reserved ordinals of {@code spec.reserveOrdinals}: integers, numeric strings and {@code "a-b"} ranges
     * (both ends included).
     *
     * @throws IllegalArgumentException naming the entry that is neither
     */
    public static Set<Integer> reserved(List<IntOrString> reserveOrdinals) {
        if (reserveOrdinals == null || reserveOrdinals.isEmpty()) {
            return Set.of();
        }
        Set<Integer> out = new TreeSet<>();
        for (IntOrString entry : reserveOrdinals) {
            if (entry == null) {
                continue;
            }
            if (entry.getIntVal() != null) {
                if (entry.getIntVal() < 0) {
                    throw new IllegalArgumentException("reserveOrdinals: " + entry.getIntVal() + " is negative");
                }
                out.add(entry.getIntVal());
                continue;
            }
            String s = entry.getStrVal() == null ? "" : entry.getStrVal();
            Matcher number = NUMBER.matcher(s);
            if (number.matches()) {
                out.add(parse(number.group(1), s));
                continue;
            }
            Matcher range = RANGE.matcher(s);
            if (!range.matches()) {
                throw new IllegalArgumentException("reserveOrdinals: '" + s + "' is neither an ordinal nor a range "
                        + "'a-b'");
            }
            int from = parse(range.group(1), s);
            int to = parse(range.group(2), s);
            if (from > to) {
                throw new IllegalArgumentException("reserveOrdinals: range '" + s + "' starts after it ends");
            }
            if (to - from >= MAX_RANGE) {
                throw new IllegalArgumentException("reserveOrdinals: range '" + s + "' spans more than " + MAX_RANGE
                        + " ordinals");
            }
            for (int i = from; i <= to; i++) {
                out.add(i);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private static int parse(String digits, String entry) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("reserveOrdinals: '" + entry + "' is out of range");
        }
    }

    /** The ordinals to run, ascending: the first {@code replicas} ordinals from {@code start} not in {@code reserved}. */
    public static List<Integer> desired(int replicas, int start, Set<Integer> reserved) {
        List<Integer> out = new ArrayList<>(Math.max(replicas, 0));
        for (int ordinal = start; out.size() < replicas; ordinal++) {
            if (!reserved.contains(ordinal)) {
                out.add(ordinal);
            }
        }
        return out;
    }

    /** The ordinal of a pod named {@code <set>-<ordinal>}, or -1 when the name has another form. */
    public static int ordinalOf(String setName, String podName) {
        if (podName == null || !podName.startsWith(setName + "-")) {
            return -1;
        }
        String suffix = podName.substring(setName.length() + 1);
        if (suffix.isEmpty() || suffix.length() > 9 || !suffix.chars().allMatch(Character::isDigit)
                || (suffix.length() > 1 && suffix.charAt(0) == '0')) {
            return -1;
        }
        return Integer.parseInt(suffix);
    }

    public static String podName(String setName, int ordinal) {
        return setName + "-" + ordinal;
    }

    /** Name of the PVC of {@code claimTemplate} for one ordinal: {@code <template>-<set>-<ordinal>}. */
    public static String claimName(String claimTemplate, String setName, int ordinal) {
        return claimTemplate + "-" + setName + "-" + ordinal;
    }
}
