package io.dpaudit.mechanisms.view;

import io.dpaudit.core.bounds.BoundFamily;
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
 * The last iterate with a crafted gradient canary ({@code "view": "last-iterate", "canary": "crafted"}): in the
 * gradient-canary threat model (Cebere, Bellet &amp; Papernot, ICLR 2025) the canary's gradient at step t is the unit
 * vector of a direction no other step and no other record uses, so the final model of a linear update holds each
 * step's release on its own coordinate (scaled by the step size), and the last iterate is the transcript. Its
 * simulators, bounds and reference are the transcript's, lower bounds included (they are bounds of this very pair);
 * Steinke et al.'s heuristic is added as the claim this canary refutes: {@code last-iterate-heuristic}, the linear
 * constant-gradient pair's profile, which is far below the transcript's.
 */
final class CraftedCanaryView extends FinalModelView {
    private final DoubleFunction<LastIteratePair> atSigma;
    private final double sigma;

    CraftedCanaryView(AuditableMechanism transcript, DoubleFunction<LastIteratePair> atSigma, double sigma) {
        super(transcript);
        this.atSigma = atSigma;
        this.sigma = sigma;
    }

    @Override
    public MechanismSimulator reduced() {
        return transcript.reduced();
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        return transcript.faithful(options, datasetRng);
    }

    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> out = new ArrayList<>(transcript.boundFamilies());
        out.add(new BoundFamily(LastIterateView.HEURISTIC, LastIterateView.heuristic(atSigma.apply(sigma)).source(),
                CalibrationParameter.SIGMA, sigma, s -> LastIterateView.heuristic(atSigma.apply(s))));
        return out;
    }

    @Override
    public List<PrivacyBound> otherBounds() {
        return transcript.otherBounds();
    }

    @Override
    public String referenceBound() {
        return transcript.referenceBound();
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add("View: last iterate with a crafted gradient canary (Cebere, Bellet & Papernot 2025): the canary's "
                + "gradient at each step lies along a direction of its own, so the final model keeps every release "
                + "and its privacy is the transcript's. last-iterate-heuristic (Steinke et al. 2025) is the linear "
                + "constant-gradient pair's privacy, offered for the final model of any loss: this canary is the "
                + "counterexample.");
        notes.addAll(transcript.notes());
        return notes;
    }
}
