"""Profiles, ratings and leaderboards of registered players (issue 11, item 7).

- :mod:`.schema`: the three tables (migration 0004);
- :mod:`.model`: what a finished match means for each account (pure), the openskill team
  update, the bots' fixed reference ratings;
- :mod:`.store`: recording a match once (idempotent), profiles and leaderboards;
- :mod:`.room`: the room's hook (a finished table records itself) and the start-up catch-up;
- :mod:`.web`: the profile and leaderboard pages.
"""
