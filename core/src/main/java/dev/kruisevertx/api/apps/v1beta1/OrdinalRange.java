package dev.kruisevertx.api.apps.v1beta1;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The ordinals {@code from} to {@code to}, both included. */
public record OrdinalRange(int from, int to) {
    public OrdinalRange {
        if (from > to) {
            throw new IllegalArgumentException("range " + from + "-" + to + " starts after it ends");
        }
    }

    /** How many ordinals it holds. */
    public long size() {
        return (long) to - from + 1;
    }

    /** The same ordinals as ascending ranges that neither overlap nor touch. */
    public static List<OrdinalRange> merged(List<OrdinalRange> ranges) {
        List<OrdinalRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingInt(OrdinalRange::from));
        List<OrdinalRange> out = new ArrayList<>();
        for (OrdinalRange r : sorted) {
            OrdinalRange prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (prev != null && (long) r.from() <= (long) prev.to() + 1) {
                out.set(out.size() - 1, new OrdinalRange(prev.from(), Math.max(prev.to(), r.to())));
            } else {
                out.add(r);
            }
        }
        return out;
    }
}
