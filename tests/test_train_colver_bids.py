"""scripts/train_colver_bids.py: its gradient is the loss's, and it writes a network the
learned bidder reads (on the held-out auctions of tests/data, a few iterations)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from belote.ai.models.network_bids import INPUTS, NetworkBidder
from tests.file_modules import ROOT, load_file

train = load_file(ROOT / "scripts" / "train_colver_bids.py", "train_colver_bids_script")
AUCTIONS = ROOT / "tests" / "data" / "colver_auctions_seed3.jsonl"


def test_the_gradient_is_the_losss_by_finite_differences() -> None:
    data = train.Decisions(AUCTIONS, 30)
    data.rows = data.rows.astype(np.float64)  # float64 for the finite differences
    hidden = (6, 3)
    theta = train.start(hidden, 3)
    _, grad = train.loss(theta, data, hidden, 0.01)
    h = 1e-7  # small: a ReLU's kink within h of a row's pre-activation would blur the slope
    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = h
        numeric = (train.loss(theta + step, data, hidden, 0.01)[0]
                   - train.loss(theta - step, data, hidden, 0.01)[0]) / (2 * h)
        assert numeric == pytest.approx(grad[i], abs=1e-6, rel=1e-4)


def test_each_recorded_bid_is_one_decision_with_its_legal_bids_rows() -> None:
    data = train.Decisions(AUCTIONS, 10)
    assert data.rows.shape[1] == INPUTS
    assert len(data) == len(data.chosen) and (np.diff(data.starts) > 1).all()
    assert ((data.chosen >= data.starts) & (data.chosen < data.starts + data.counts)).all()


def test_training_lowers_the_loss_and_writes_a_network_the_bidder_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "bids.npz"
    monkeypatch.setattr(sys, "argv", [
        "train_colver_bids.py", "--train", str(AUCTIONS), "--test", str(AUCTIONS),
        "--deals", "40", "--hidden", "8", "--iterations", "30", "--out", str(out)])
    train.main()
    printed = capsys.readouterr().out
    assert "decisions" in printed and "held-out" in printed
    network = NetworkBidder.load(out)
    assert network.layers[0][0].shape == (INPUTS, 8)
    data = train.Decisions(AUCTIONS, 40)
    fitted = np.concatenate([np.concatenate([w.ravel(), b]) for w, b in network.layers])
    assert (train.loss(fitted.astype(np.float64), data, (8,), 0.0)[0]
            < train.loss(train.start((8,), 1), data, (8,), 0.0)[0] * 0.7)
