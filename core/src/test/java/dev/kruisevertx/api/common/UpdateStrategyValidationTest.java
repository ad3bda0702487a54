package dev.kruisevertx.api.common;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UpdateStrategyValidationTest {
    private static LabelSelector labels(String k, String v) {
        return new LabelSelectorBuilder().withMatchLabels(Map.of(k, v)).build();
    }

    private static UpdatePriorityStrategy weights(UpdatePriorityWeightTerm... terms) {
        UpdatePriorityStrategy s = new UpdatePriorityStrategy();
        s.setWeightPriority(List.of(terms));
        return s;
    }

    @Test
    void validPriorityStrategies() {
        assertEquals(Optional.empty(), weights(new UpdatePriorityWeightTerm(50, labels("a", "b"))).fieldsValidation());
        UpdatePriorityStrategy order = new UpdatePriorityStrategy();
        order.setOrderPriority(List.of(new UpdatePriorityOrderTerm("key1"), new UpdatePriorityOrderTerm("key2")));
        assertEquals(Optional.empty(), order.fieldsValidation());
        assertEquals(Optional.empty(), new UpdatePriorityStrategy().fieldsValidation());
    }

    @Test
    void invalidPriorityStrategies() {
        UpdatePriorityStrategy both = weights(new UpdatePriorityWeightTerm(50, labels("a", "b")));
        both.setOrderPriority(List.of(new UpdatePriorityOrderTerm("key1")));
        assertEquals(Optional.of("only one of weightPriority and orderPriority can be used"), both.fieldsValidation());

        assertEquals(Optional.of("weight must be valid number in the range 1-100"),
                weights(new UpdatePriorityWeightTerm(101, labels("a", "b"))).fieldsValidation());
        assertEquals(Optional.of("selector can not be empty"),
                weights(new UpdatePriorityWeightTerm(10, new LabelSelector())).fieldsValidation());
        LabelSelector badOp = new LabelSelectorBuilder().addNewMatchExpression().withKey("a").withOperator("Has")
                .endMatchExpression().build();
        assertEquals(Optional.of("invalid selector \"Has\" is not a valid label selector operator"),
                weights(new UpdatePriorityWeightTerm(10, badOp)).fieldsValidation());
        LabelSelector inWithoutValues = new LabelSelectorBuilder().addNewMatchExpression().withKey("a")
                .withOperator("In").endMatchExpression().build();
        assertEquals(Optional.of("invalid selector for 'in', 'notin' operators, values set can't be empty"),
                weights(new UpdatePriorityWeightTerm(10, inWithoutValues)).fieldsValidation());

        UpdatePriorityStrategy emptyKey = new UpdatePriorityStrategy();
        emptyKey.setOrderPriority(List.of(new UpdatePriorityOrderTerm("")));
        assertEquals(Optional.of("order key can not be empty"), emptyKey.fieldsValidation());
    }

    @Test
    void scatterStrategies() {
        assertEquals(Optional.empty(), UpdateScatterTerm.validateStrategy(null));
        assertEquals(Optional.empty(), UpdateScatterTerm.validateStrategy(
                List.of(new UpdateScatterTerm("zone", "a"), new UpdateScatterTerm("zone", "b"))));
        assertEquals(Optional.of("key should not be empty"),
                UpdateScatterTerm.validateStrategy(List.of(new UpdateScatterTerm("", "a"))));
        assertEquals(Optional.of("duplicated key=zone value=a"), UpdateScatterTerm.validateStrategy(
                List.of(new UpdateScatterTerm("zone", "a"), new UpdateScatterTerm("zone", "a"))));
    }
}
