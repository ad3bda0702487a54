package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * A storm of adds of one key (an object that changes constantly). Alone, every add after the first is a
 * de-duplicated no-op; with a worker taking and finishing the key concurrently, adds alternate between
 * "queue it" and "mark it dirty while processing".
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HotKeyBenchmark {

    private static final String HOT = "default/hot";

    private WorkQueue<String> queue;

    @Setup(Level.Trial)
    public void create() {
        queue = MeteredQueues.create("hot");
    }

    @TearDown(Level.Trial)
    public void stop() {
        queue.shutDown();
    }

    @Benchmark
    @Group("addOnly")
    @GroupThreads(1)
    public void addSameKey() {
        queue.add(HOT);
    }

    @Benchmark
    @Group("addWhileWorking")
    @GroupThreads(1)
    public void adder() {
        queue.add(HOT);
    }

    @Benchmark
    @Group("addWhileWorking")
    @GroupThreads(1)
    public String worker() {
        String k = queue.poll();
        if (k != null) {
            queue.done(k);
        }
        return k;
    }
}
