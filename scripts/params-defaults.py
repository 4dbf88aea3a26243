#!/usr/bin/env python3
"""Prints a parameter description's defaults as a configuration (the input
of `cetune evaluate -c`): {"extractor": ..., "params": {name: default}}.
`-x EXTRACTOR` scores the extractor's built-in defaults, which a description
may change; the scripts that compare a run with where it started use this.

usage: scripts/params-defaults.py PARAMS.json > defaults.json
"""
import json
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
with open(sys.argv[1]) as f:
    d = json.load(f)
print(json.dumps({"extractor": d["extractor"],
                  "params": {p["name"]: p["default"] for p in d["parameters"] if "default" in p}}))
