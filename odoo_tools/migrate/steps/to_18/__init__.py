"""The rules of the step into 18.0: its Python (libcst) and XML (view) rewrites."""
