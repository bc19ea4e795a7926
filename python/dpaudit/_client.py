"""Runs the dp-audit command line and reads its report.json back.

Everything dp-audit concludes is computed by the Java tool; this module writes its inputs (score files, a scenario
file), runs it, and returns the report as Python objects. Exit codes of the tool: 0 no claim violated, 3 a claim
violated (both give a Report), 2 bad input, 1 internal error (both raise DpAuditError with the tool's message).
"""
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

OK = 0
VIOLATED = 3


class DpAuditError(Exception):
    """The tool refused the input (exit code 2, its one-line message) or failed (exit code 1), or was not found."""

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.exit_code = exit_code


class Report:
    """One audit's report: report.json as a dict (``data``), the verdicts, and where the report files are.

    ``violated`` is True when some claim was found violated (the tool's exit code 3). ``claims`` lists the claims'
    dicts as report.json gives them (label, epsilon, delta, verdict, power, ...); ``claims_frame()`` gives them as a
    pandas DataFrame when pandas is installed. ``summary`` is the tool's console summary. ``out_dir`` holds
    report.json, report.md and report.html (report.html is missing for a one-run audit).
    """

    def __init__(self, data, exit_code, out_dir, summary):
        self.data = data
        self.exit_code = exit_code
        self.out_dir = Path(out_dir)
        self.summary = summary

    @property
    def violated(self):
        return self.exit_code == VIOLATED

    @property
    def claims(self):
        return list(self.data.get("claims") or [])

    def verdicts(self):
        """[(label, verdict)] for every (epsilon, delta) claim, in order."""
        return [(c.get("label"), c.get("verdict")) for c in self.claims]

    def claims_frame(self):
        """The claims as a pandas DataFrame (one row per claim; nested fields flattened with dots)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("claims_frame() needs pandas; report.claims gives the same rows as dicts") from e
        return pandas.json_normalize(self.claims)

    def __getitem__(self, key):
        return self.data[key]

    def __repr__(self):
        shown = ", ".join("%s: %s" % v for v in self.verdicts()) or "no claims"
        return "<dp-audit report %s (%s)>" % (self.out_dir, shown)


def launcher(home=None):
    """The command that runs dp-audit, as a list: the first of

    1. ``home``: a dp-audit checkout (its ``dp-audit`` launcher script) or the runnable jar ``dp-audit.jar``;
    2. the environment variable ``DPAUDIT_HOME`` (the same);
    3. ``dp-audit`` on the PATH;
    4. the checkout this package was imported from (``python/dpaudit`` inside it).
    """
    candidates = []
    if home is not None:
        candidates.append(("home", Path(home)))
    if os.environ.get("DPAUDIT_HOME"):
        candidates.append(("DPAUDIT_HOME", Path(os.environ["DPAUDIT_HOME"])))
    for source, path in candidates:
        command = _command_at(path)
        if command is None:
            raise DpAuditError("%s = %s: neither a dp-audit checkout (with its dp-audit launcher) nor dp-audit.jar"
                               % (source, path))
        return command
    on_path = shutil.which("dp-audit")
    if on_path:
        return [on_path]
    checkout = Path(__file__).resolve().parent.parent.parent
    command = _command_at(checkout)
    if command is not None:
        return command
    raise DpAuditError("dp-audit not found: pass home= (a dp-audit checkout or dp-audit.jar), set DPAUDIT_HOME, "
                       "or put the dp-audit launcher on the PATH")


def _command_at(path):
    if path.is_file() and path.suffix == ".jar":
        return ["java", "-jar", str(path)]
    script = path / "dp-audit"
    if path.is_dir() and script.is_file():
        return ["bash", str(script)]
    return None


def _claim_args(claims):
    """--claim EPS,DELTA for each claim: a pair (epsilon, delta) or a dict with "epsilon" and "delta"."""
    args = []
    for c in claims or ():
        if isinstance(c, dict):
            eps, delta = c.get("epsilon"), c.get("delta")
        else:
            try:
                eps, delta = c
            except (TypeError, ValueError):
                raise DpAuditError("claims: %r is not an (epsilon, delta) pair" % (c,)) from None
        args += ["--claim", "%r,%r" % (float(eps), float(delta))]
    return args


def _values(scores, name):
    """The scores as floats, from a list, a tuple, any iterable or a numpy array (one dimension)."""
    if hasattr(scores, "ndim") and getattr(scores, "ndim") != 1:
        raise DpAuditError("%s: a one-dimensional array of scores is needed, not shape %s"
                           % (name, getattr(scores, "shape", "?")))
    if hasattr(scores, "tolist"):
        scores = scores.tolist()
    try:
        values = [float(v) for v in scores]
    except (TypeError, ValueError) as e:
        raise DpAuditError("%s: every score must be a number (%s)" % (name, e)) from None
    if not values:
        raise DpAuditError("%s: no scores" % name)
    return values


def _write_scores(path, values):
    with open(path, "w", encoding="utf-8") as f:
        for v in values:
            f.write("nan\n" if math.isnan(v) else repr(v) + "\n")  # the tool names a NaN's file and line


def _option_args(options):
    args = []
    for flag, value in options:
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(repr(float(v)) for v in value)]
        else:
            args += [flag, str(value)]
    return args


def _run_tool(args, out, home, timeout):
    out_dir = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="dp-audit-"))
    if out is None:
        out_dir.rmdir()  # the tool creates it, and refuses to write into a directory of other files
    command = launcher(home) + args + ["--out", str(out_dir), "--quiet"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError as e:
        raise DpAuditError("could not start dp-audit (%s): is Java 17 on the PATH?" % e) from None
    except subprocess.TimeoutExpired:
        raise DpAuditError("dp-audit did not finish within %s s" % timeout) from None
    if done.returncode not in (OK, VIOLATED):
        message = done.stderr.strip() or done.stdout.strip() or "no message"
        raise DpAuditError(message.splitlines()[-1] if done.returncode == 2 else message, done.returncode)
    with open(out_dir / "report.json", encoding="utf-8") as f:
        data = json.load(f)
    return Report(data, done.returncode, out_dir, done.stdout)


def audit_scores(with_scores, without_scores, claims=(), one_run=False, *, confidence=None, deltas=None,
                 epsilons=None, direction="higher", seed=None, until_resolved=False, max_trials=None, out=None,
                 home=None, extra_args=(), timeout=None):
    """Audits two arrays of per-trial scores (``dp-audit scores``) and returns the Report.

    with_scores: the scores of runs with the canary (higher means "looks like with", unless direction="lower");
    without_scores: those of runs without it. claims: (epsilon, delta) pairs to judge. one_run: the arrays are the
    scores of the canaries of one training run, included and not (Steinke, Nasr & Jagielski 2023). until_resolved:
    audit the scores sequentially in their order, stopping once every claim is resolved (max_trials: at most that
    many of each). out: the report directory (a new temporary one by default). home: where dp-audit is (see
    launcher()). The other options are the command's (``dp-audit scores --help``).
    """
    with_values = _values(with_scores, "with_scores")
    without_values = _values(without_scores, "without_scores")
    with tempfile.TemporaryDirectory(prefix="dp-audit-scores-") as work:
        with_path = os.path.join(work, "with.txt")
        without_path = os.path.join(work, "without.txt")
        _write_scores(with_path, with_values)
        _write_scores(without_path, without_values)
        args = ["scores", "--with", with_path, "--without", without_path] + _claim_args(claims)
        args += _option_args([("--one-run", bool(one_run)), ("--confidence", confidence), ("--deltas", deltas),
                              ("--epsilons", epsilons), ("--direction", direction), ("--seed", seed),
                              ("--until-resolved", bool(until_resolved)), ("--max-trials", max_trials)])
        try:
            return _run_tool(args + list(extra_args), out, home, timeout)
        except DpAuditError as e:  # name the arrays, not the temporary files that held them
            message = str(e).replace(with_path, "with_scores").replace(without_path, "without_scores")
            raise DpAuditError(message, e.exit_code) from None


def run(scenario, *, trials=None, seed=None, until_resolved=False, max_trials=None, threads=None, out=None,
        home=None, extra_args=(), timeout=None):
    """Runs a scenario (``dp-audit run``): a dict in the scenario format, or the path of a scenario file.

    trials, seed, threads override the scenario's; until_resolved audits sequentially up to max_trials (else the
    scenario's trials) per world. Returns the Report.
    """
    if isinstance(scenario, dict):
        with tempfile.TemporaryDirectory(prefix="dp-audit-scenario-") as work:
            path = os.path.join(work, "scenario.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(scenario, f)
            return _run(path, trials, seed, until_resolved, max_trials, threads, out, home, extra_args, timeout)
    path = Path(scenario)
    if not path.is_file():
        raise DpAuditError("scenario: %s is neither a dict nor a scenario file" % (scenario,))
    return _run(str(path), trials, seed, until_resolved, max_trials, threads, out, home, extra_args, timeout)


def _run(path, trials, seed, until_resolved, max_trials, threads, out, home, extra_args, timeout):
    args = ["run", path] + _option_args([("--trials", trials), ("--seed", seed), ("--threads", threads),
                                         ("--until-resolved", bool(until_resolved)), ("--max-trials", max_trials)])
    return _run_tool(args + list(extra_args), out, home, timeout)
