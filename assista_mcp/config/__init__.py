"""Where the settings come from: flags, ``ASSISTA_*`` variables, the trusted project file, an Odoo
configuration file, MCP hosts' configuration files, and the HTTP bearer token."""
