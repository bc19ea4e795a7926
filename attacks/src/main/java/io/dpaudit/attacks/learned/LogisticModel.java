package io.dpaudit.attacks.learned;

import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * L2-regularised logistic regression of the world on {@link Features}, fitted by Newton's method (iteratively
 * reweighted least squares): each step solves {@code (X^T W X + lambda I) d = X^T (y - p) - lambda w} by a Cholesky
 * factorisation (EJML), with a halving line search on the penalised log-likelihood. At most
 * {@value #MAX_ROWS_PER_WORLD} outputs per world enter the fit (the first ones of the fitting sample), so a step costs
 * {@code O(rows x features^2)}. The ridge {@code lambda = 1e-4} per row keeps the system positive definite when the
 * worlds separate perfectly (a buggy mechanism can make them) and barely moves a well-posed fit.
 */
final class LogisticModel implements ScoreModel {
    static final int MAX_ROWS_PER_WORLD = 1 << 17;
    private static final int MAX_ITERATIONS = 30;
    private static final double RIDGE_PER_ROW = 1e-4;

    private final Features features;
    private final double[] weights;
    private final int iterations;
    private final int rows;

    private LogisticModel(Features features, double[] weights, int iterations, int rows) {
        this.features = features;
        this.weights = weights;
        this.iterations = iterations;
        this.rows = rows;
    }

    static LogisticModel fit(TrainingSample s) {
        Features f = Features.of(s);
        int p = f.count();
        int perWorld = Math.min(s.fitCount(), MAX_ROWS_PER_WORLD);
        int n = 2 * perWorld;
        double[] x = new double[n * p];
        double[] y = new double[n];
        double[] row = new double[p];
        for (int i = 0; i < perWorld; i++) {
            f.compute(s.fitWith(), i * s.length(), row);
            System.arraycopy(row, 0, x, i * p, p);
            y[i] = 1;
            f.compute(s.fitWithout(), i * s.length(), row);
            System.arraycopy(row, 0, x, (perWorld + i) * p, p);
        }
        double lambda = RIDGE_PER_ROW * n;
        double[] w = new double[p];
        double[] eta = new double[n];
        double objective = penalisedLoss(x, y, w, eta, n, p, lambda);
        LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(p);
        DMatrixRMaj hessian = new DMatrixRMaj(p, p);
        DMatrixRMaj gradient = new DMatrixRMaj(p, 1);
        DMatrixRMaj step = new DMatrixRMaj(p, 1);
        int it = 0;
        for (; it < MAX_ITERATIONS; it++) {
            hessian.zero();
            gradient.zero();
            double[] h = hessian.data;
            double[] g = gradient.data;
            for (int i = 0; i < n; i++) {
                double prob = sigmoid(eta[i]);
                double weight = Math.max(prob * (1 - prob), 1e-12);
                double residual = y[i] - prob;
                int base = i * p;
                for (int a = 0; a < p; a++) {
                    double xa = x[base + a];
                    if (xa == 0) {
                        continue;
                    }
                    g[a] += xa * residual;
                    double wa = weight * xa;
                    for (int b = a; b < p; b++) {
                        h[a * p + b] += wa * x[base + b];
                    }
                }
            }
            for (int a = 0; a < p; a++) {
                for (int b = 0; b < a; b++) {
                    h[a * p + b] = h[b * p + a];
                }
                if (a > 0) { // the constant is not penalised
                    h[a * p + a] += lambda;
                    g[a] -= lambda * w[a];
                } else {
                    h[0] += 1e-9 * n;
                }
            }
            if (!solver.setA(hessian)) {
                break; // not positive definite: keep the last weights
            }
            solver.solve(gradient, step);
            double t = 1.0;
            double[] trial = new double[p];
            double trialObjective = Double.POSITIVE_INFINITY;
            for (int halving = 0; halving < 30; halving++) {
                for (int a = 0; a < p; a++) {
                    trial[a] = w[a] + t * step.data[a];
                }
                trialObjective = penalisedLoss(x, y, trial, eta, n, p, lambda);
                if (trialObjective <= objective) {
                    break;
                }
                t /= 2;
            }
            if (!(trialObjective <= objective)) {
                penalisedLoss(x, y, w, eta, n, p, lambda); // restore eta
                break;
            }
            double change = 0;
            for (int a = 0; a < p; a++) {
                change = Math.max(change, Math.abs(trial[a] - w[a]));
            }
            w = trial;
            double improvement = objective - trialObjective;
            objective = trialObjective;
            if (change < 1e-9 || improvement < 1e-12 * Math.max(1, objective)) {
                it++;
                break;
            }
        }
        return new LogisticModel(f, w, it, n);
    }

    /** Mean negative log-likelihood plus the ridge, and {@code eta = X w} as a side effect. */
    private static double penalisedLoss(double[] x, double[] y, double[] w, double[] eta, int n, int p,
            double lambda) {
        double loss = 0;
        for (int i = 0; i < n; i++) {
            double e = 0;
            int base = i * p;
            for (int a = 0; a < p; a++) {
                e += x[base + a] * w[a];
            }
            eta[i] = e;
            loss += y[i] > 0.5 ? softplus(-e) : softplus(e);
        }
        double ridge = 0;
        for (int a = 1; a < p; a++) {
            ridge += w[a] * w[a];
        }
        return loss + 0.5 * lambda * ridge;
    }

    static double sigmoid(double e) {
        return e >= 0 ? 1 / (1 + Math.exp(-e)) : Math.exp(e) / (1 + Math.exp(e));
    }

    /** {@code log(1 + e^x)} without overflow. */
    static double softplus(double x) {
        return x > 30 ? x : (x < -30 ? Math.exp(x) : Math.log1p(Math.exp(x)));
    }

    @Override
    public double score(double[] outputs, int offset) {
        return features.dot(weights, outputs, offset);
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "logistic regression on %s, Newton, %d iterations on %d outputs",
                features.describe(), iterations, rows);
    }
}
