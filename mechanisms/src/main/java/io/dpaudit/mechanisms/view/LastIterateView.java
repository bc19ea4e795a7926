package io.dpaudit.mechanisms.view;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A DP-SGD sampler audited through its last iterate ({@code "view": "last-iterate"}): the adversary sees only the
 * final model of a linear loss with a constant canary gradient — the sum of the T E noisy releases — instead of every
 * release ({@code "view": "transcript"}, the default). The pair is {@link LastIteratePair}'s (formula sheet §16.1).
 *
 * <p>What carries over from the transcript: its <em>certified upper bounds</em>, since the last iterate is a
 * post-processing of the transcript; its lower bounds, exact pair profiles and candidate or known-wrong accountings do
 * not (hiding the iterates can only lower the privacy loss), and its costly bracket is not computed here. What the
 * view adds:
 * <ul>
 *   <li>{@code last-iterate-exact}: the exact profile of the simulated pair ({@link CountMixtureProfile}), kind
 *       pair-profile (a lower bound on the worst case over all losses, which need not be linear);</li>
 *   <li>{@code last-iterate-heuristic}: Steinke et al.'s heuristic (ICLR 2025, arXiv 2410.06186) — the same linear
 *       pair offered as the privacy of the final model for any loss — kind approximation: proven for none, violated
 *       by crafted gradients and non-convex losses (Cebere, Bellet &amp; Papernot, ICLR 2025; Annamalai, arXiv
 *       2407.06496). For this linear canary it coincides with the exact profile by construction.</li>
 * </ul>
 */
public final class LastIterateView extends FinalModelView {
    /** The scenario parameter naming the view. */
    public static final String PARAMETER = "view";
    /** The default view: every release. */
    public static final String TRANSCRIPT = "transcript";
    /** Only the sum of the releases, the final model of a linear loss. */
    public static final String LAST_ITERATE = "last-iterate";
    /** The scenario parameter naming the canary's gradient in the last-iterate view. */
    public static final String CANARY = "canary";
    /** The same unit gradient along one direction in every step (a linear loss). */
    public static final String CONSTANT = "constant";
    /** A gradient crafted per step along its own orthogonal direction: the final model keeps every release. */
    public static final String CRAFTED = "crafted";
    /** The exact profile's name. */
    public static final String EXACT = "last-iterate-exact";
    /** The heuristic's name. */
    public static final String HEURISTIC = "last-iterate-heuristic";

    private final DoubleFunction<LastIteratePair> atSigma;
    private final double sigma;
    private final LastIteratePair pair;
    private List<BoundFamily> families;

    private LastIterateView(AuditableMechanism transcript, DoubleFunction<LastIteratePair> atSigma, double sigma) {
        super(transcript);
        this.atSigma = atSigma;
        this.sigma = sigma;
        this.pair = atSigma.apply(sigma);
    }

    /**
     * The mechanism in the view {@code p} asks for ({@value #PARAMETER}: {@value #TRANSCRIPT} or {@value
     * #LAST_ITERATE}).
     *
     * @param atSigma the last-iterate pair at a noise parameter (for the heuristic's calibration)
     * @param sigma the noise parameter as given
     */
    public static AuditableMechanism of(Parameters p, AuditableMechanism transcript,
            DoubleFunction<LastIteratePair> atSigma, double sigma) {
        String view = p.text(PARAMETER, TRANSCRIPT);
        if (!view.equals(TRANSCRIPT) && !view.equals(LAST_ITERATE)) {
            throw new InvalidInputException(p.field(PARAMETER), view, "must be " + TRANSCRIPT + " (every release) or "
                    + LAST_ITERATE + " (the final model only)");
        }
        String canary = p.text(CANARY, CONSTANT);
        if (!canary.equals(CONSTANT) && !canary.equals(CRAFTED)) {
            throw new InvalidInputException(p.field(CANARY), canary, "must be " + CONSTANT + " (one gradient every "
                    + "step: a linear loss) or " + CRAFTED + " (a gradient crafted per step along its own direction)");
        }
        if (view.equals(TRANSCRIPT)) {
            if (p.values().containsKey(CANARY)) {
                throw new InvalidInputException(p.field(CANARY), canary, "applies to view " + LAST_ITERATE);
            }
            return transcript;
        }
        return canary.equals(CRAFTED) ? new CraftedCanaryView(transcript, atSigma, sigma)
                : new LastIterateView(transcript, atSigma, sigma);
    }

    /** The simulated pair. */
    public LastIteratePair pair() {
        return pair;
    }

    @Override
    public MechanismSimulator reduced() {
        return LastIterateSimulators.reduced(pair);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        return LastIterateSimulators.summed(transcript.faithful(options, datasetRng), pair);
    }

    /** The transcript's certified upper bounds (each computed once) and the heuristic. */
    @Override
    public synchronized List<BoundFamily> boundFamilies() {
        if (families != null) {
            return families;
        }
        List<BoundFamily> out = new ArrayList<>();
        for (BoundFamily f : transcript.boundFamilies()) {
            if (!f.costly()) {
                PrivacyBound here = f.atCurrent();
                if (here.kind() == BoundKind.UPPER_BOUND) {
                    out.add(new BoundFamily(f.name(), f.source(), f.parameter(), f.current(),
                            s -> s == f.current() ? here : f.at().apply(s), f.calibrator(), false));
                }
            }
        }
        out.add(new BoundFamily(HEURISTIC, heuristic(pair).source(), CalibrationParameter.SIGMA, sigma,
                s -> heuristic(atSigma.apply(s))));
        families = List.copyOf(out);
        return families;
    }

    @Override
    public List<PrivacyBound> otherBounds() {
        List<PrivacyBound> out = new ArrayList<>();
        for (PrivacyBound b : transcript.otherBounds()) {
            if (b.kind() == BoundKind.UPPER_BOUND) {
                out.add(b);
            }
        }
        out.add(new CountMixtureProfile(EXACT, BoundKind.PAIR_PROFILE, "exact profile of the simulated last-iterate "
                + "pair, " + pair.describe() + " (both directions; dp-audit formula sheet 16.1)", pair.withCanary(),
                pair.withoutCanary(), pair.noise()));
        return out;
    }

    @Override
    public String referenceBound() {
        return EXACT;
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add("View: last iterate. The adversary sees only the final model of a linear loss with a constant canary "
                + "gradient, the sum of the " + roundsPerTrial() + " noisy releases (" + pair.describe() + "), not "
                + "each release. The transcript's certified upper bounds still hold (post-processing); its lower "
                + "bounds do not. last-iterate-heuristic is Steinke et al.'s heuristic for the final model of any "
                + "loss, exact here by construction and proven for none.");
        return notes;
    }

    /** Steinke et al.'s heuristic at this pair ({@value #HEURISTIC}, kind approximation). */
    public static PrivacyBound heuristic(LastIteratePair p) {
        return new CountMixtureProfile(HEURISTIC, BoundKind.APPROXIMATION, "Steinke et al., The Last Iterate "
                + "Advantage (ICLR 2025, arXiv 2410.06186): the final model's privacy taken to be that of a linear "
                + "loss, " + p.describe() + "; a heuristic, proven for no loss class, violated by crafted gradients "
                + "(Cebere, Bellet & Papernot, ICLR 2025)", p.withCanary(), p.withoutCanary(), p.noise());
    }
}
