package dev.kruisevertx.sim.controllers;

import io.fabric8.kubernetes.api.model.IntOrString;

/** kube's {@code GetScaledValueFromIntOrPercent}: an int, or a percent of a total rounded up or down. */
final class IntOrPercent {
    private IntOrPercent() {
    }

    static int resolve(IntOrString value, String fallback, int total, boolean roundUp) {
        if (value == null) {
            value = new IntOrString(fallback);
        }
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        String s = value.getStrVal() == null ? fallback : value.getStrVal();
        if (!s.endsWith("%")) {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid value for IntOrString: invalid value \"" + s + "\": must be an int or a percent");
            }
        }
        int percent = Integer.parseInt(s.substring(0, s.length() - 1));
        long scaled = (long) percent * total;
        return (int) (roundUp ? (scaled + 99) / 100 : scaled / 100);
    }
}
