"""Property tests that feed the loaders and the store damaged input: each must be refused with
a message the umpire can read, never with a crash."""
