"""A small MLP at play in numpy: what the card-play and the bidding networks share.

The weights as the training scripts write them (``scripts/train_policy.py``,
``scripts/train_bidding.py``): an ``.npz`` of ``w0, b0, w1, b1, ...``, each weight ``(in,
out)``, each bias ``(out,)``, the layers ``x @ w + b`` with ReLU between them.  A subclass
names what its network reads and writes (:meth:`Mlp.check_shape`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import IO, Self

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Mlp:  # not slots: _rows is a cached property
    """An MLP's layers, ``(weight (in, out), bias (out,))`` each, ReLU between them."""

    layers: tuple[tuple[Matrix, Matrix], ...]

    def __post_init__(self) -> None:
        self.check_shape(self.layers[0][0].shape[0], self.layers[-1][0].shape[1])

    def check_shape(self, inputs: int, outputs: int) -> None:
        """Refuse (BeloteError) a network that does not fit its use: each kind says how."""

    @classmethod
    def load(cls, source: Path | IO[bytes]) -> Self:
        """The network of a ``.npz`` file as the training scripts write it."""
        with np.load(source) as arrays:
            count = len(arrays.files) // 2
            layers = tuple((np.ascontiguousarray(arrays[f"w{i}"], dtype=np.float32),
                            np.ascontiguousarray(arrays[f"b{i}"], dtype=np.float32))
                           for i in range(count))
        return cls(layers)

    @classmethod
    def shipped(cls, file_name: str) -> Self:
        """The network the package ships as ``data/{file_name}``, laid out for inference (its
        rows) at once, so that whoever reads it first pays for both."""
        with (resources.files("belote.ai.network") / "data" / file_name).open("rb") as f:
            network = cls.load(f)
        network.outputs(np.zeros(network.layers[0][0].shape[0], dtype=np.float32))
        return network

    def save(self, path: Path) -> None:
        """Write the layers as :meth:`load` reads them (the training scripts' output)."""
        arrays: dict[str, Matrix] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
        np.savez(path, **arrays)  # type: ignore[arg-type]

    @cached_property
    def _rows(self) -> tuple[tuple[Matrix, Matrix], ...]:
        """The weights as (out, in) rows: one vector's pass is then ``w @ x``, which numpy
        does about twice as fast as ``x @ w`` with the (in, out) layout."""
        return tuple((np.ascontiguousarray(w.T), b) for w, b in self.layers)

    def outputs(self, x: Matrix) -> Matrix:
        """The outputs of one feature vector (or of a batch of rows)."""
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self._rows):
            x = w @ x if x.ndim == 1 else x @ w.T
            x += b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x
