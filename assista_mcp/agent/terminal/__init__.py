"""The terminal: rendering the event stream, reading input, `run` and `chat`."""
