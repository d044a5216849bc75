"""Learned card play: the features a seat's observation gives (:mod:`.features`) and the
small network distilled from the exact solver that reads them (:mod:`.policy`; weights and
model card in ``data/``, written by ``scripts/train_policy.py``).  No torch at run time."""
