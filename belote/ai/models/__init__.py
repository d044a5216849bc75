"""Models of the other seats, read as soft evidence about their hands (DESIGN.md 9).

* :mod:`.table`: who sits where (each seat's level, or a person), told to a bot by ``meet``;
* :mod:`.auction`: the other seats' bids as each bidder saw them, and the hands they bid with;
* :mod:`.words`: what a conventional word or signal claims about a hand;
* :mod:`.seats`: the expert's model per seat (a known bidder's system, a learned trust in a
  person's words and bids), an :class:`belote.engine.evidence.Evidence`;
* :mod:`.network_bids`: a bidder learned from recorded auctions (colver's, in self-play);
* :mod:`.learned`: what a table learned of each seat (counts), and the context a room table
  sends with each decision (:class:`SeatContext`).
"""

from belote.ai.models.learned import SeatContext, SeatCounts
from belote.ai.models.seats import SeatModels, models_at, models_for
from belote.ai.models.table import TableSeat, meet_all

__all__ = ["SeatContext", "SeatCounts", "SeatModels", "TableSeat", "meet_all", "models_at",
           "models_for"]
