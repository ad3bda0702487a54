package dev.kruisevertx.bench.cache;

import dev.kruisevertx.cache.LeanDecodingClient;
import dev.kruisevertx.cache.LeanObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What the watch cache pays per listed or watched Pod before storing it: decoding a realistic pod
 * ({@link RealisticPods}, ~10.7 KB with managedFields as kube-apiserver writes them) and the {@link LeanObjects}
 * transform. {@code whole}: fabric8's default serialization (the cache before {@link LeanDecodingClient});
 * {@code lean}: the cache's serialization, which skips managedFields at the parser. Run with {@code -prof gc} for the
 * bytes allocated per pod, a figure the machine's load does not change.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PodDecodeBenchmark {
    /** Distinct pods decoded in turn, so that no single document's strings stay hot in the interner or caches. */
    private static final int PODS = 256;

    @Param({"whole", "lean"})
    public String decoding;

    private KubernetesSerialization serialization;
    private LeanObjects transform;
    private byte[][] pods;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        serialization = "lean".equals(decoding) ? LeanDecodingClient.serialization() : new KubernetesSerialization();
        transform = LeanObjects.withDefaultInterner();
        RealisticPods source = new RealisticPods();
        pods = new byte[PODS][];
        for (int i = 0; i < PODS; i++) {
            pods[i] = source.json(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    @Benchmark
    public Pod decode() {
        return serialization.unmarshal(new ByteArrayInputStream(pods[nextIndex()]), Pod.class);
    }

    /** Decoding plus the transform: what a cached pod costs before the store. */
    @Benchmark
    public Pod decodeAndTransform() {
        return transform.apply(decode());
    }

    private int nextIndex() {
        int i = next;
        next = (i + 1) % PODS;
        return i;
    }
}
