"""The confidence calibrator's fitted weights and bands (engram.recall.confidence). Written by
`python -m bench.confidence_fit` from the development splits of LoCoMo and LongMemEval_S: do not edit."""

FEATURES = ("cosine", "coverage", "lead", "lexical")
WEIGHTS = (2.3210, 2.9486, 1.8962, 1.6316)
INTERCEPT = -5.1663
MEDIUM = 0.1748
HIGH = 0.5835
