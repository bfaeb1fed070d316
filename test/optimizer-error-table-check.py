#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The optimizer's shipped error bars (doc/figures/optimizer/error-bars.csv) are what
examples/optimizer-error-table.py makes of the shipped validation results: regenerate and compare."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["doc/figures/validation/results.csv", "doc/figures/validation-shallow/results.csv",
           "doc/figures/validation-async-long/results.csv",
           "doc/figures/fabric/validation/results.csv"]

made = subprocess.run([sys.executable, "examples/optimizer-error-table.py"] + SOURCES, cwd=ROOT,
                      check=True, capture_output=True, text=True).stdout
with open(os.path.join(ROOT, "doc/figures/optimizer/error-bars.csv")) as f:
    shipped = f.read()
if made != shipped:
    sys.exit("doc/figures/optimizer/error-bars.csv differs from what examples/optimizer-error-table.py "
             "makes of " + " ".join(SOURCES) + ": regenerate it (doc/validation/optimizer.rst)")
print("error-bars.csv is current")
