"""python3 -m autoac.measure, the same as python3 -m autoac measure and
tools/ac-measure (autoac.measure.main)."""
import sys

from . import main

sys.exit(main())
