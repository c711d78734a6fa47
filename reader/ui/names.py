"""The window's names for the library's own values (statuses, sort orders, columns,
the default triage decisions), translated when asked for: the library keeps its keys."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate


def status(value: str) -> str:
    """A reading status's name: unread, reading, read (the key itself if unknown)."""
    if value == "unread":
        return translate("Names", "Unread")
    if value == "reading":
        return translate("Names", "Reading")
    if value == "read":
        return translate("Names", "Read")
    return value


def mark_status(value: str) -> str:
    """The action that gives a paper a status."""
    if value == "unread":
        return translate("Names", "Mark Unread")
    if value == "reading":
        return translate("Names", "Mark Reading")
    if value == "read":
        return translate("Names", "Mark Read")
    return value


def sort_order(key: str) -> str:
    """A sort order's name (reader.core.sorting.SORT_KEYS)."""
    names = {
        "library": translate("Names", "Library order"),
        "title": translate("Names", "Title"),
        "author": translate("Names", "First author"),
        "year": translate("Names", "Year"),
        "venue": translate("Names", "Venue"),
        "added": translate("Names", "Date added"),
        "changed": translate("Names", "Date changed"),
        "status": translate("Names", "Status"),
        "relevance": translate("Names", "Relevance"),
        "interest": translate("Names", "Predicted interest"),
        "like": translate("Names", "More like this"),
    }
    return names.get(key, key)


def column(heading: str) -> str:
    """A heading of the table view's columns (reader.ui.paper_list.COLUMNS)."""
    names = {
        "Title": translate("Names", "Title"),
        "First author": translate("Names", "First author"),
        "Venue": translate("Names", "Venue"),
        "Year": translate("Names", "Year"),
        "Status": translate("Names", "Status"),
        "Tags": translate("Names", "Tags"),
        "Added": translate("Names", "Added"),
    }
    return names.get(heading, heading)


def decision_label(label: str) -> str:
    """A triage decision's label: the default ones translated, the user's own as typed."""
    defaults = {
        "Interesting": translate("Names", "Interesting"),
        "Read later": translate("Names", "Read later"),
        "Skip": translate("Names", "Skip"),
    }
    return defaults.get(label, label)
