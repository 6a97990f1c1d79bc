"""autoac.flow_models, the old name of autoac.flows.models: importing it
gives that module itself (one module, two names)."""
import sys

from .flows import models

sys.modules[__name__] = models
