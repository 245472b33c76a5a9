from assista_mcp.cli import main

raise SystemExit(main())
