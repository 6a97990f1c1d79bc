"""The flows' models, now autoac.flows.models (this name is kept for
scripts and user code that import it)."""
from .flows.models import *  # noqa: F401,F403
from .flows.models import __all__  # noqa: F401
