"""Tests of the dpaudit package with the machine's python3 and nothing else (numpy and pandas when present).

The tests that run the tool need its jar (reports/target/dp-audit.jar, built by `mvn package`): Maven runs this file
in the reports module's verify phase, after the jar is built; run alone, they build it on first use through the
launcher. Statistical claims here are about clear cases with fixed seeds: a claim of half the true epsilon is
refuted at 20,000 scores per world for every seed (the audit refutes it at 1,000).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent
REPOSITORY = PACKAGE_ROOT.parent
sys.path.insert(0, str(PACKAGE_ROOT))

import dpaudit  # noqa: E402
from dpaudit import _client  # noqa: E402


def gaussian_scores(seed, n=20000, shift=1.0):
    r = random.Random(seed)
    return [shift + r.gauss(0, 1) for _ in range(n)], [r.gauss(0, 1) for _ in range(n)]


class ArgumentsTest(unittest.TestCase):
    def test_claims_are_pairs_or_dicts(self):
        self.assertEqual(_client._claim_args([(1, 1e-5), {"epsilon": 0.5, "delta": 0}]),
                         ["--claim", "1.0,1e-05", "--claim", "0.5,0.0"])
        with self.assertRaises(dpaudit.DpAuditError):
            _client._claim_args([1.0])

    def test_scores_come_from_any_sequence(self):
        self.assertEqual(_client._values((1, 2.5), "with_scores"), [1.0, 2.5])
        with self.assertRaisesRegex(dpaudit.DpAuditError, "with_scores: no scores"):
            _client._values([], "with_scores")
        with self.assertRaisesRegex(dpaudit.DpAuditError, "without_scores: every score must be a number"):
            _client._values(["a"], "without_scores")

    def test_numpy_arrays_when_numpy_is_there(self):
        try:
            import numpy
        except ImportError:
            self.skipTest("numpy is not installed")
        self.assertEqual(_client._values(numpy.array([0.5, 1.5]), "with_scores"), [0.5, 1.5])
        with self.assertRaisesRegex(dpaudit.DpAuditError, "one-dimensional"):
            _client._values(numpy.zeros((2, 2)), "with_scores")

    def test_a_launcher_that_is_not_there_is_named(self):
        with tempfile.TemporaryDirectory() as empty:
            with self.assertRaisesRegex(dpaudit.DpAuditError, "home = .*neither a dp-audit checkout"):
                dpaudit.launcher(home=empty)

    def test_the_checkout_is_found(self):
        self.assertEqual(dpaudit.launcher(home=REPOSITORY), ["bash", str(REPOSITORY / "dp-audit")])


class WheelTest(unittest.TestCase):
    """The in-tree build backend: a wheel pip can install offline, whose RECORD matches its files."""

    def test_the_wheel_holds_the_package_and_imports(self):
        sys.path.insert(0, str(PACKAGE_ROOT / "build_backend"))
        import dpaudit_build
        self.assertEqual(dpaudit_build.get_requires_for_build_wheel(), [])
        with tempfile.TemporaryDirectory() as d:
            name = dpaudit_build.build_wheel(d)
            self.assertEqual(name, "dpaudit-%s-py3-none-any.whl" % dpaudit.__version__)
            with zipfile.ZipFile(os.path.join(d, name)) as z:
                names = set(z.namelist())
                self.assertIn("dpaudit/__init__.py", names)
                self.assertIn("dpaudit/_client.py", names)
                record = z.read("dpaudit-%s.dist-info/RECORD" % dpaudit.__version__).decode().split()
                self.assertEqual({line.split(",")[0] for line in record}, names)
            probe = ("import sys; sys.path.insert(0, %r); import dpaudit; print(dpaudit.__file__)"
                     % os.path.join(d, name))
            done = subprocess.run([sys.executable, "-I", "-c", probe], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn(name, done.stdout)


class AuditTest(unittest.TestCase):
    """Runs the tool (Java 17 and the jar)."""

    def test_scores_the_readme_example(self):
        with_scores, without_scores = gaussian_scores(1)
        report = dpaudit.audit_scores(with_scores, without_scores, claims=[(0.5, 1e-5), (20, 1e-5)], home=REPOSITORY)
        self.assertTrue(report.violated)
        self.assertEqual([v for _, v in report.verdicts()], ["violated", "inconclusive"])
        self.assertEqual(report["scenario"]["mechanism"]["type"], "external-scores")
        self.assertTrue((report.out_dir / "report.html").is_file())
        self.assertIn("VIOLATED", report.summary)

    def test_a_sequential_audit_stops_early(self):
        with_scores, without_scores = gaussian_scores(2)
        report = dpaudit.audit_scores(with_scores, without_scores, claims=[(0.5, 1e-5)], until_resolved=True,
                                      home=REPOSITORY)
        self.assertTrue(report.violated)
        self.assertEqual(report["stopping"]["stop"], "resolved")
        self.assertLess(report["stopping"]["trialsUsed"], 20000)

    def test_bad_scores_are_one_line_naming_the_array(self):
        with self.assertRaises(dpaudit.DpAuditError) as e:
            dpaudit.audit_scores([1.0, float("nan"), 2.0], [0.0, 1.0, 2.0], claims=[(1, 0)], home=REPOSITORY)
        self.assertEqual(e.exception.exit_code, 2)
        self.assertIn("with_scores, line 2", str(e.exception))
        self.assertEqual(len(str(e.exception).splitlines()), 1)

    def test_a_scenario_dict_runs(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "report"
            report = dpaudit.run({"name": "gaussian", "mechanism": {"type": "gaussian", "sigma": 1}, "trials": 20000,
                                  "seed": 1, "claims": [{"epsilon": 1, "delta": 1e-5}]}, out=out, home=REPOSITORY)
            self.assertTrue(report.violated)
            self.assertEqual(report.out_dir, out)
            self.assertEqual(json.loads((out / "report.json").read_text())["trialsPerWorld"], 20000)

    def test_one_run_scores(self):
        r = random.Random(3)
        included = [2 + r.gauss(0, 1) for _ in range(500)]
        excluded = [r.gauss(0, 1) for _ in range(500)]
        report = dpaudit.audit_scores(included, excluded, claims=[(0.1, 1e-5)], one_run=True, home=REPOSITORY)
        self.assertTrue(report.violated)

    def test_claims_frame_when_pandas_is_there(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed")
        with_scores, without_scores = gaussian_scores(4)
        frame = dpaudit.audit_scores(with_scores, without_scores, claims=[(0.5, 1e-5)],
                                     home=REPOSITORY).claims_frame()
        self.assertEqual(list(frame["verdict"]), ["violated"])


if __name__ == "__main__":
    unittest.main()
