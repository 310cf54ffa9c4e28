"""Small HTML pieces for the static renderer: escaping, inline styles, bidi isolation, markdown.

Inline styles only (GitHub strips <style> and classes), in colours that read on a light and on a
dark page alike: text keeps the page's own colour; accents are mid tones on borders; tints are
translucent greys. Two attributes carry meaning for tests, not for looks, and GitHub may strip
them: ``data-mn-control`` on what works a view rather than says something (the widget's buttons,
the transcript's "show all"), and the class ``mn-fold-only`` on a folded card's one-line summary.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

BORDER = "rgba(128,128,128,0.45)"
TINT = "rgba(128,128,128,0.12)"
MUTED = "opacity:0.75"
CARD = f"border:1px solid {BORDER};border-radius:6px;padding:4px 8px;margin:6px 0"
PRE = (
    "white-space:pre-wrap;overflow-wrap:break-word;margin:2px 0;padding:4px 6px;"
    f"background:{TINT};border-radius:4px;font-size:90%"
)
LABEL = "font-size:85%;font-weight:600;opacity:0.8"
KIND = "font-size:75%;text-transform:uppercase;letter-spacing:0.04em;opacity:0.75"  # Tool, Step, Source
SUMMARY = "cursor:pointer"
TONES = {"ok": "#2da44e", "error": "#e5534b", "warn": "#d29922", "active": "#4493f8", "neutral": "#8b949e"}


def esc(text: Any) -> str:
    return escape(str(text), quote=True)


def tag(name: str, *content: str, style: str = "", **attrs: str | None) -> str:
    """``<name style=...>content</name>``; attribute values are escaped, ``None`` leaves one out."""
    bits = [name]
    for key, value in attrs.items():
        if value is not None:
            attr = key.rstrip("_").replace("_", "-")  # class_ -> class, data_kind -> data-kind
            bits.append(attr if value == "" else f'{attr}="{esc(value)}"')
    if style:
        bits.append(f'style="{esc(style)}"')
    return f"<{' '.join(bits)}>{''.join(content)}</{name}>"


def text(value: Any, style: str = "") -> str:
    return tag("span", esc(value), style=style) if style else esc(value)


def bdi(value: Any, style: str = "") -> str:
    """Untrusted label text (a tool name, an agent id): isolated, so U+202E cannot reorder around it."""
    return tag("bdi", esc(value), style=style, dir="auto")


def label(value: str) -> str:
    return tag("div", esc(value), style=LABEL)


def badge(word: str, tone: str) -> str:
    colour = TONES.get(tone, TONES["neutral"])
    style = f"border:1px solid {colour};border-radius:9px;padding:0 6px;font-size:80%;white-space:nowrap"
    return tag("span", esc(word), style=style)


def details(summary: str, *body: str, opened: bool = False, style: str = "", **attrs: str | None) -> str:
    head = tag("summary", summary, style=SUMMARY)
    return tag("details", head, *body, style=style, open="" if opened else None, **attrs)


def fold_only(content: str, style: str = "") -> str:
    """A folded card's summary (``(city="Paris")``, ``→ 18 °C``): what the widget shows only folded."""
    return tag("span", content, style=style, class_="mn-fold-only") if content else ""


# ---- markdown: raw HTML off, links kept only to http(s)/mailto, no remote images ----------------

_SAFE_SCHEMES = {"http", "https", "mailto"}


def safe_href(url: str) -> str | None:
    """The link target if it is an absolute http(s) or mailto URL, else None (as url.ts decides)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in _SAFE_SCHEMES:
        return None
    if parts.scheme.lower() != "mailto" and not parts.netloc:
        return None
    return url


def _link_open(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    href = safe_href(str(token.attrGet("href") or ""))
    token.attrs = {"href": href, "target": "_blank", "rel": "noopener noreferrer nofollow"} if href else {}
    return self.renderToken(tokens, idx, options, env)


def _image(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return f'<span style="{MUTED}">[image{": " + esc(alt) if alt else ""}]</span>'


def _markdown() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False})  # the JS markdown-it's own preset: tables, ~~
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image)
    return md


MARKDOWN = _markdown()


_CODE = f"background:{TINT};padding:0 3px;border-radius:3px;font-size:90%"


def markdown_words(source: str) -> str:
    """Markdown as the words a reader sees, on one line (a tile's first lines): no ``**``, ``#`` or
    list marks; code as written, an image by its alt text, blocks and lines joined by spaces."""
    words: list[str] = []
    for token in MARKDOWN.parse(source):
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


def markdown(source: str) -> str:
    """Markdown as HTML, code shaded as the widget shades it (untrusted text is escaped: every tag
    here is markdown-it's own)."""
    html = str(MARKDOWN.render(source))
    html = html.replace("<pre><code", f'<pre style="{PRE}"><code style="font-size:100%"')
    return html.replace("<code>", f'<code style="{_CODE}">')
