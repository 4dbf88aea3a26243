#!/usr/bin/env python3
"""The peers of scripts/tuner-comparison.sh: Optuna driving `cetune evaluate`
from outside, irace's search space, the final scoring of every tuner's
choice, and the tables and convergence plots (docs/experiment.md).

Every tuner sees the same problem: the parameter description (genes, "when",
"forbidden", and the seeds: the description's, or the defaults when it has
no "seeds" member, as `cetune evolve` does), the same training documents,
the same fitness (mean word F1 over them) and the same number of distinct
configurations evaluated.  Configurations reach cetune as `-x EXTRACTOR
-P name=value...`, a batch per `cetune evaluate` call, so that cetune reads
every value with its own types and fills nothing the tuner did not set.

Subcommands (each prints its usage with -h):
  optuna   ask/tell with TPE (multivariate), CMA-ES or random search
  space    irace's parameter, forbidden and initial-configuration files
  elites   irace's elite per iteration -> trace.csv and best.json
  trace    a cetune run's individuals.csv -> trace.csv
  score    a best.json on the training and the dev documents -> result.json
  tables   the results of a whole comparison -> tables.md, convergence plots

Python 3 standard library, and optuna for `optuna` only.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys


# ---------------------------------------------------------------- the space

class Space:
    """A parameter description: genes in an order where every "when" parent
    comes before its children, the forbidden entries, the seeds."""

    def __init__(self, path):
        with open(path) as f:
            d = json.load(f)
        self.extractor = d["extractor"]
        genes = d["parameters"]
        for g in genes:
            if g["type"] in ("int", "float") and ("min" not in g or "max" not in g):
                sys.exit(f"tuner_peer: {path}: \"{g['name']}\" needs \"min\" and \"max\" here")
        names = set()
        self.genes = []
        while len(self.genes) < len(genes):  # parents first, whatever the file's order
            before = len(self.genes)
            for g in genes:
                if g["name"] not in names and all(p in names for p in g.get("when", {})):
                    self.genes.append(g)
                    names.add(g["name"])
            if len(self.genes) == before:
                sys.exit(f"tuner_peer: {path}: \"when\" conditions form a cycle")
        self.by_name = {g["name"]: g for g in self.genes}
        self.forbidden = d.get("forbidden", [])
        seeds = d["seeds"] if "seeds" in d else [{}]
        self.seeds = [self.complete(s) for s in seeds]

    def is_active(self, g, cfg):
        return all(p in cfg and cfg[p] in vals for p, vals in g.get("when", {}).items())

    def complete(self, partial):
        """A seed with the defaults of the active genes it leaves out."""
        cfg = {}
        for g in self.genes:
            if not self.is_active(g, cfg):
                continue
            if g["name"] in partial:
                cfg[g["name"]] = partial[g["name"]]
            elif "default" in g:
                cfg[g["name"]] = g["default"]
        return cfg

    def is_forbidden(self, cfg):
        return any(all(k in cfg and cfg[k] == v for k, v in entry.items())
                   for entry in self.forbidden)

    def key(self, cfg):
        return json.dumps(cfg, sort_keys=True)


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def cetune_args(space, cfg):
    args = ["-x", space.extractor]
    for k, v in cfg.items():
        args += ["-P", f"{k}={fmt(v)}"]
    return args


class Corpus:
    """The cetune binary, the corpus directories and threads of every call."""

    def __init__(self, a):
        self.cetune = a.cetune
        self.dirs = [x for d in a.dir for x in ("-d", d)]
        self.threads = ["--threads", str(a.threads)] if a.threads else []

    def evaluate(self, configs, sample):
        """configs: lists of evaluate arguments (-x/-P or -c).  One call;
        returns per configuration (mean F1 over the documents, macro F1
        over the packages, the full configuration cetune read)."""
        cmd = [self.cetune, "evaluate"] + [x for c in configs for x in c] + self.dirs + \
            ["-s", sample, "--per-doc", "--format", "json"] + self.threads
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            sys.exit(f"tuner_peer: {' '.join(cmd[:8])}...: {p.stderr.strip()}")
        out = json.loads(p.stdout)
        res = []
        for c in out["configurations"]:
            f1 = [d["f1"] for d in c["per_doc"]]
            res.append((sum(f1) / len(f1), c["macro"]["f1"], c["config"]))
        return res


def corpus_options(ap):
    ap.add_argument("--cetune", default="build/cetune")
    ap.add_argument("-d", "--dir", action="append", required=True)
    ap.add_argument("--threads", type=int, default=0)


# ---------------------------------------------------------------- optuna

def is_log(g):
    return g.get("scale") == "log" or g.get("log") is True


def to_unit(g, v):
    """A float or int value as a share of its gene's range (log scale: of
    the log range), the coordinates cetune's CMA-ES searches in."""
    lo, hi, v = float(g["min"]), float(g["max"]), float(v)
    if hi <= lo:
        return 0.5
    if is_log(g):
        return (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return (v - lo) / (hi - lo)


def from_unit(g, u):
    lo, hi = float(g["min"]), float(g["max"])
    v = math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo))) if is_log(g) \
        else lo + u * (hi - lo)
    v = min(max(v, lo), hi)
    return int(round(v)) if g["type"] == "int" else v


