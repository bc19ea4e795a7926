package io.dpaudit.runner;

import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.model.AuditableMechanism;
import java.util.List;
import java.util.Map;

/**
 * The analytic bounds of mechanism configurations, computed once per configuration (its type and every parameter)
 * and shared by the audits that use it: the scenarios of a directory run that differ only in their claims (seed 003's
 * four claims of one DP-Fed setting, say), or the pinned scenarios of the test suite. Bounds are immutable, and the
 * accountants behind them synchronise their own caches, so sharing them across threads is safe. One cache per run,
 * passed in; nothing is kept between runs. It holds the {@value #CONFIGURATIONS} configurations used last (a composed
 * accountant's distributions take megabytes; a directory's sibling scenarios are read in order, so they meet here).
 */
public final class BoundCache {
    /** Configurations kept. */
    public static final int CONFIGURATIONS = 8;

    private final Map<Map<String, Object>, List<PrivacyBound>> bounds = new java.util.LinkedHashMap<>(16, 0.75f,
            true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, Object>, List<PrivacyBound>> eldest) {
            return size() > CONFIGURATIONS;
        }
    };

    /** The bounds of {@code m}, computed (reporting to {@code progress}) unless its configuration is held. */
    public List<PrivacyBound> bounds(AuditableMechanism m, ProgressListener progress) {
        Map<String, Object> key = Map.copyOf(m.parameters().values());
        List<PrivacyBound> found;
        synchronized (bounds) {
            found = bounds.get(key);
        }
        if (found != null) {
            progress.onPhase("prepare", "the analytic bounds of this configuration, computed before");
            return found;
        }
        List<PrivacyBound> computed = m.bounds(progress);
        synchronized (bounds) {
            List<PrivacyBound> raced = bounds.putIfAbsent(key, computed);
            return raced != null ? raced : computed;
        }
    }
}
