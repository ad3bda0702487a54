package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Objects;

/** Hashes of one running container, as kruise-daemon reports them (kubelet's container hashes fit in 64 bits). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RuntimeContainerHashes extends UnknownFields {
    /** Hash of the container spec, as kubelet computes it. */
    private long plainHash;
    /** Same hash with the resources zeroed. */
    private long plainHashWithoutResources;
    /** Hash of the spec after env values from labels/annotations were resolved; omitted when 0. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private long extractedEnvFromMetadataHash;

    public long getPlainHash() {
        return plainHash;
    }

    public void setPlainHash(long plainHash) {
        this.plainHash = plainHash;
    }

    public long getPlainHashWithoutResources() {
        return plainHashWithoutResources;
    }

    public void setPlainHashWithoutResources(long plainHashWithoutResources) {
        this.plainHashWithoutResources = plainHashWithoutResources;
    }

    public long getExtractedEnvFromMetadataHash() {
        return extractedEnvFromMetadataHash;
    }

    public void setExtractedEnvFromMetadataHash(long extractedEnvFromMetadataHash) {
        this.extractedEnvFromMetadataHash = extractedEnvFromMetadataHash;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RuntimeContainerHashes that)) return false;
        return plainHash == that.plainHash && plainHashWithoutResources == that.plainHashWithoutResources
                && extractedEnvFromMetadataHash == that.extractedEnvFromMetadataHash && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(plainHash, plainHashWithoutResources, extractedEnvFromMetadataHash, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "RuntimeContainerHashes{plainHash=" + plainHash + ", plainHashWithoutResources="
                + plainHashWithoutResources + ", extractedEnvFromMetadataHash=" + extractedEnvFromMetadataHash + '}';
    }
}
