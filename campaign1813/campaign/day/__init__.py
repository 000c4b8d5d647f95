"""The campaign day: orders, movement, contact, battles and their aftermath — pure, no SQL."""
