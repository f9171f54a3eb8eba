package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * What {@link FreshnessModel#politeFrequencies(int[], double[], PoliteObjective, boolean, Control)}
 * minimises ({@code CRAWLSCHED_POLITE_*}).
 */
public enum PoliteObjective {
    /** The evenly spaced bound (Theorem 3.3, eqs. 8-9), as {@link FreshnessModel#optimalFrequencies()}. */
    EVENLY_SPACED(NativeApi.POLITE_EVENLY_SPACED),
    /** The randomized policy's cost (eq. 15), as {@link FreshnessModel#randomizedOptimalFrequencies()}. */
    RANDOMIZED(NativeApi.POLITE_RANDOMIZED);

    final int code;

    PoliteObjective(int code) {
        this.code = code;
    }
}
