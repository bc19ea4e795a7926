package io.dpaudit.mechanisms.zoo;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.blackbox.BlackBoxSampler;
import io.dpaudit.core.blackbox.BlackBoxSimulator;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One configuration of a zoo algorithm on a neighbouring pair of query-answer vectors: the algorithm runs as a black
 * box (no law of its output is stated, so only the generic attacks apply), and its bounds are the privacy its source
 * claims — certified for the correct algorithms, {@code known-wrong} for the buggy ones — plus what is known to hold
 * instead where there is something (the exact Laplace profile; Lyu et al.'s ε for Algorithm 4).
 */
final class ZooMechanism implements AuditableMechanism {
    private final String type;
    private final Parameters parameters;
    private final String adjacency;
    private final BlackBoxMechanism<double[]> algorithm;
    private final double[] withCanary;
    private final double[] withoutCanary;
    private final int outputLength;
    private final String description;
    private final List<PrivacyBound> bounds;
    private final List<String> notes;

    ZooMechanism(String type, Parameters parameters, String adjacency, BlackBoxMechanism<double[]> algorithm,
            double[] withCanary, double[] withoutCanary, int outputLength, String description,
            List<PrivacyBound> bounds, List<String> notes) {
        this.type = type;
        this.parameters = parameters;
        this.adjacency = adjacency;
        this.algorithm = algorithm;
        this.withCanary = withCanary.clone();
        this.withoutCanary = withoutCanary.clone();
        this.outputLength = outputLength;
        this.description = description;
        this.bounds = List.copyOf(bounds);
        this.notes = List.copyOf(notes);
    }

    /** One release: the zoo's algorithms answer once. */
    @Override
    public long roundsPerTrial() {
        return 1;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return adjacency;
    }

    /** The algorithm itself, run as a black box (there is no reduced form: the algorithm is the simulator). */
    @Override
    public MechanismSimulator reduced() {
        return BlackBoxSimulator.of(new BlackBoxSampler<>(algorithm, withCanary, withoutCanary, outputLength,
                description + "; D = [" + text(withCanary) + "], D' = [" + text(withoutCanary) + "]"));
    }

    /** The same as {@link #reduced()}: the algorithm is already explicit. */
    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(java.util.Set.of("kind"));
        return reduced();
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        return List.of();
    }

    @Override
    public List<PrivacyBound> otherBounds() {
        return bounds;
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    static String text(double[] v) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ", ").append(io.dpaudit.core.Checks.format(v[i]));
        }
        return b.toString();
    }

    /**
     * A vector parameter written as comma-separated numbers ({@code "1,1,1,1,1"}), or a single number; finite, at most
     * {@value #MAX_QUERIES} entries.
     */
    static double[] vector(Parameters p, String name, double[] defaultValue) {
        if (!p.has(name)) {
            if (defaultValue == null) {
                throw InvalidInputException.missing(p.field(name));
            }
            return defaultValue.clone();
        }
        Object v = p.values().get(name);
        if (v instanceof Double d) {
            return finite(p, name, new double[] {d});
        }
        String s = ((String) v).strip();
        String[] parts = s.isEmpty() ? new String[0] : s.split("\\s*,\\s*", -1);
        if (parts.length == 0 || parts.length > MAX_QUERIES) {
            throw new InvalidInputException(p.field(name), s, "must list 1 to " + MAX_QUERIES
                    + " comma-separated numbers");
        }
        double[] out = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Double.parseDouble(parts[i]);
            } catch (NumberFormatException e) {
                throw new InvalidInputException(p.field(name), s, "entry " + (i + 1) + " (" + parts[i]
                        + ") is not a number");
            }
        }
        return finite(p, name, out);
    }

    /** Most queries a zoo configuration takes. */
    static final int MAX_QUERIES = 64;

    private static double[] finite(Parameters p, String name, double[] v) {
        for (double x : v) {
            if (!Double.isFinite(x) || Math.abs(x) > 1e12) {
                throw new InvalidInputException(p.field(name), Arrays.toString(v),
                        "entries must be finite numbers of magnitude at most 1e12");
            }
        }
        return v;
    }
}
