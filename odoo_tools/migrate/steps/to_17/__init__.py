"""The rules of the step into 17.0: its Python (libcst) and XML (view) rewrites."""
