"""The model side: LiteLLM calls, streaming, retries, provider quirks, costs and summaries."""
