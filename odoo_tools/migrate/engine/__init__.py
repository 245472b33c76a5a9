"""The engine of a migration, whatever the series: the plan (which steps, in which order), a
module's files held in memory, offset edits for XML and libcst rules for Python, the step report,
Odoo's own upgrade_code scripts, the manifest's version, the commit and the proof. It knows no
series' rules: those are ``steps/`` (one folder per target series) and ``passes/`` (what two
series' knowledge tells)."""
