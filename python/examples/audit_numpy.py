# %% [markdown]
# # Auditing a DP claim from Python with dp-audit
# Cells for a notebook (VS Code and Jupytext read the `# %%` markers). Needs numpy, Java 17 and a dp-audit checkout:
# set DPAUDIT_HOME to it, or run this file from inside it.

# %%
import numpy as np
import dpaudit

# %% [markdown]
# The mechanism: a count plus Gaussian noise of σ = 1, its canary moving the count by 1. An attack scores each
# output; here the score is the output itself. 20,000 runs with the canary and 20,000 without.

# %%
rng = np.random.default_rng(0)
with_canary = 1 + rng.normal(0, 1, 20_000)
without_canary = rng.normal(0, 1, 20_000)

# %% [markdown]
# Two claims: (0.5, 1e-5)-DP is false (this mechanism needs ε = 4.38 at δ = 1e-5), and (6, 1e-5)-DP is true, but
# 20,000 scores per world could not have refuted a mechanism with 1.5 times that ε: it reads inconclusive.

# %%
report = dpaudit.audit_scores(with_canary, without_canary, claims=[(0.5, 1e-5), (6, 1e-5)])
for label, verdict in report.verdicts():
    print(label, verdict)
print("empirical epsilon lower bound at delta = 1e-5:", report["empirical"]["epsilonLowerBounds"][0]["epsilon"])
print("the full report:", report.out_dir / "report.html")

# %% [markdown]
# Sequentially, in the arrays' order: the audit stops at the first look that resolves every claim.

# %%
quick = dpaudit.audit_scores(with_canary, without_canary, claims=[(0.5, 1e-5)], until_resolved=True)
print(quick["stopping"]["stop"], "after", quick["stopping"]["trialsUsed"], "scores of each array")

# %% [markdown]
# A scenario: dp-audit simulates the mechanism itself, here one step of DP-SGD's Poisson-subsampled Gaussian
# (q = 0.1, σ = 1: ε = 1.685 at δ = 1e-5), claimed at 0.3.

# %%
scenario = {"name": "dpsgd-step", "mechanism": {"type": "poisson-subsampled-gaussian", "q": 0.1, "sigma": 1},
            "trials": 200_000, "seed": 1, "claims": [{"epsilon": 0.3, "delta": 1e-5}]}
print(dpaudit.run(scenario).verdicts())
