#!/usr/bin/env python3
"""Could a model learned from the search signals decide confidence better than the rule?

usage: bench/confidence-model.py KBOOK_BINARY SITE NAME=QUERIES.jsonl ...

For every query of the sets given, runs `kbook search --json` on the built SITE and reads the
signals of the first hit (`signals` in the JSON: margin, coverage, error run and share, share
of known words, connector named, one line, symptom match, ...). The label is "the first hit is
right" (a query no entry answers is never right). Logistic regression, a depth-3 tree and
gradient boosting are fitted over all sets together and scored out of sample (5-fold
stratified cross-validation, 3 seeds, probabilities averaged). Prints, per set and per
probability threshold, what `kbook eval` reports for confidence: the confident answers, their
precision, the share of answered queries that are confident (rate) and the share of
unanswered ones that are not (abstain), beside the shipped rule (`confident` in the JSON).

Needs numpy and scikit-learn (`python3 -m venv /tmp/venv && /tmp/venv/bin/pip install numpy
scikit-learn`, then run it with /tmp/venv/bin/python).
"""
import json
import math
import subprocess
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

FEATURES = ["margin", "coverage", "phrase", "error_run", "error_share", "error_diverges",
            "known_share", "other_connector", "names_connector", "generic_error", "one_line",
            "symptom_match", "error_query_share"]


def run(kbook, site, sets):
    rows = []
    for name, path in sets:
        with open(path, encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)
                out = subprocess.run([kbook, "search", "--site", site, "--json", "--limit", "10",
                                      "--stdin"], input=q["q"], capture_output=True, text=True)
                j = json.loads(out.stdout)
                got = [h["id"] for h in j["hits"]]
                rows.append({"set": name, "style": q.get("style"), "expect": q["expect"],
                             "got": got, "confident": j["confident"],
                             "sig": j.get("signals") or {}})
    # `kbook search --json` reports signals even without hits; a row without them would be a
    # failed run, which must not shrink a set unnoticed.
    missing = [r for r in rows if not r["sig"]]
    if missing:
        sys.exit(f"{len(missing)} queries returned no signals (first: {missing[0]})")
    return rows


def features(r):
    s = r["sig"]
    v = [float(s[f]) for f in FEATURES]
    # Unbounded ones capped: a lone hit's margin is huge, a long trace's run is long.
    v[0] = min(v[0], 5.0)
    v[3] = min(v[3], 20.0)
    v += [float(r["style"] == "trace"), float(r["style"] == "question"),
          math.log1p(s["top_score"])]
    return v


def report(label, pred, y, answered, sets):
    for s in sorted(set(sets)):
        m = sets == s
        c = pred & m
        prec = y[c].sum() / max(c.sum(), 1)
        rate = (c & answered).sum() / max((m & answered).sum(), 1)
        unanswered = m & ~answered
        abstain = 1 - (c & unanswered).sum() / max(unanswered.sum(), 1)
        print(f"{label:14s} {s:10s} confident {c.sum():4d}  precision {prec:.3f}  "
              f"rate {rate:.3f}  abstain {abstain:.3f}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kbook, site = sys.argv[1], sys.argv[2]
    sets = [a.split("=", 1) for a in sys.argv[3:]]
    rows = run(kbook, site, sets)
    x = np.array([features(r) for r in rows])
    y = np.array([bool(r["expect"]) and bool(r["got"]) and r["got"][0] in r["expect"]
                  for r in rows])
    answered = np.array([bool(r["expect"]) for r in rows])
    names = np.array([r["set"] for r in rows])
    report("rule (shipped)", np.array([r["confident"] for r in rows]), y, answered, names)
    models = {
        # Features on their own scales (a run of 20 beside booleans): standardised for the
        # regularised linear model.
        "logistic": lambda s: make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "tree-3": lambda s: DecisionTreeClassifier(max_depth=3, min_samples_leaf=10,
                                                   random_state=s),
        "boosting": lambda s: GradientBoostingClassifier(n_estimators=100, max_depth=2,
                                                         random_state=s),
    }
    for name, make in models.items():
        p = np.zeros(len(y))
        for seed in range(3):
            folds = StratifiedKFold(5, shuffle=True, random_state=seed)
            p += cross_val_predict(make(seed), x, y, cv=folds, method="predict_proba")[:, 1]
        p /= 3
        for t in (0.8, 0.9, 0.95):
            report(f"{name} ≥{t}", p >= t, y, answered, names)


if __name__ == "__main__":
    main()
