package dev.kruisevertx.sim.nodes;

/**
 * How the probes of containers whose image matches {@code pattern} (a glob as in {@link ImageRule}) answer:
 * {@code kind} picks readiness, liveness or startup probes (null: all three), whatever their handler (exec,
 * httpGet, tcpSocket, grpc). {@code FLAP} answers {@code flapEvery} probes successfully, then as many unsuccessfully,
 * and so on. Probes no rule matches succeed.
 */
public record ProbeRule(String pattern, Kind kind, Result result, int flapEvery) {
    public enum Kind { READINESS, LIVENESS, STARTUP }

    public enum Result { PASS, FAIL, FLAP }

    public ProbeRule {
        new ImageRule(pattern, null, null); // validates the pattern
        if (result == null) {
            throw new IllegalArgumentException("a probe rule needs a result");
        }
        if (result == Result.FLAP && flapEvery < 1) {
            throw new IllegalArgumentException("a flapping probe rule needs flapEvery >= 1, got " + flapEvery);
        }
    }

    public ProbeRule(String pattern, Kind kind, Result result) {
        this(pattern, kind, result, 1);
    }

    boolean matches(String image, Kind probe) {
        return (kind == null || kind == probe) && new ImageRule(pattern, null, null).matches(image);
    }

    /** The answer of the {@code k}-th probe (from 0). */
    boolean succeeds(long k) {
        return switch (result) {
            case PASS -> true;
            case FAIL -> false;
            case FLAP -> (k / flapEvery) % 2 == 0;
        };
    }
}
