"""What kg's small learned models of the parse share: a logistic score over sparse features,
and weights shipped as JSON beside their SHA-256, checked on load.

>>> round(logistic(0.0, {"a": 2.0}, {"a": 1.0, "b": 5.0}), 3)
0.881
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kg.errors import ModelError
from kg.resources import hashed_bytes

__all__ = ["load_model", "logistic"]

T = TypeVar("T")


def logistic(bias: float, weights: dict[str, float], features: dict[str, float]) -> float:
    """The logistic of ``bias`` plus the weighted features (unknown features weigh 0)."""
    score = bias + sum(weights.get(k, 0.0) * v for k, v in features.items())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))


def load_model(model_file: Path, hash_file: Path, what: str, remedy: str,
               parse: Callable[[dict[str, Any]], T]) -> T | None:
    """The model ``parse`` makes of ``model_file``'s JSON (``None`` when the package has no
    such file); ``ModelError`` naming the file when it does not match the hash recorded in
    ``hash_file`` or is no such model."""
    data = hashed_bytes(model_file, hash_file, what, remedy)
    if data is None:
        return None
    try:
        return parse(json.loads(data))
    except (ValueError, KeyError, TypeError) as e:
        raise ModelError(f"{model_file}: not {what} ({e})") from e
