"""Weekly leagues (issue 28, item 6): divisions of fixed-size groups, a season of one UTC week
(Monday to Sunday), points from the week's rated matches, promotion and relegation when the
week closes.

- :mod:`.model`: the rules (pure): weeks, groups, points, places, who goes up or down;
- :mod:`.schema`: the closed weeks and their results (migration 0011);
- :mod:`.store`: a week's standings read from the rated matches, and the close, once.
"""
