from videopac.cli import main

raise SystemExit(main())
