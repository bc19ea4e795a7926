#!/usr/bin/env python3
"""Writes a copy of a report.html with numbered markers at its parts, for docs/reading-a-report.md's screenshot.

Usage: scripts/annotate-report.py REPORT.html OUT.html, then scripts/screenshot-report.sh OUT.html OUT.png 1100,2300.
The numbers match the list in docs/reading-a-report.md: 1 banner, 2 claims table, 3 the notes below it, 4 set-up,
5 the delta-epsilon plot, 6 the trade-off plot, 7 the details.
"""
import re
import sys

BADGE = ('<div style="font:bold 15px sans-serif;color:#fff;background:#1f4e9c;border-radius:14px;display:inline-block;'
         'padding:2px 10px;margin:6px 0">%d</div>\n')


def annotate(html):
    marks = [
        (r'<div class="banner', 1),
        (r'<table class="claims">', 2),
        (r'<p><strong>Below the exact curve|<p><em>Violated</em>', 3),
        (r'<h2>Set-up</h2>', 4),
        (r'<figure>', 5),
        (r'</figure>\s*<figure>', 6),
        (r'<h2>Empirical lower bounds</h2>', 7),
    ]
    for pattern, n in marks:
        m = re.search(pattern, html)
        if not m:
            raise SystemExit("no %r in the report" % pattern)
        at = m.start() if n != 6 else m.end() - len('<figure>')
        html = html[:at] + BADGE % n + html[at:]
    return html


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(annotate(text))
