package io.crawlsched;

import java.util.Arrays;

/**
 * The optimal plan under per-host caps, from
 * {@link FreshnessModel#politeFrequencies(int[], double[], PoliteObjective, boolean, Control)}.
 * The arrays are fresh for each plan and owned by the caller; equality,
 * hash code and {@code toString} look at their contents.
 *
 * @param frequencies one share of the crawls per page, in input order:
 *     summing to 1, or to {@code crawlRate * E[X] < 1} with slack
 * @param saturated per host, whether its cap binds (the host gets exactly
 *     {@code maxRates[h] / crawlRate} of the crawls)
 * @param lnHostMultipliers per host, ln of the multiplier its pages are
 *     solved at ({@code lnMultiplier} where the host is not saturated)
 * @param lnMultiplier ln of the budget's multiplier; {@code -Infinity}
 *     with slack (the budget does not bind)
 * @param objective sum c_i r_i at the plan under the chosen objective
 * @param crawlRate crawls per unit time the plan spends: 1/E[X], or the
 *     sum of the caps with slack
 */
public record PolitePlan(double[] frequencies, boolean[] saturated, double[] lnHostMultipliers,
        double lnMultiplier, double objective, double crawlRate) {
    @Override
    public boolean equals(Object o) {
        return o instanceof PolitePlan p && Arrays.equals(frequencies, p.frequencies)
                && Arrays.equals(saturated, p.saturated) && Arrays.equals(lnHostMultipliers, p.lnHostMultipliers)
                && Double.compare(lnMultiplier, p.lnMultiplier) == 0 && Double.compare(objective, p.objective) == 0
                && Double.compare(crawlRate, p.crawlRate) == 0;
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(frequencies);
        h = 31 * h + Arrays.hashCode(saturated);
        h = 31 * h + Arrays.hashCode(lnHostMultipliers);
        h = 31 * h + Double.hashCode(lnMultiplier);
        h = 31 * h + Double.hashCode(objective);
        return 31 * h + Double.hashCode(crawlRate);
    }

    @Override
    public String toString() {
        return "PolitePlan[frequencies=" + Arrays.toString(frequencies) + ", saturated=" + Arrays.toString(saturated)
                + ", lnHostMultipliers=" + Arrays.toString(lnHostMultipliers) + ", lnMultiplier=" + lnMultiplier
                + ", objective=" + objective + ", crawlRate=" + crawlRate + "]";
    }
}