def suggest(trial, space, unit=False):
    """A configuration from the trial.  unit: float and int genes are asked
    for in [0, 1] (a share of their range) and mapped back, so that a
    sampler's one step size means the same share of every range."""
    cfg = {}
    for g in space.genes:
        if not space.is_active(g, cfg):
            continue
        n, t = g["name"], g["type"]
        log = is_log(g)
        if unit and t in ("float", "int"):
            cfg[n] = from_unit(g, trial.suggest_float(n, 0.0, 1.0))
        elif t == "float":
            cfg[n] = trial.suggest_float(n, g["min"], g["max"], log=log)
        elif t == "int":
            cfg[n] = trial.suggest_int(n, g["min"], g["max"], log=log)
        elif t == "bool":
            cfg[n] = trial.suggest_categorical(n, [False, True])
        else:
            cfg[n] = trial.suggest_categorical(n, g["values"])
    return cfg


def cmd_optuna(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py optuna")
    corpus_options(ap)
    ap.add_argument("-p", "--params", required=True)
    ap.add_argument("-s", "--sample", required=True)
    ap.add_argument("--sampler", choices=["tpe", "cmaes", "random"], required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--budget", type=int, required=True, help="distinct configurations")
    ap.add_argument("--batch", type=int, default=20, help="configurations per evaluate call")
    ap.add_argument("--matched", action="store_true",
                    help="cmaes with cetune's settings: x0 the first seed, sigma0 0.1 of every "
                    "range, population and batch lambda = 4 + floor(3 ln genes)")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    import warnings
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # multivariate and group are "experimental" in Optuna 3.1: said once here.
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    space, corpus = Space(a.params), Corpus(a)
    conditional = any("when" in g for g in space.genes)
    if a.sampler == "tpe":
        # group: the multivariate model per set of genes that occur together,
        # which is how TPE handles "when" (Optuna's documentation).
        sampler = optuna.samplers.TPESampler(seed=a.seed, multivariate=True, group=conditional,
                                             warn_independent_sampling=False)
    elif a.sampler == "cmaes":
        # Float and int genes reach the sampler as shares of their ranges
        # (suggest(unit=True)).  Optuna 3.1's CmaEsSampler sets sigma0 to a
        # sixth of the *narrowest* range: on score, near_sides (1..2) made it
        # 0.33 for weights spanning 10 and fallback_words spanning 200, and
        # seeds 1 and 3 never got back above the start in 800 evaluations.
        # Optuna 3.2 rescales every range to [0, 1] itself (optuna#4443);
        # this does the same on 3.1.  One generation per batch, so that no
        # asked configuration is wasted; enum, bool and conditional genes
        # fall back to random sampling.
        kw = {}
        if a.matched:
            num = [g for g in space.genes if g["type"] in ("float", "int") and "when" not in g]
            kw = {"x0": {g["name"]: to_unit(g, space.seeds[0][g["name"]]) for g in num},
                  "sigma0": 0.1}
            a.batch = 4 + int(3 * math.log(len(space.genes)))
        sampler = optuna.samplers.CmaEsSampler(seed=a.seed, popsize=a.batch,
                                               warn_independent_sampling=False, **kw)
    else:
        sampler = optuna.samplers.RandomSampler(seed=a.seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    unit = a.sampler == "cmaes"
    for s in space.seeds:
        study.enqueue_trial({n: to_unit(space.by_name[n], v)
                             if unit and space.by_name[n]["type"] in ("float", "int") else v
                             for n, v in s.items()})
    seen = {}          # configuration -> fitness: a repeat costs nothing, as in cetune
    trace = []         # (evaluations, best so far)
    best = None        # (fitness, configuration)
    asked = 0
    while len(seen) < a.budget:
        if asked > 20 * a.budget:
            sys.exit(f"tuner_peer: {a.sampler} proposed only {len(seen)} distinct "
                     f"configurations in {asked} trials")
        trials, new = [], []
        # The seeds are told first, on their own: a sampler that has no
        # finished trial samples every gene independently (Optuna's relative
        # search space is that of the finished trials), so a first batch of
        # seeds and asked trials together would be the seeds and random ones.
        size = len(space.seeds) if asked == 0 else a.batch
        while len(trials) < size and len(seen) + len(new) < a.budget and asked <= 20 * a.budget:
            t = study.ask()
            asked += 1
            cfg = suggest(t, space, unit)
            if space.is_forbidden(cfg):
                study.tell(t, state=optuna.trial.TrialState.FAIL)
                continue
            trials.append((t, cfg))
            k = space.key(cfg)
            if k not in seen and all(space.key(c) != k for c in new):
                new.append(cfg)
        if new:
            for cfg, (fit, _, _) in zip(new, corpus.evaluate([cetune_args(space, c) for c in new],
                                                             a.sample)):
                seen[space.key(cfg)] = fit
                if best is None or fit > best[0]:
                    best = (fit, cfg)
                trace.append((len(seen), best[0]))
        for t, cfg in trials:
            study.tell(t, seen[space.key(cfg)])
    os.makedirs(a.out, exist_ok=True)
    write_trace(os.path.join(a.out, "trace.csv"), trace)
    _, _, full = corpus.evaluate([cetune_args(space, best[1])], a.sample)[0]
    write_config(os.path.join(a.out, "best.json"), full, best[0])


def write_trace(path, trace):
    with open(path, "w") as f:
        f.write("evaluations,best\n")
        for e, b in trace:
            f.write(f"{e},{b:.6f}\n")


def write_config(path, full, fitness):
    full = dict(full)
    full["fitness"] = fitness
    with open(path, "w") as f:
        json.dump(full, f)
        f.write("\n")


# ---------------------------------------------------------------- irace

def cmd_space(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py space",
                                 description="irace's parameters.txt, forbidden.txt and "
                                 "configurations.txt (the seeds) for a description")
    ap.add_argument("-p", "--params", required=True)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    space = Space(a.params)
    os.makedirs(a.out, exist_ok=True)

    def val(g, v):  # a value as irace's R expressions see it
        if g["type"] == "bool":
            return '"true"' if v else '"false"'
        if g["type"] == "enum":
            return json.dumps(v)
        return fmt(v)

    with open(os.path.join(a.out, "parameters.txt"), "w") as f:
        for g in space.genes:
            n, t = g["name"], g["type"]
            log = ",log" if g.get("scale") == "log" or g.get("log") is True else ""
            if t == "float":
                dom = f"r{log} ({fmt(float(g['min']))}, {fmt(float(g['max']))})"
            elif t == "int":
                dom = f"i{log} ({g['min']}, {g['max']})"
            elif t == "bool":
                dom = 'c ("false", "true")'
            else:
                dom = "c (" + ", ".join(json.dumps(v) for v in g["values"]) + ")"
            cond = " & ".join(f"{p} %in% c(" + ", ".join(val(space.by_name[p], v) for v in vals)
                              + ")" for p, vals in g.get("when", {}).items())
            f.write(f'{n} "--{n}=" {dom}' + (f" | {cond}" if cond else "") + "\n")
    with open(os.path.join(a.out, "forbidden.txt"), "w") as f:
        for entry in space.forbidden:
            f.write(" & ".join(f"({k} == {val(space.by_name[k], v)})" for k, v in entry.items())
                    + "\n")
    with open(os.path.join(a.out, "configurations.txt"), "w") as f:
        f.write(" ".join(g["name"] for g in space.genes) + "\n")
        for s in space.seeds:
            f.write(" ".join(val(g, s[g["name"]]) if g["name"] in s else "NA"
                             for g in space.genes) + "\n")
    with open(os.path.join(a.out, "extractor.txt"), "w") as f:
        f.write(space.extractor + "\n")


def cmd_elites(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py elites",
                                 description="scores irace's elite of each iteration on every "
                                 "training document: trace.csv, and best.json from the last")
    corpus_options(ap)
    ap.add_argument("-s", "--sample", required=True)
    ap.add_argument("-o", "--out", required=True, help="the run folder holding elites.tsv")
    a = ap.parse_args(argv)
    corpus = Corpus(a)
    rows = []
    with open(os.path.join(a.out, "elites.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            rows.append((float(fields[0]), fields[1:]))
    res = corpus.evaluate([r[1] for r in rows], a.sample)
    # irace's elite is the winner of its race on the documents it raced on,
    # not always better on all of them than the one before: the trace shows
    # each elite's own fitness (irace chooses none of the earlier ones).
    trace = [(round(evals), fit) for (evals, _), (fit, _, _) in zip(rows, res)]
    write_trace(os.path.join(a.out, "trace.csv"), trace)
    write_config(os.path.join(a.out, "best.json"), res[-1][2], res[-1][0])


# ---------------------------------------------------------------- cetune's runs

def cmd_trace(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py trace",
                                 description="a cetune run's individuals.csv -> trace.csv")
    ap.add_argument("run")
    a = ap.parse_args(argv)
    trace, best = [], -1.0
    with open(os.path.join(a.run, "individuals.csv")) as f:
        for k, row in enumerate(csv.DictReader(f), 1):
            best = max(best, float(row["fitness"]))
            trace.append((k, best))
    write_trace(os.path.join(a.run, "trace.csv"), trace)


# ---------------------------------------------------------------- scoring

def cmd_score(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py score",
                                 description="scores a run's best.json on the training and dev "
                                 "documents into result.json")
    corpus_options(ap)
    ap.add_argument("-s", "--sample", required=True)
    ap.add_argument("--dev", required=True, help="sample file of the dev documents")
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("run")
    a = ap.parse_args(argv)
    corpus = Corpus(a)
    best = os.path.join(a.run, "best.json")
    train, _, _ = corpus.evaluate([["-c", best]], a.sample)[0]
    _, dev, _ = corpus.evaluate([["-c", best]], a.dev)[0]
    with open(os.path.join(a.run, "trace.csv")) as f:
        rows = list(csv.DictReader(f))
    res = {"train": train, "best_seen": float(rows[-1]["best"]),
           "evaluations": int(rows[-1]["evaluations"]), "dev_macro_f1": dev,
           "seconds": a.seconds}
    with open(os.path.join(a.run, "result.json"), "w") as f:
        json.dump(res, f)
        f.write("\n")


# ---------------------------------------------------------------- tables

def step_at(trace, e):
    """The best so far after e evaluations (None before the first)."""
    v = None
    for x, b in trace:
        if x > e:
            break
        v = b
    return v


def spread(xs):
    return f"{statistics.median(xs):.4f} ({min(xs):.4f}–{max(xs):.4f})"


def cmd_tables(argv):
    ap = argparse.ArgumentParser(prog="tuner_peer.py tables",
                                 description="OUT/PROBLEM/TUNER-SEED/result.json -> OUT/tables.md, "
                                 "OUT/PROBLEM.dat, .gp and .png")
    ap.add_argument("--problems", required=True, help="space-separated, in table order")
    ap.add_argument("--tuners", required=True, help="space-separated, in row order")
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("out")
    a = ap.parse_args(argv)
    seeds = a.seeds.split()
    md = []
    for prob in a.problems.split():
        with open(os.path.join(a.out, prob, "problem.txt")) as f:
            md.append(f"### {prob}: {f.read().strip()}\n")
        md.append("| tuner | seeds run | best training fitness, per seed | median (min–max)"
                  " | training fitness of the choice, median (min–max)"
                  " | macro F1 on the dev documents, median (min–max) | seconds per run, median |")
        md.append("| --- | --- | --- | ---: | ---: | ---: | ---: |")
        curves = []
        for tuner in a.tuners.split():
            ran, res, traces = [], [], []
            for s in seeds:
                d = os.path.join(a.out, prob, f"{tuner}-{s}")
                try:
                    with open(os.path.join(d, "result.json")) as f:
                        r = json.load(f)
                    with open(os.path.join(d, "trace.csv")) as f:
                        t = [(int(x["evaluations"]), float(x["best"])) for x in csv.DictReader(f)]
                except FileNotFoundError:
                    continue
                ran.append(s)
                res.append(r)
                traces.append(t)
            if not res:
                md.append(f"| {tuner} | not run | | | | | |")
                continue
            # The seeds that finished, out of those asked for: a partial
            # comparison says which cells it has.
            which = " ".join(ran) + ("" if len(ran) == len(seeds) else f" (of {len(seeds)})")
            md.append(f"| {tuner} | {which} | " +
                      " / ".join(f"{r['best_seen']:.4f}" for r in res) +
                      f" | {spread([r['best_seen'] for r in res])}"
                      f" | {spread([r['train'] for r in res])}"
                      f" | {spread([r['dev_macro_f1'] for r in res])}"
                      f" | {statistics.median(r['seconds'] for r in res):.0f} |")
            curves.append((tuner, traces))
        md.append("")
        # The median over seeds of the best so far, at every evaluation count
        # that some run of the tuner reports.
        dat = os.path.join(a.out, f"{prob}.dat")
        with open(dat, "w") as f:
            for tuner, traces in curves:
                f.write(f'"{tuner}"\n')
                for e in sorted({x for t in traces for x, _ in t}):
                    vals = [step_at(t, e) for t in traces]
                    if None not in vals:
                        f.write(f"{e} {statistics.median(vals):.6f}\n")
                f.write("\n\n")
        gp = os.path.join(a.out, f"{prob}.gp")
        with open(gp, "w") as f:
            f.write(f"set terminal pngcairo size 900,560 font 'sans,11' noenhanced\n"
                    f"set output '{prob}.png'\n"
                    f"set title '{prob}: best training fitness so far, median over the seeds run'\n"
                    "set xlabel 'evaluations'\nset ylabel 'mean word F1 (training)'\n"
                    "set key bottom right\nset grid\n"
                    f"plot for [i=0:{max(len(curves) - 1, 0)}] '{prob}.dat' index i "
                    "using 1:2 with steps lw 2 title columnheader(1)\n")
        if curves:
            subprocess.run([a.gnuplot, f"{prob}.gp"], cwd=a.out, check=True)
        md.append(f"Convergence: `{prob}.png` ({prob}.gp, {prob}.dat).\n")
    with open(os.path.join(a.out, "tables.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


COMMANDS = {"optuna": cmd_optuna, "space": cmd_space, "elites": cmd_elites,
            "trace": cmd_trace, "score": cmd_score, "tables": cmd_tables}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](sys.argv[2:])
