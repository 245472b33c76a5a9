"""What a tool call may do (its declared effect) and what must never be shown (redaction): the
vocabulary the server, the agent's approvals and its records share."""
