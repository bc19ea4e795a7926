package io.dpaudit.attacks.learned;

/**
 * For one-dimensional outputs: the output's value itself, oriented so that higher means "more like D" (the sign of
 * the difference of the two worlds' fitting means). Not a log-odds, but a monotone score is all a threshold test
 * needs, and it keeps the plain threshold on the value — which no fitted model should lose to — among the candidates:
 * a tail where one world never goes (noisy max returning the value, whose exponential noise is one-sided) is found by
 * a threshold on the value, while a model fitted for log-loss spends itself on the bulk.
 */
final class ValueModel implements ScoreModel {
    private final double sign;

    private ValueModel(double sign) {
        this.sign = sign;
    }

    static ValueModel fit(TrainingSample s) {
        double with = 0;
        double without = 0;
        for (int i = 0; i < s.fitCount(); i++) {
            with += s.fitWith()[i];
            without += s.fitWithout()[i];
        }
        return new ValueModel(with >= without ? 1.0 : -1.0);
    }

    @Override
    public double score(double[] outputs, int offset) {
        double v = sign * outputs[offset];
        return Double.isNaN(v) ? 0.0 : v;
    }

    @Override
    public String description() {
        return sign > 0 ? "the output's value" : "minus the output's value";
    }
}
