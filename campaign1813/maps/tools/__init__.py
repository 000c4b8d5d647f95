"""Scripts that build the shipped map data; they run by hand, never at play time."""
