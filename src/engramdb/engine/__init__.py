"""The engine: the ``Memory`` facade and its scoped view. Modules below the engine never
import it; they take what they need as parameters or through ``engramdb.facade.Facade``."""

from .memory import Memory
from .scoped import ScopedMemory

__all__ = ["Memory", "ScopedMemory"]
