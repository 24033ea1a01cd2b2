/**
 * The one search engine: the {@link org.hsdag.search.SearchStrategy} contract (propose, observe),
 * the {@link org.hsdag.search.SearchEngine} loop with its limits, cache, failure penalty, final
 * re-measurement and winner rule, and the values it reports. Depends on {@code backend},
 * {@code placement}, {@code memory}, {@code ir} and, of {@code plan}, only the {@link
 * org.hsdag.plan.LatencyModel} interface ({@code LayerRulesTest}); strategies, the tuner, the CLI
 * and bench depend on it, never the other way.
 */
package org.hsdag.search;
