package dev.kruisevertx.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keys waiting for their due time, served by one daemon thread per queue, never a thread or timer per key.
 *
 * <p>Near keys (due within {@link #SLOTS} ms) sit in a timer wheel of 1 ms slots, so adding and releasing one
 * costs O(1) however many wait; keys due later wait in a binary min-heap and reach the wheel or the queue
 * from there. The thread sleeps until the next non-empty slot (or the heap's head), then hands every due key
 * to the queue in batches; a key is released at its exact due time, not at the end of its slot. A key waits
 * here at most once: a second delayed add keeps whichever due time is earlier.
 *
 * <p>Adders never touch the wheel. They push onto a lock-free inbox (one CAS) and wake the thread only when
 * the inbox was empty or their key is due before the time it sleeps until; the thread moves the inbox into
 * the wheel a chunk at a time, releasing due keys in between, so a storm of delayed adds neither blocks adders
 * nor delays keys falling due.
 *
 * <p>The thread starts with the first delayed add, so queues that never delay cost no thread.
 */
final class DelayedAdds<K> {

    /** Keys handed to the queue per queue-lock round trip, and inbox keys filed per round. */
    private static final int BATCH = 1024;
    private static final long TICK_NANOS = 1_000_000L;
    /** Wheel size: 4096 slots of 1 ms cover delays up to ~4 s, which is where retries and requeues cluster. */
    static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;

    private static final class Waiting<K> extends KeyTable.Node<K> {
        long dueAt;
        /** Position in the heap, or -1 while in the wheel. */
        int index = -1;
        Waiting<K> prev;
        /** Link in the inbox, then in a wheel slot. */
        Waiting<K> next;

        Waiting(K key, long dueAt) {
            super(key);
            this.dueAt = dueAt;
        }
    }

    private final String threadName;
    private final Ticker ticker;
    private final java.util.function.Consumer<List<K>> sink;

    /** Newest first; the thread reverses it to keep add order. */
    private final AtomicReference<Waiting<K>> inbox = new AtomicReference<>();
    private volatile Thread thread;
    private volatile boolean stopped;
    /** True while the thread is (about to be) parked; the adder that flips it back wakes the thread. */
    private final java.util.concurrent.atomic.AtomicBoolean parked = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean parkedWithDeadline;
    private volatile long parkedUntil;

    // Everything below is guarded by heapLock: taken by the thread and by callers of releaseDue/size.
    private final ReentrantLock heapLock = new ReentrantLock();
    private final KeyTable<K, Waiting<K>> byKey = new KeyTable<>();
    /** Inbox keys taken but not filed yet, oldest first. */
    private Waiting<K> pending;
    /** The newest of {@link #pending}, so appending an inbox costs nothing however far filing lags behind. */
    private Waiting<K> pendingTail;
    @SuppressWarnings("unchecked")
    private final Waiting<K>[] slotHead = (Waiting<K>[]) new Waiting[SLOTS];
    @SuppressWarnings("unchecked")
    private final Waiting<K>[] slotTail = (Waiting<K>[]) new Waiting[SLOTS];
    private int inWheel;
    /** The first tick whose slot may still hold keys; slots before it have been released. */
    private long cursor;
    @SuppressWarnings("unchecked")
    private Waiting<K>[] heap = (Waiting<K>[]) new Waiting[16];
    private int size;

    /** Tests drive releases themselves through {@link #releaseDue}; no thread then races with them. */
    private final boolean manual;

    DelayedAdds(String threadName, Ticker ticker, java.util.function.Consumer<List<K>> sink, boolean manual) {
        this.manual = manual;
        this.threadName = threadName;
        this.ticker = ticker;
        this.sink = sink;
        this.cursor = tick(ticker.nanoTime());
    }

    void schedule(K key, long dueAt) {
        if (stopped) {
            return;
        }
        Waiting<K> w = new Waiting<>(key, dueAt);
        Waiting<K> top;
        do {
            top = inbox.get();
            w.next = top;
        } while (!inbox.compareAndSet(top, w));
        if (manual) {
            // File at once, as the thread would, so that a later add of the same key merges with this one.
            releaseDue();
            return;
        }
        Thread t = thread;
        if (t == null) {
            t = startThread();
        }
        // Wake the thread for a key due before its alarm, and also when the inbox was empty: filing promptly
        // is what merges repeated adds of one key, so a sleeping thread must not let the inbox pile up.
        boolean wake = top == null || !parkedWithDeadline || dueAt - parkedUntil < 0;
        if (wake && parked.get() && parked.compareAndSet(true, false)) {
            LockSupport.unpark(t);
        }
    }

    /** Keys waiting, including those not yet moved into the heap. */
    int size() {
        // Filing the inbox may find keys already due; they go to the queue rather than being counted.
        releaseDue();
        heapLock.lock();
        try {
            return size + inWheel;
        } finally {
            heapLock.unlock();
        }
    }

    /** Moves every key due by now into the queue on the caller's thread; returns how many moved. */
    int releaseDue() {
        List<K> batch = new ArrayList<>();
        int moved = 0;
        while (true) {
            heapLock.lock();
            try {
                takeInbox();
                long now = ticker.nanoTime();
                // Release what is due before filing more: filing a storm of adds must not hold back due keys.
                takeDue(now, batch);
                fileSome(now, batch);
            } finally {
                heapLock.unlock();
            }
            if (batch.isEmpty() && pending == null) {
                return moved;
            }
            sink.accept(batch);
            moved += batch.size();
            batch.clear();
        }
    }

    void stop() {
        stopped = true;
        heapLock.lock();
        try {
            inbox.set(null);
            pending = null;
            pendingTail = null;
            byKey.clear();
            Arrays.fill(heap, 0, size, null);
            size = 0;
            Arrays.fill(slotHead, null);
            Arrays.fill(slotTail, null);
            inWheel = 0;
        } finally {
            heapLock.unlock();
        }
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private synchronized Thread startThread() {
        if (thread == null) {
            Thread t = new Thread(this::run, threadName);
            t.setDaemon(true);
            thread = t;
            t.start();
        }
        return thread;
    }

    private void run() {
        List<K> batch = new ArrayList<>(BATCH);
        while (!stopped) {
            long wakeAt = 0;
            boolean hasDeadline = false;
            boolean more;
            heapLock.lock();
            try {
                takeInbox();
                long now = ticker.nanoTime();
                // Release what is due before filing more: filing a storm of adds must not hold back due keys.
                takeDue(now, batch);
                fileSome(now, batch);
                more = !batch.isEmpty() || pending != null;
                if (!more && (inWheel > 0 || size > 0)) {
                    hasDeadline = true;
                    wakeAt = nextDueBound(now);
                }
                parkedWithDeadline = hasDeadline;
                parkedUntil = wakeAt;
            } finally {
                heapLock.unlock();
            }
            if (!batch.isEmpty()) {
                sink.accept(batch);
                batch.clear();
            }
            if (more) {
                continue;
            }
            parked.set(true);
            // Re-check after announcing the park: an adder that pushed before seeing "parked" did not wake us.
            if (inbox.get() != null || stopped) {
                parked.set(false);
                continue;
            }
            if (hasDeadline) {
                long wait = wakeAt - ticker.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                }
            } else {
                LockSupport.park(this);
            }
            parked.set(false);
        }
    }

    /** Takes the whole inbox and appends it, oldest first, to the keys waiting to be filed. */
    private void takeInbox() {
        Waiting<K> w = inbox.getAndSet(null);
        if (w == null) {
            return;
        }
        Waiting<K> newest = w;
        Waiting<K> reversed = null;
        while (w != null) {
            Waiting<K> following = w.next;
            w.next = reversed;
            reversed = w;
            w = following;
        }
        if (pending == null) {
            pending = reversed;
        } else {
            pendingTail.next = reversed;
        }
        pendingTail = newest;
    }

    /** Files up to one batch of pending keys; keys already due go straight into {@code due}. */
    private void fileSome(long now, List<K> due) {
        for (int n = 0; n < BATCH && pending != null; n++) {
            Waiting<K> w = pending;
            pending = w.next;
            if (pending == null) {
                pendingTail = null;
            }
            w.next = null;
            // A key not due yet is registered by the same probe that looks for an earlier add of it (most delayed
            // keys are new); a key already due is only looked up, since it leaves at once.
            boolean dueNow = w.dueAt - now <= 0;
            Waiting<K> existing = dueNow ? byKey.get(w.key) : byKey.putIfAbsent(w);
            if (existing != null) {
                if (w.dueAt - existing.dueAt >= 0) {
                    continue;
                }
                unfile(existing);
                existing.dueAt = w.dueAt;
                w = existing;
            }
            if (w.dueAt - now <= 0) {
                if (existing != null) {
                    byKey.remove(existing);
                }
                due.add(w.key);
            } else {
                file(w);
            }
        }
    }

    private void file(Waiting<K> w) {
        long t = tick(w.dueAt);
        if (t - cursor >= SLOTS) {
            heapAdd(w);
            return;
        }
        int slot = (int) (Math.max(t, cursor) & MASK);
        w.index = -1;
        w.next = null;
        w.prev = slotTail[slot];
        if (slotTail[slot] == null) {
            slotHead[slot] = w;
        } else {
            slotTail[slot].next = w;
        }
        slotTail[slot] = w;
        inWheel++;
    }

    private void unfile(Waiting<K> w) {
        if (w.index >= 0) {
            heapRemove(w.index);
            return;
        }
        int slot = (int) (Math.max(tick(w.dueAt), cursor) & MASK);
        if (w.prev == null) {
            slotHead[slot] = w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            slotTail[slot] = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
        inWheel--;
    }

    /** Moves keys due by {@code now} into {@code batch}, at most one batch. */
    private void takeDue(long now, List<K> batch) {
        long nowTick = tick(now);
        // Heap keys first: bring those now within the wheel's reach into it, release the due ones.
        while (size > 0 && tick(heap[0].dueAt) - cursor < SLOTS && batch.size() < BATCH) {
            Waiting<K> w = heap[0];
            heapRemove(0);
            if (w.dueAt - now <= 0) {
                byKey.remove(w);
                batch.add(w.key);
            } else {
                file(w);
            }
        }
        // Whole slots before the current tick are due.
        while (cursor < nowTick && batch.size() < BATCH) {
            if (inWheel == 0) {
                // Nothing in the wheel: skip straight to now, or to where the heap's head enters the wheel.
                long target = size == 0 ? nowTick : Math.min(nowTick, tick(heap[0].dueAt) - SLOTS + 1);
                if (target > cursor) {
                    cursor = target;
                    while (size > 0 && tick(heap[0].dueAt) - cursor < SLOTS) {
                        Waiting<K> w = heap[0];
                        heapRemove(0);
                        if (w.dueAt - now <= 0) {
                            byKey.remove(w);
                            batch.add(w.key);
                        } else {
                            file(w);
                        }
                    }
                    continue;
                }
            }
            if (!drainSlot((int) (cursor & MASK), Long.MAX_VALUE, now, batch)) {
                return;
            }
            cursor++;
            // Keys past the horizon of the old cursor may now belong to the wheel.
            while (size > 0 && tick(heap[0].dueAt) - cursor < SLOTS) {
                Waiting<K> w = heap[0];
                heapRemove(0);
                file(w);
            }
        }
        if (cursor == nowTick && batch.size() < BATCH) {
            drainSlot((int) (cursor & MASK), now, now, batch);
        }
    }

    /**
     * Releases the keys of one slot due by {@code limit}; false if the batch filled up before the slot was
     * empty of such keys.
     */
    private boolean drainSlot(int slot, long limit, long now, List<K> batch) {
        Waiting<K> w = slotHead[slot];
        while (w != null) {
            Waiting<K> following = w.next;
            if (limit == Long.MAX_VALUE || w.dueAt - limit <= 0) {
                if (batch.size() >= BATCH) {
                    return false;
                }
                unfile(w);
                byKey.remove(w);
                batch.add(w.key);
            }
            w = following;
        }
        return true;
    }

    /** When the thread must look again: the earliest key of the current slot or the next non-empty slot. */
    private long nextDueBound(long now) {
        long bound = size > 0 ? heap[0].dueAt - (long) SLOTS * TICK_NANOS : Long.MAX_VALUE;
        if (size > 0 && bound - now < 0) {
            bound = now + TICK_NANOS;
        }
        if (inWheel > 0) {
            int slot = (int) (cursor & MASK);
            for (Waiting<K> w = slotHead[slot]; w != null; w = w.next) {
                if (w.dueAt - bound < 0) {
                    bound = w.dueAt;
                }
            }
            for (long t = cursor + 1; t < cursor + SLOTS; t++) {
                if (slotHead[(int) (t & MASK)] != null) {
                    long start = t * TICK_NANOS;
                    if (start - bound < 0) {
                        bound = start;
                    }
                    break;
                }
            }
        }
        return bound;
    }

    private static long tick(long nanos) {
        return Math.floorDiv(nanos, TICK_NANOS);
    }

    private void heapAdd(Waiting<K> w) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size << 1);
        }
        siftUp(size++, w);
    }

    private void heapRemove(int i) {
        Waiting<K> removed = heap[i];
        Waiting<K> last = heap[--size];
        heap[size] = null;
        if (i != size) {
            siftDown(i, last);
            if (heap[i] == last) {
                siftUp(i, last);
            }
        }
        removed.index = -1;
    }

    private static boolean before(Waiting<?> a, Waiting<?> b) {
        return a.dueAt - b.dueAt < 0;
    }

    private void siftUp(int i, Waiting<K> w) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Waiting<K> p = heap[parent];
            if (!before(w, p)) {
                break;
            }
            place(i, p);
            i = parent;
        }
        place(i, w);
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
            place(i, c);
            i = child;
        }
        place(i, w);
    }

    /** Puts {@code w} at slot {@code i}; each entry knows its slot so a cancel removes it without a search. */
    private void place(int i, Waiting<K> w) {
        heap[i] = w;
        w.index = i;
    }

    /** For tests: waits until the waiting thread has exited after {@link #stop}. */
    boolean awaitThreadExit(long timeout, TimeUnit unit) throws InterruptedException {
        Thread t = thread;
        if (t == null) {
            return true;
        }
        t.join(unit.toMillis(timeout));
        return !t.isAlive();
    }
}
