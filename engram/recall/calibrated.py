"""The confidence calibrator's fitted weights and bands (engram.recall.confidence). Written by
`python -m bench.confidence_fit` from the development splits of LoCoMo and LongMemEval_S: do not edit."""

FEATURES = ("cosine", "coverage", "lead", "lexical")
WEIGHTS = (2.3232, 2.9483, 1.8725, 1.6305)
INTERCEPT = -5.1684
MEDIUM = 0.1743
HIGH = 0.5816
