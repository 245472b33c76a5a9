"""The rules of the step into 20.0: its Python (libcst) and XML (view) rewrites."""
