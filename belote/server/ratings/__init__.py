"""Profiles, ratings and leaderboards of registered players (issue 11, item 7).

- :mod:`.schema`: the three tables (migration 0004; 0011 adds what statistics and the rule
  against farming need);
- :mod:`.model`: what a finished match means for each account (pure), the openskill team
  update, the rating shown, the bots' fixed reference ratings;
- :mod:`.farming`: the rule against farming: repeated matches with the same other account
  weigh less, then nothing (pure);
- :mod:`.store`: recording a match once (idempotent, weighed), profiles and leaderboards;
- :mod:`.stats`: each account's statistics, with humans and with bots apart, by week;
- :mod:`.room`: the room's hook (a finished table records itself) and the start-up catch-up;
- :mod:`.web`: the profile and leaderboard pages.
"""
