"""colver (a Rust coinche engine, MIT, the test extra): the bridge to its environment and
its agents seated at our table."""
