"""The rules of the step into 19.0: its Python (libcst) and XML (view) rewrites."""
