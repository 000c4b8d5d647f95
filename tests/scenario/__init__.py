"""Tests of the scenario files and their loaders."""
