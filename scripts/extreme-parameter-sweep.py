#!/usr/bin/env python3
"""Runs `bound` and `calibrate` of every mechanism type over extreme but legal (and some illegal) parameters, and
reports any answer that is not a clean one.

A clean answer is exit 0 with no NaN printed, or exit 2 with one line on standard error (a refusal naming the field,
or the time budget's "--max-seconds = S: the work did not finish"); never another exit code, a stack trace or an
"internal error". Each command runs with `--quiet` and `--max-seconds` (default 40), so a slow one ends as a budget
refusal, which counts as clean, and the harness kills any that outlives the budget by 20 s (a hang).

For each type (one modest base instance each), the cases are:
  * `bound` at --delta 1e-5, 1e-300 and 0.999999, and at --epsilon 0 and 1000;
  * `bound --delta 1e-5` and `calibrate --epsilon 1 --delta 1e-5` with one parameter moved to an extreme:
    sigma 1e-12 .. 1e100, eps0 1e-12 .. 20, rounds 1e5 and 1e6, q, p, p0 at 1e-12 and 1, steps 1 and 1e5,
    clients 2 and 1e9 (a parameter the type does not take is refused, which is clean too).

Usage: python3 scripts/extreme-parameter-sweep.py [--jar reports/target/dp-audit.jar] [--max-seconds 40] [--types T...]
Prints one line per unclean answer, the commands that ended as budget refusals, and a summary; exits 1 if there was any. On 2026-11-27, 765
cases in 19 minutes on two cores: 316 answered, 440 refused, 9 budget refusals, none unclean.
"""
import argparse
import os
import subprocess
import sys
import time

BASE = {
    'gaussian': 'sigma=1',
    'poisson-subsampled-gaussian': 'q=0.01 sigma=1',
    'random-participation': 'p=0.1 q=0.1 d=10 sigma=1',
    'fixed-size-subsampled-gaussian': 'clients=100 selected=10 sigma=1',
    'dp-fed': 'clients=100 selected=10 sigma=1',
    'dp-fed-ls': 'clients=100 selected=10 sigma=1',
    'dss-sgd': 'clients=100 q=0.1 eps0=1',
    'shuffled-randomizer': 'clients=100 eps0=1',
    'random-checkin': 'clients=100 slots=10 p0=0.5 eps0=1',
    'random-checkin-averaged': 'clients=100 slots=10 p0=0.5 eps0=1',
    'random-checkin-sliding': 'clients=100 slots=10 p0=0.5 eps0=1',
    'prifedsync': 'clients=2 records=10 batch=5 sigma=1 p=0.5',
    'shuffled-batches': 'steps=10 sigma=1',
    'balls-and-bins': 'steps=10 sigma=1',
    'random-allocation': 'steps=10 sigma=1 k=2',
    'deterministic-batches': 'steps=10 sigma=1',
    'poisson-batches': 'steps=10 sigma=1',
}
EXTREMES = {
    'sigma': ['1e-12', '1e-6', '1e-3', '1e6', '1e100'],
    'eps0': ['1e-12', '20', '0.001'],
    'rounds': ['1000000', '100000'],
    'q': ['1e-12', '1'],
    'p': ['1e-12', '1'],
    'p0': ['1e-12', '1'],
    'steps': ['100000', '1'],
    'clients': ['1000000000', '2'],
}
TARGETS = [['--delta', '1e-5'], ['--epsilon', '1000'], ['--delta', '1e-300'], ['--epsilon', '0'],
           ['--delta', '0.999999']]


def cases(types):
    for kind, base in BASE.items():
        if types and kind not in types:
            continue
        params = dict(x.split('=') for x in base.split())
        for target in TARGETS:
            yield 'bound', kind, params, target
        for key, values in EXTREMES.items():
            for value in values:
                moved = dict(params)
                moved[key] = value
                yield 'bound', kind, moved, ['--delta', '1e-5']
                yield 'calibrate', kind, moved, ['--epsilon', '1', '--delta', '1e-5']


def problems_of(result):
    err = result.stderr.strip()
    found = []
    if result.returncode not in (0, 2):
        found.append('exit %d' % result.returncode)
    if 'Exception' in err or '\tat ' in err or 'internal error' in err:
        found.append('stack trace')
    if result.returncode == 2 and '\n' in err:
        found.append('more than one line')
    if result.returncode == 0 and ' nan' in result.stdout.lower():
        found.append('NaN printed')
    return found


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--jar', default=os.path.join(here, 'reports', 'target', 'dp-audit.jar'))
    ap.add_argument('--max-seconds', type=int, default=40)
    ap.add_argument('--types', nargs='*', help='only these mechanism types (default: all)')
    args = ap.parse_args()
    if not os.path.isfile(args.jar):
        sys.exit('no jar at %s: build it first (mvn -B -q install -DskipTests)' % args.jar)
    start = time.time()
    total = 0
    unclean = 0
    answered = 0
    refused = 0
    budget = []
    for command, kind, params, target in cases(set(args.types or [])):
        total += 1
        line = [command, kind] + ['%s=%s' % kv for kv in params.items()] + target
        argv = ['java', '-jar', args.jar] + line + ['--quiet', '--max-seconds', str(args.max_seconds)]
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=args.max_seconds + 20)
            found = problems_of(result)
            detail = (result.stderr.strip() or result.stdout.strip())[:300].replace('\n', ' / ')
            if not found and result.returncode == 0:
                answered += 1
            elif not found and '--max-seconds' in result.stderr:
                budget.append(' '.join(line))
            elif not found:
                refused += 1
        except subprocess.TimeoutExpired:
            found = ['no answer %d s past its budget' % 20]
            detail = ''
        if found:
            unclean += 1
            print('%s: %s | %s' % (', '.join(found), ' '.join(line), detail), flush=True)
    for b in budget:
        print('budget refusal: ' + b)
    print('%d cases: %d answered, %d refused in one line, %d budget refusals, %d unclean; %.0f s'
          % (total, answered, refused, len(budget), unclean, time.time() - start))
    sys.exit(1 if unclean else 0)


if __name__ == '__main__':
    main()
