package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * The ordinals an Advanced StatefulSet runs, without listing them: the first {@code replicas} ordinals from the
 * start ordinal that are not reserved (see {@link PodOrdinals}). Held as one range with the reserved ranges inside it
 * cut out, so {@code replicas: 2147483647} costs as little as {@code replicas: 3}: memory grows with the number of
 * reserveOrdinals entries, and every question but iteration is answered in time of that order too.
 */
public final class DesiredOrdinals implements Iterable<Integer> {
    /** Segments shown by {@link #toString()} before the rest is only counted. */
    private static final int SHOWN_SEGMENTS = 10;
    private static final DesiredOrdinals NONE = new DesiredOrdinals(0, 0, -1, new int[0], new int[0]);

    private final int start;
    private final int size;
    /** The highest ordinal run; start - 1 when none is. */
    private final long last;
    /** Reserved ranges inside [start, last], ascending, disjoint and not touching: each is a hole. */
    private final int[] holeFrom;
    private final int[] holeTo;

    private DesiredOrdinals(int start, int size, long last, int[] holeFrom, int[] holeTo) {
        this.start = start;
        this.size = size;
        this.last = last;
        this.holeFrom = holeFrom;
        this.holeTo = holeTo;
    }

    /**
     * The ordinals a set with these settings runs.
     *
     * @param reserveOrdinals {@code spec.reserveOrdinals} as {@link PodOrdinals#reservedRanges(List)} reads it
     * @throws IllegalArgumentException when an entry is malformed, or when the ordinals would run past
     *                                  {@link Integer#MAX_VALUE}
     */
    public static DesiredOrdinals of(int replicas, int start, List<IntOrString> reserveOrdinals) {
        return ofRanges(replicas, start, PodOrdinals.reservedRanges(reserveOrdinals));
    }

    /** As {@link #of(int, int, List)}, from single reserved ordinals. */
    public static DesiredOrdinals ofReserved(int replicas, int start, Collection<Integer> reserved) {
        List<OrdinalRange> ranges = new ArrayList<>();
        for (int r : reserved) {
            ranges.add(new OrdinalRange(r, r));
        }
        return ofRanges(replicas, start, OrdinalRange.merged(ranges));
    }

    /** Ordinals {@code start}, {@code start + 1}, ... with none reserved. */
    public static DesiredOrdinals range(int replicas, int start) {
        return ofRanges(replicas, start, List.of());
    }

    private static DesiredOrdinals ofRanges(int replicas, int start, List<OrdinalRange> mergedReserved) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas " + replicas + " is negative");
        }
        if (start < 0) {
            throw new IllegalArgumentException("ordinals.start " + start + " is negative");
        }
        if (replicas == 0) {
            return start == 0 ? NONE : new DesiredOrdinals(start, 0, start - 1L, new int[0], new int[0]);
        }
        long last = (long) start + replicas - 1;
        List<OrdinalRange> holes = new ArrayList<>();
        for (OrdinalRange r : mergedReserved) {
            if (r.to() < start) {
                continue;
            }
            long from = Math.max(r.from(), start);
            if (from > last) {
                break;
            }
            // A reserved ordinal inside the run pushes the run one further; the ranges are ascending, so a later one
            // is looked at against the run as already pushed.
            last += r.to() - from + 1;
            holes.add(new OrdinalRange((int) from, r.to()));
        }
        if (last > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ordinals.start + replicas + reserved ordinals pass "
                    + Integer.MAX_VALUE + ": the last pod would have ordinal " + last);
        }
        int[] holeFrom = new int[holes.size()];
        int[] holeTo = new int[holes.size()];
        for (int i = 0; i < holes.size(); i++) {
            holeFrom[i] = holes.get(i).from();
            holeTo[i] = holes.get(i).to();
        }
        return new DesiredOrdinals(start, replicas, last, holeFrom, holeTo);
    }

    /** How many ordinals are run: {@code spec.replicas}. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean contains(int ordinal) {
        if (ordinal < start || ordinal > last) {
            return false;
        }
        int i = holeAtOrBefore(ordinal);
        return i < 0 || ordinal > holeTo[i];
    }

    /** The lowest ordinal run (past the start when the start ordinal is reserved). */
    public int first() {
        if (size == 0) {
            throw new NoSuchElementException("no ordinal is run");
        }
        return get(0);
    }

    /** The highest ordinal run. */
    public int last() {
        if (size == 0) {
            throw new NoSuchElementException("no ordinal is run");
        }
        return (int) last;
    }

    /** The {@code k}-th ordinal run, counting from 0 in ascending order. */
    public int get(int k) {
        if (k < 0 || k >= size) {
            throw new IndexOutOfBoundsException("ordinal " + k + " of " + size);
        }
        long ordinal = (long) start + k;
        for (int i = 0; i < holeFrom.length && holeFrom[i] <= ordinal; i++) {
            ordinal += (long) holeTo[i] - holeFrom[i] + 1;
        }
        return (int) ordinal;
    }

    /** How many ordinals run are {@code >= ordinal}. */
    public long countFrom(long ordinal) {
        if (size == 0 || ordinal > last) {
            return 0;
        }
        if (ordinal <= start) {
            return size;
        }
        long count = last - ordinal + 1;
        for (int i = 0; i < holeFrom.length; i++) {
            if (holeTo[i] >= ordinal) {
                count -= (long) holeTo[i] - Math.max(holeFrom[i], ordinal) + 1;
            }
        }
        return count;
    }

    /** Ascending; lazily, so walking only the first few costs only those. */
    @Override
    public PrimitiveIterator.OfInt iterator() {
        return new PrimitiveIterator.OfInt() {
            private long next = start;
            private int hole;
            private int returned;

            @Override
            public boolean hasNext() {
                return returned < size;
            }

            @Override
            public int nextInt() {
                if (returned >= size) {
                    throw new NoSuchElementException();
                }
                if (hole < holeFrom.length && next == holeFrom[hole]) {
                    next = holeTo[hole] + 1L;
                    hole++;
                }
                returned++;
                return (int) next++;
            }
        };
    }

    /** The ordinals as ranges, e.g. {@code [0, 2-3, 5-2147483646] (2147483645 in all)}, a few ranges at most. */
    @Override
    public String toString() {
        if (size == 0) {
            return "[]";
        }
        StringBuilder b = new StringBuilder("[");
        long from = start;
        int shown = 0;
        for (int i = 0; i <= holeFrom.length; i++) {
            long to = i < holeFrom.length ? holeFrom[i] - 1L : last;
            if (to >= from) {
                if (shown == SHOWN_SEGMENTS) {
                    b.append(", ...");
                    break;
                }
                b.append(shown == 0 ? "" : ", ").append(from);
                if (to > from) {
                    b.append('-').append(to);
                }
                shown++;
            }
            if (i < holeFrom.length) {
                from = holeTo[i] + 1L;
            }
        }
        b.append(']');
        if (size > 1) {
            b.append(" (").append(size).append(" in all)");
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DesiredOrdinals d && d.start == start && d.size == size && d.last == last
                && Arrays.equals(d.holeFrom, holeFrom) && Arrays.equals(d.holeTo, holeTo);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * start + size) + Arrays.hashCode(holeFrom);
    }

    /** Index of the last hole starting at or before {@code ordinal}, or -1. */
    private int holeAtOrBefore(int ordinal) {
        int i = Arrays.binarySearch(holeFrom, ordinal);
        return i >= 0 ? i : -i - 2;
    }
}
