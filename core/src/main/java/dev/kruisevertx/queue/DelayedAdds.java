package dev.kruisevertx.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Keys waiting for their due time, in one binary min-heap served by one daemon thread that sleeps until the
 * earliest due time and then hands every due key to the queue in batches. A key waits here at most once: a
 * second delayed add keeps whichever due time is earlier.
 *
 * <p>The thread starts with the first delayed add, so queues that never delay cost no thread.
 */
final class DelayedAdds<K> {

    /** Keys handed to the queue per lock round trip; bounds how long the heap lock is held. */
    private static final int BATCH = 1024;

    private static final class Waiting<K> {
        final K key;
        long dueAt;
        /** Breaks ties between equal due times so keys due together come out in the order they were added. */
        final long seq;
        int index;

        Waiting(K key, long dueAt, long seq) {
            this.key = key;
            this.dueAt = dueAt;
            this.seq = seq;
        }
    }

    private final String threadName;
    private final Ticker ticker;
    private final Consumer<List<K>> sink;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<K, Waiting<K>> byKey = new HashMap<>();
    @SuppressWarnings("unchecked")
    private Waiting<K>[] heap = (Waiting<K>[]) new Waiting[16];
    private int size;
    private long seq;
    private Thread thread;
    private boolean stopped;

    DelayedAdds(String threadName, Ticker ticker, Consumer<List<K>> sink) {
        this.threadName = threadName;
        this.ticker = ticker;
        this.sink = sink;
    }

    void schedule(K key, long dueAt) {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            Waiting<K> w = byKey.get(key);
            if (w != null) {
                if (dueAt - w.dueAt < 0) {
                    w.dueAt = dueAt;
                    siftUp(w.index, w);
                    if (w.index == 0) {
                        changed.signal();
                    }
                }
                return;
            }
            w = new Waiting<>(key, dueAt, seq++);
            byKey.put(key, w);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size << 1);
            }
            siftUp(size++, w);
            if (w.index == 0) {
                if (thread == null) {
                    thread = new Thread(this::run, threadName);
                    thread.setDaemon(true);
                    thread.start();
                }
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /** Moves every key due by now into the queue on the caller's thread; returns how many moved. */
    int releaseDue() {
        List<K> batch = new ArrayList<>();
        int moved = 0;
        while (true) {
            lock.lock();
            try {
                takeDue(ticker.nanoTime(), batch);
            } finally {
                lock.unlock();
            }
            if (batch.isEmpty()) {
                return moved;
            }
            sink.accept(batch);
            moved += batch.size();
            batch.clear();
        }
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            byKey.clear();
            Arrays.fill(heap, 0, size, null);
            size = 0;
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        List<K> batch = new ArrayList<>(BATCH);
        lock.lock();
        try {
            while (!stopped) {
                long now = ticker.nanoTime();
                if (size > 0 && heap[0].dueAt - now <= 0) {
                    takeDue(now, batch);
                    lock.unlock();
                    try {
                        sink.accept(batch);
                    } finally {
                        batch.clear();
                        lock.lock();
                    }
                } else if (size == 0) {
                    changed.await();
                } else {
                    changed.awaitNanos(heap[0].dueAt - now);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void takeDue(long now, List<K> batch) {
        while (size > 0 && batch.size() < BATCH && heap[0].dueAt - now <= 0) {
            Waiting<K> w = heap[0];
            Waiting<K> last = heap[--size];
            heap[size] = null;
            if (size > 0) {
                siftDown(0, last);
            }
            byKey.remove(w.key);
            batch.add(w.key);
        }
    }

    private static boolean before(Waiting<?> a, Waiting<?> b) {
        long d = a.dueAt - b.dueAt;
        return d < 0 || (d == 0 && a.seq < b.seq);
    }

    private void siftUp(int i, Waiting<K> w) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Waiting<K> p = heap[parent];
            if (!before(w, p)) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = w;
        w.index = i;
    }

    private void siftDown(int i, Waiting<K> w) {
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Waiting<K> c = heap[child];
            int right = child + 1;
            if (right < size && before(heap[right], c)) {
                child = right;
                c = heap[child];
            }
            if (!before(c, w)) {
                break;
            }
            heap[i] = c;
            c.index = i;
            i = child;
        }
        heap[i] = w;
        w.index = i;
    }

    /** For tests: waits until the waiting thread has exited after {@link #stop}. */
    boolean awaitThreadExit(long timeout, TimeUnit unit) throws InterruptedException {
        Thread t;
        lock.lock();
        try {
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t == null) {
            return true;
        }
        t.join(unit.toMillis(timeout));
        return !t.isAlive();
    }
}
