package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * One add + get + done per operation on a queue that holds {@code keys} distinct keys the whole time: the key
 * handed out is finished and added back at the tail, so every operation forgets one key and learns it anew, as
 * a controller does when each object changes once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SingleThreadThroughputBenchmark {

    @Param({"1000", "100000", "1000000"})
    public int keys;

    private WorkQueue<String> queue;

    @Setup(Level.Trial)
    public void fill() {
        queue = MeteredQueues.create("throughput");
        for (String k : MeteredQueues.keys(keys)) {
            queue.add(k);
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        queue.shutDown();
    }

    @Benchmark
    public String addGetDone() {
        String k = queue.poll();
        queue.done(k);
        queue.add(k);
        return k;
    }
}
