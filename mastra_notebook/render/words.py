"""Markdown read as the words a reader sees, on one line: a tile's first lines (no HTML is made)."""

from __future__ import annotations

from markdown_it import MarkdownIt

__all__ = ["markdown_words"]

_MARKDOWN = MarkdownIt("js-default", {"html": False})  # the JS markdown-it's own preset: tables, ~~


def markdown_words(source: str) -> str:
    """Markdown as the words a reader sees, on one line (a tile's first lines): no ``**``, ``#`` or
    list marks; code as written, an image by its alt text, blocks and lines joined by spaces."""
    words: list[str] = []
    for token in _MARKDOWN.parse(source):
        if token.type in ("fence", "code_block"):
            words.append(token.content)
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type == "image":  # its alt text is its children
                words += (alt.content for alt in child.children or [])
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        words.append(" ")
    return " ".join("".join(words).split())
