"""Optional independent engines, used as oracles in tests and as rivals in benchmarks and the
arena.  Nothing in the game itself imports them."""
