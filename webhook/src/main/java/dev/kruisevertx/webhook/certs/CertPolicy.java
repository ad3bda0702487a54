package dev.kruisevertx.webhook.certs;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.TemporalAmount;

/**
 * Lifetimes and renewal rules for generated certificates.
 *
 * @param certValidity   how long a new serving certificate is valid
 * @param caValidity     how long a new CA is valid
 * @param caMinRemaining a CA is reused only if it stays valid at least this long (OpenKruise: one year)
 * @param renewBefore    certificates expiring within this are replaced
 * @param clock          time source
 */
public record CertPolicy(Duration certValidity, Duration caValidity, Duration caMinRemaining,
                         TemporalAmount renewBefore, Clock clock) {
}
