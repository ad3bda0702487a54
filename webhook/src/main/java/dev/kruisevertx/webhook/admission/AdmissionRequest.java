package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One admission request as the API server sent it (admission.k8s.io v1 or v1beta1, same fields).
 *
 * @param reviewApiVersion the AdmissionReview apiVersion, echoed in the response
 * @param uid              request uid, echoed in the response
 * @param group            group of the object's kind ({@code ""} for core)
 * @param version          version of the object's kind
 * @param kind             kind of the object
 * @param resource         resource (plural), e.g. {@code pods}
 * @param subResource      sub-resource or {@code ""}
 * @param name             object name ({@code ""} when generated)
 * @param namespace        namespace or {@code ""}
 * @param operation        CREATE, UPDATE, DELETE or CONNECT
 * @param object           the new object, or null (DELETE)
 * @param oldObject        the old object, or null (CREATE)
 * @param dryRun           true when nothing may be persisted
 * @param userInfo         the requesting user, or null
 */
public record AdmissionRequest(
        String reviewApiVersion,
        String uid,
        String group,
        String version,
        String kind,
        String resource,
        String subResource,
        String name,
        String namespace,
        String operation,
        ObjectNode object,
        ObjectNode oldObject,
        boolean dryRun,
        JsonNode userInfo) {

    public static final String CREATE = "CREATE";
    public static final String UPDATE = "UPDATE";
    public static final String DELETE = "DELETE";

    public boolean isCreate() {
        return CREATE.equals(operation);
    }

    public boolean isUpdate() {
        return UPDATE.equals(operation);
    }

    public boolean isDelete() {
        return DELETE.equals(operation);
    }

    /** The user name of the requester, or {@code ""}. */
    public String username() {
        return userInfo == null ? "" : userInfo.path("username").asText("");
    }
}
