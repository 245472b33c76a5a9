"""Passes that compare two series: what the step removed or renamed (fields, methods, values,
external IDs, framework and addon names), changed signatures, and the core views' anchors; with
the readers they share (core uses, core views and xml ids, view inheritance, record models)."""
