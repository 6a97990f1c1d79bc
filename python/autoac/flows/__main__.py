"""python3 -m autoac.flows: the IREE flow and the coverage table (autoac.flows.main)."""
import sys

from . import main

sys.exit(main())
