#!/usr/bin/env python3
"""Writes params/pipeline.json, the pipeline's parameter description.

The description is long (every stage can choose every extractor, each with its
own parameters and a condition), so it is generated: edit the tables here and
run `scripts/gen-pipeline-params.py > params/pipeline.json`.

Seeds are the best single-extractor configurations of docs/experiment.md
(tuned on the 120-document sample only), so the first generation already
matches the best single extractor, and the pipeline's defaults."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The extractors a stage may choose and the parameters evolved for each
# (name, type, min, max, default[, extra]); the others keep their defaults.
STAGE = {
    "lqf": [("t", "float", 0, 1, 0.25)],
    "ccb": [("r", "int", 1, 300, 40, {"scale": "log"}), ("t", "float", 0, 1, 0.75)],
    "accb": [("r", "int", 1, 300, 40, {"scale": "log"}), ("t", "float", 0, 1, 0.75)],
    "tccb": [("r", "int", 1, 300, 25, {"scale": "log"}), ("t", "float", 0, 1, 0.75)],
    "sw": [("t_en", "float", 0, 1, 0.3), ("t_de", "float", 0, 1, 0.25), ("t_it", "float", 0, 1, 0.4)],
    "density": [("c1", "float", 0, 1, 0.333), ("c2", "int", 1, 100, 4)],
    "mantratzis": [("t_count", "float", 0, 1, 0.5), ("t_length", "float", 0, 1, 0.4),
                   ("decay", "float", 0, 1, 0.25)],
    "crunch": [("link_text_ratio", "float", 0, 2, 0.25)],
}
# The block scorer: only its threshold is evolved here.  Its weights are the
# extractor's defaults, learned on the training sample of docs/experiment.md
# (src/extract/score.c); evolving all of them again in every stage (60 more
# genes) fitted the 120 training documents better and the 370 others worse.
SCORE = json.load(open(os.path.join(HERE, "..", "params", "score.json")))
STAGE["score"] = [(p["name"], p["type"], p["min"], p["max"], p["default"])
                  for p in SCORE["parameters"] if p["name"] == "t"]
NAMES = list(STAGE)


def param(name, typ, lo=None, hi=None, default=None, extra=None, when=None, values=None):
    p = {"name": name, "type": typ}
    if values is not None:
        p["values"] = values
    if lo is not None:
        p["min"], p["max"] = lo, hi
    p["default"] = default
    if extra:
        p.update(extra)
    if when:
        p["when"] = when
    return p


params = [
    param("s1", "enum", values=NAMES, default="accb"),
    param("s2", "enum", values=["none"] + NAMES, default="none"),
    param("s3", "enum", values=["none"] + NAMES, default="none"),
    param("combine", "enum", values=["and", "or", "majority", "vote"], default="and"),
    param("vote.w1", "float", 0, 1, 1, when={"combine": ["vote"]}),
    param("vote.w2", "float", 0, 1, 1, when={"combine": ["vote"], "s2": NAMES}),
    param("vote.w3", "float", 0, 1, 1, when={"combine": ["vote"], "s3": NAMES}),
    param("vote.t", "float", 0, 1, 0.5, when={"combine": ["vote"]}),
    param("post.fill_gap", "int", 0, 100, 0),
    param("post.island", "int", 0, 100, 0),
    param("post.region", "enum", values=["none", "largest", "subtree"], default="none"),
    param("post.region_gap", "int", 0, 500, 50, when={"post.region": ["largest"]}),
    param("post.subtree_alpha", "float", 0, 4, 0.25, when={"post.region": ["subtree"]}),
    param("post.headings", "bool", default=False),
    param("post.heading_gap", "int", 0, 100, 10, when={"post.headings": [True]}),
    param("post.min_words", "int", 0, 200, 0),
    param("clean", "bool", default=False),
    param("clean.remove_link_lists", "bool", default=True, when={"clean": [True]}),
    param("clean.link_text_ratio", "float", 0, 2, 0.25, when={"clean": [True]}),
    param("clean.remove_ads", "bool", default=True, when={"clean": [True]}),
    param("clean.ignore_forms", "bool", default=False, when={"clean": [True]}),
]
correlated = []
for k in (1, 2, 3):
    for x, ps in STAGE.items():
        group = []
        for spec in ps:
            name, typ, lo, hi, default = spec[:5]
            extra = spec[5] if len(spec) > 5 else None
            full = f"s{k}.{x}.{name}"
            params.append(param(full, typ, lo, hi, default, extra, when={f"s{k}": [x]}))
            group.append(full)
        if x in ("ccb", "accb", "tccb"):
            correlated.append(group)  # r and t trade off against each other

# docs/experiment.md, table 2: the best of each single extractor on the sample.
single = [
    {"s1": "accb", "s1.accb.r": 128, "s1.accb.t": 0.5224},
    {"s1": "tccb", "s1.tccb.r": 21, "s1.tccb.t": 0.6268},
    {"s1": "lqf", "s1.lqf.t": 0.3745},
    {"s1": "sw", "s1.sw.t_en": 0.2867, "s1.sw.t_de": 0.0547, "s1.sw.t_it": 0.0009},
    {"s1": "density", "s1.density.c1": 0.3489, "s1.density.c2": 35},
]
# The block scorer at its defaults, as stage 1.
single.append({"s1": "score"})
defaults = {"s1": "accb"}

desc = {
    "extractor": "pipeline",
    "description": "An evolved extraction pipeline: optional Crunch cleaning, one to three "
                   "classifier stages, a combiner and post-processing "
                   "(generated by scripts/gen-pipeline-params.py)",
    "parameters": params,
    "seeds": single + [defaults],
    "correlated": correlated,
}
print(json.dumps(desc, indent=1))
