package dev.kruisevertx.sim.nodes;

/**
 * Containers whose image matches {@code pattern} (a glob as in {@link ImageRule}) end as {@code exit} says, when
 * their pod's restartPolicy is Never or OnFailure; containers of restartPolicy Always pods keep running.
 */
public record ExitRule(String pattern, ContainerExit exit) {
    public ExitRule {
        if (exit == null) {
            throw new IllegalArgumentException("an exit rule needs an exit");
        }
        new ImageRule(pattern, null, null);
    }

    public boolean matches(String image) {
        return new ImageRule(pattern, null, null).matches(image);
    }
}
