"""The MCP server: ``mcp_server.build_server`` declares the tools, resources and prompts once; the
stdio and HTTP transports (with the HTTP guard and limits) carry it to a host."""
