"""The tool loop: turns, tool calls over MCP, history, approvals, events, sessions."""
