"""An Odoo task benchmark: tasks mined from real OCA commits, judged by plain odoo-bin (issue 32)."""
