"""kg: a knowledge-graph builder for news articles.

>>> import kg
>>> kg.Settings().base_iri
'https://w3id.org/kgnews/id/'
"""

from kg.config import Settings
from kg.errors import KGError

__all__ = ["KGError", "Settings"]
__version__ = "0.1.0"
