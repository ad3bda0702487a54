package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watch cache's informer transform (controller-runtime's {@code cache.TransformFunc}): applied once to every
 * object the informer stores, before any index, handler or reader sees it, so that the one cached copy is lean.
 * <ul>
 *   <li>{@code metadata.managedFields} is dropped from every kind (no controller or webhook reads it; an update that
 *       omits it leaves the server's intact);</li>
 *   <li>the {@value #LAST_APPLIED} annotation is dropped from Pods (the bulk of the cache). Writes that start from a
 *       cached Pod must therefore send only their changes ({@link dev.kruisevertx.kube.ObjectEdits} does), never the
 *       whole cached object, or the server's copy would lose the annotation;</li>
 *   <li>repeated strings are shared through a bounded {@link SlotInterner}, maps of strings (labels, annotations,
 *       resource quantities) are rebuilt at their exact size, and the per-object "additional properties" map, empty
 *       for every well-formed object, becomes the shared empty map.</li>
 * </ul>
 * Everything is changed in place: the object is the informer's own freshly decoded instance, not yet shared.
 * Values are never changed, only replaced by equal ones, so {@code equals} and serialisation are unaffected.
 * Only model classes (fabric8's and this project's) are walked; anything else is left as decoded.
 */
public final class LeanObjects {
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final Logger LOG = LoggerFactory.getLogger(LeanObjects.class);
    private static final String FABRIC8_MODEL = "io.fabric8.kubernetes.api.model";
    private static final String PROJECT_MODEL = "dev.kruisevertx.api";
    /** Deeper than any real object; stops a pathological (cyclic or hostile) structure from recursing forever. */
    private static final int MAX_DEPTH = 64;

    private final SlotInterner interner;
    private final Map<Class<?>, Field[]> plans = new ConcurrentHashMap<>();

    public LeanObjects(SlotInterner interner) {
        this.interner = interner;
    }

    /** With a table of 2^16 slots (256 KiB), enough for the distinct repeated values of a large cluster. */
    public static LeanObjects withDefaultInterner() {
        return new LeanObjects(new SlotInterner(16));
    }

    /** Makes {@code obj} lean in place and returns it. */
    public <T extends HasMetadata> T apply(T obj) {
        if (obj == null) {
            return null;
        }
        ObjectMeta meta = obj.getMetadata();
        if (meta != null) {
            meta.setManagedFields(Collections.emptyList());
            if (obj instanceof Pod && meta.getAnnotations() != null && meta.getAnnotations().containsKey(LAST_APPLIED)) {
                meta.getAnnotations().remove(LAST_APPLIED);
            }
        }
        if (obj instanceof GenericKubernetesResource) {
            // Its content is untyped maps the informer's users read by path: only the metadata is typed.
            walk(meta, 0);
        } else {
            walk(obj, 0);
        }
        return obj;
    }

    public SlotInterner interner() {
        return interner;
    }

    private void walk(Object o, int depth) {
        if (o == null || depth > MAX_DEPTH) {
            return;
        }
        Field[] fields = plans.computeIfAbsent(o.getClass(), LeanObjects::planOf);
        for (Field f : fields) {
            try {
                Object v = f.get(o);
                if (v == null) {
                    continue;
                }
                Object lean = lean(f.getName(), v, depth);
                if (lean != v) {
                    f.set(o, lean);
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // A field that refuses is left as decoded; the object stays correct, only less lean.
                LOG.debug("cache transform skipped {}.{}: {}", o.getClass().getSimpleName(), f.getName(), e.toString());
            }
        }
    }

    private Object lean(String fieldName, Object v, int depth) {
        if (v instanceof String s) {
            return interner.intern(s);
        }
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                return "additionalProperties".equals(fieldName) ? Collections.emptyMap() : m;
            }
            return leanMap(m, depth);
        }
        if (v instanceof List<?> l) {
            leanList(l, depth);
            return l;
        }
        if (isModel(v.getClass())) {
            walk(v, depth + 1);
        }
        return v;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Map<?, ?> leanMap(Map<?, ?> m, int depth) {
        if (!(m instanceof LinkedHashMap)) {
            return m; // a sorted or special map keeps its type
        }
        LinkedHashMap out = new LinkedHashMap<>(Math.max(2, (int) (m.size() / 0.75f) + 1));
        for (Map.Entry<?, ?> e : m.entrySet()) {
            Object k = e.getKey() instanceof String s ? interner.intern(s) : e.getKey();
            Object v = e.getValue();
            if (v instanceof String s) {
                v = interner.intern(s);
            } else if (v != null && isModel(v.getClass())) {
                walk(v, depth + 1);
            }
            out.put(k, v);
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void leanList(List<?> l, int depth) {
        if (!(l instanceof ArrayList)) {
            return;
        }
        List raw = l;
        for (int i = 0, n = raw.size(); i < n; i++) {
            Object v = raw.get(i);
            if (v instanceof String s) {
                raw.set(i, interner.intern(s));
            } else if (v != null && isModel(v.getClass())) {
                walk(v, depth + 1);
            }
        }
        ((ArrayList<?>) l).trimToSize();
    }

    private static boolean isModel(Class<?> c) {
        String n = c.getName();
        return n.startsWith(FABRIC8_MODEL) || n.startsWith(PROJECT_MODEL);
    }

    private static Field[] planOf(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            if (!isModel(k)) {
                continue;
            }
            for (Field f : k.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || Modifier.isFinal(mod) || f.getType().isPrimitive()) {
                    continue;
                }
                Class<?> t = f.getType();
                if (t != String.class && !Map.class.isAssignableFrom(t) && !List.class.isAssignableFrom(t)
                        && !isModel(t) && t != Object.class) {
                    continue; // numbers, booleans, enums: nothing to share
                }
                try {
                    f.setAccessible(true);
                    out.add(f);
                } catch (InaccessibleObjectException | SecurityException e) {
                    LOG.debug("cache transform cannot reach {}.{}", k.getSimpleName(), f.getName());
                }
            }
        }
        return out.toArray(new Field[0]);
    }
}
