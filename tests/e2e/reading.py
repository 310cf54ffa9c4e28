"""Reading a view's whole text as a reader would, by scrolling it: a long text keeps only the blocks
near view in the DOM (js/src/render/block-window.ts), so its textContent holds only that window."""

from __future__ import annotations

from typing import Any

# Scrolls a view from top to bottom as a reader would, two box heights a step, each step until the
# window has settled, and gathers what every block of the run's text parts showed: the whole text
# (parts joined by a newline, as their textContent would be without windowing) and its h2 headings.
READ_BY_SCROLLING = """async (el) => {
    const settle = async () => {
        let last = '';
        for (let i = 0; i < 20; i++) {
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
            const now = [...el.querySelectorAll('[data-block]')].map((b) => b.dataset.block).join(',');
            if (now === last) return;
            last = now;
        }
    };
    const parts = [...el.querySelectorAll('.mn-run-root > .mn-parts > .mn-text')];
    const seen = parts.map(() => new Map());
    el.scrollTop = 0;
    for (;;) {
        await settle();
        parts.forEach((part, i) => {
            for (const b of part.querySelectorAll('.mn-md-block[data-block]')) {
                seen[i].set(Number(b.dataset.block), [b.textContent, b.querySelectorAll('h2').length]);
            }
        });
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
        el.scrollTop += 2 * el.clientHeight;
    }
    const texts = parts.map((part, i) => {
        const blocks = [...seen[i].entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
        const tail = part.querySelector('.mn-md-tail');
        return {text: blocks.map((b) => b[0]).join('') + (tail ? tail.textContent : ''),
                h2: blocks.reduce((n, b) => n + b[1], 0) + (tail ? tail.querySelectorAll('h2').length : 0),
                missing: blocks.length === 0 ? 0 : Math.max(...seen[i].keys()) + 1 - blocks.length};
    });
    return {text: texts.map((t) => t.text).join('\\n'), h2: texts.reduce((n, t) => n + t.h2, 0),
            missing: texts.reduce((n, t) => n + t.missing, 0)};
}"""


def read_by_scrolling(root: Any) -> dict[str, Any]:
    """``{text, h2, missing}`` of a view's root text parts, read by scrolling it end to end (blocks far
    from view are not in the DOM: textContent alone has only the window)."""
    found: dict[str, Any] = root.evaluate(READ_BY_SCROLLING)
    assert found["missing"] == 0, f"{found['missing']} blocks never came back while scrolling"
    return found
