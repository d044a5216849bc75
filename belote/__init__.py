"""belote: a rules-as-data Belote engine, bots, terminal table and game room."""

__version__ = "0.1.0"
