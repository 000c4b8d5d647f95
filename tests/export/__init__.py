"""Tests of the exported documents: orders of battle, their files and their paper."""
