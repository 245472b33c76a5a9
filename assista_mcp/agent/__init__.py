"""The bundled agent: a LiteLLM model driving the tool loop against our server over MCP."""
