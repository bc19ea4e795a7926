"""dp-audit from Python.

    import dpaudit
    report = dpaudit.audit_scores(with_scores, without_scores, claims=[(1.0, 1e-5)])
    print(report.verdicts(), report.violated)

audit_scores() audits two arrays of per-trial scores (lists or numpy arrays), run() a scenario (a dict or a file);
both run the dp-audit tool (Java 17) and return its report.json as a Report. See python/README.md.
"""
from ._client import DpAuditError, Report, audit_scores, launcher, run

__version__ = "0.2.0"
__all__ = ["audit_scores", "run", "Report", "DpAuditError", "launcher"]
