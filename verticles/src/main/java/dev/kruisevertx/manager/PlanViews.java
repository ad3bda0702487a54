package dev.kruisevertx.manager;

import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A recorded plan as {@code /debug/plans} and {@code /why} show it: JSON-ready maps and a text view. */
final class PlanViews {
    private PlanViews() {
    }

    static Map<String, Object> item(PlanRecorder.Item item) {
        PlanSummary plan = item.entry().plan();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("controller", item.controller());
        m.put("object", item.key());
        m.put("at", item.entry().at().toString());
        if (item.entry().reconcileId() > 0) {
            m.put("reconcileId", item.entry().reconcileId());
            m.put("trigger", item.entry().trigger());
        }
        m.put("summary", plan.summary());
        if (!plan.counts().isEmpty()) {
            m.put("counts", plan.counts());
        }
        if (!plan.actions().isEmpty()) {
            m.put("actions", plan.actions());
        }
        if (plan.omittedActions() > 0) {
            m.put("omittedActions", plan.omittedActions());
        }
        if (!plan.reasons().isEmpty()) {
            m.put("reasons", reasons(plan.reasons()));
        }
        return m;
    }

    static List<Map<String, Object>> reasons(List<BlockReason> reasons) {
        List<Map<String, Object>> out = new ArrayList<>(reasons.size());
        for (BlockReason r : reasons) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("code", r.code().wireName());
            m.put("message", r.message());
            m.put("intended", r.code().intended());
            if (!r.numbers().isEmpty()) {
                m.put("numbers", r.numbers());
            }
            if (!r.objects().isEmpty()) {
                m.put("objects", r.objects());
            }
            out.add(m);
        }
        return out;
    }

    /**
     * One block per plan: "controller namespace/name", then its reconcile, summary, counts, actions and reasons, one
     * per line; the continue token last.
     */
    static String text(PlanRecorder.Page page) {
        StringBuilder b = new StringBuilder();
        for (PlanRecorder.Item item : page.items()) {
            PlanRecorder.Entry e = item.entry();
            PlanSummary plan = e.plan();
            b.append(item.controller()).append(' ').append(item.key()).append('\n');
            b.append("  at ").append(e.at());
            if (e.reconcileId() > 0) {
                b.append(", reconcile r").append(e.reconcileId()).append(" (").append(e.trigger()).append(')');
            }
            b.append('\n');
            b.append("  summary: ").append(plan.summary()).append('\n');
            if (!plan.counts().isEmpty()) {
                b.append("  counts:");
                plan.counts().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
                b.append('\n');
            }
            plan.actions().forEach(a -> b.append("  action: ").append(a).append('\n'));
            if (plan.omittedActions() > 0) {
                b.append("  ... ").append(plan.omittedActions()).append(" more actions\n");
            }
            plan.reasons().forEach(r -> b.append("  held by ").append(r.text()).append('\n'));
        }
        if (page.continueToken() != null) {
            b.append("continue: ").append(page.continueToken()).append('\n');
        }
        return b.toString();
    }
}
