"""Paper Reader: read, triage and annotate research paper lists."""

__version__ = "0.1.0"
