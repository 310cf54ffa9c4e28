"""Script injection in every field a chunk can carry: the widget shows it as inert text.

Every payload tries to set ``window.__pwned = "<field>"`` (or open a dialog) by every classic route:
raw ``<script>``, event handler attributes, ``javascript:`` / ``data:`` links, ``<iframe srcdoc>``,
SVG. The run is fed from a JSONL file (so a garbage line can be in it too).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

import mastra_notebook as mn
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

RUN = "run-xss"


def evil(which: str) -> str:
    """HTML and markdown that run ``window.__pwned = which`` if anything is interpreted."""
    set_it = f"window.__pwned='{which}'"
    return (
        f"PWN-{which} <script>{set_it}</script>"
        f'<img src=x onerror="{set_it}">'
        f'<svg onload="{set_it}"><script>{set_it}</script></svg>'
        f"<iframe srcdoc=\"<script>parent.__pwned='{which}'</script>\"></iframe>"
        f'<a href="javascript:{set_it}">a-{which}</a>'
        f'<details open ontoggle="{set_it}"><summary>s</summary></details>'
        f'<style>@import "javascript:{set_it}"</style>'
        f"[x-{which}](javascript:{set_it}) "
        f"[d-{which}](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) "
        f"![i-{which}](javascript:alert('{which}')) "
        f"<javascript:alert('{which}')> "
        f"<object data=\"javascript:alert('{which}')\"></object>"
        f'<math><mtext><img src=x onerror="{set_it}"></mtext></math>'
        f"{{{{constructor.constructor('alert(\"{which}\")')()}}}}"
    )


def tool_name(which: str) -> str:
    return f"<img src=x onerror=\"window.__pwned='{which}'\">"


SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=\'svg-onload\'">'
    "<script>window.__pwned='svg-file'</script></svg>"
)
HTML_FILE = "<html><body><script>window.__pwned='html-file'</script><img src=x onerror=alert('html-file')></body></html>"


def chunk(type_: str, payload: Any = None, **extra: Any) -> dict[str, Any]:
    value: dict[str, Any] = {"type": type_, "runId": RUN, "from": "AGENT", **extra}
    if payload is not None:
        value["payload"] = payload
    return value


def nested(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A chunk of the sub-agent, wrapped in the tool-output envelope of tool call ``call-agent``."""
    inner = {"type": type_, "runId": "run-sub", "from": "AGENT", "payload": payload}
    return chunk("tool-output", {"toolCallId": "call-agent", "toolName": "agent-evil", "output": inner})


def b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


def chunks() -> list[Any]:
    """The run: dicts, and one raw garbage line (a str)."""
    # fmt: off
    return [
        chunk("start", {"id": evil("agent-id")}),
        chunk("step-start", {"messageId": "m1", "warnings": [evil("warning")]}),
        chunk("reasoning-start", {"id": "r1"}),
        chunk("reasoning-delta", {"id": "r1", "text": evil("reasoning")}),
        chunk("reasoning-end", {"id": "r1"}),
        chunk("text-start", {"id": "t1"}),
        chunk("text-delta", {"id": "t1", "text": "# Title\n\n" + evil("text") + "\n\n"}),
        chunk("text-delta", {"id": "t1", "text": "Fine links: [ok](https://example.com/ok) and <mailto:a@example.com>.\n\n"}),
        chunk("text-delta", {"id": "t1", "text": "```html\n" + evil("code") + "\n```\n\n<div>" + evil("html-block") + "</div>"}),
        chunk("text-end", {"id": "t1"}),
        # a tool whose name, args and result are all payloads
        chunk("tool-call-input-streaming-start", {"toolCallId": "call-1", "toolName": tool_name("tool-name")}),
        chunk("tool-call-delta", {"toolCallId": "call-1", "argsTextDelta": json.dumps({"q": evil("args-text")})}),
        chunk("tool-call", {"toolCallId": "call-1", "toolName": tool_name("tool-name"), "args": {"q": evil("args")}}),
        chunk("tool-output", {"toolCallId": "call-1", "output": {"type": "progress", "html": evil("tool-output")}}),
        chunk("tool-output", {"toolCallId": "call-1", "output": evil("tool-output-string")}),
        chunk("tool-result", {"toolCallId": "call-1", "toolName": tool_name("tool-name"), "result": evil("result")}),
        # a tool that fails with a payload message
        chunk("tool-call", {"toolCallId": "call-2", "toolName": "failing", "args": {}}),
        chunk("tool-error", {"toolCallId": "call-2", "toolName": "failing", "error": {"message": evil("tool-error"), "name": evil("tool-error-name")}}),
        # a tool declined with a payload reason, one suspended with a payload
        chunk("tool-call", {"toolCallId": "call-3", "toolName": "declined", "args": {}}),
        chunk("tool-output-denied", {"toolCallId": "call-3", "toolName": "declined", "approval": {"reason": evil("denied")}}),
        chunk("tool-call", {"toolCallId": "call-4", "toolName": "suspends", "args": {}}),
        chunk("tool-call-suspended", {"toolCallId": "call-4", "toolName": "suspends", "suspendPayload": {"q": evil("suspend")}}),
        # a sub-agent streamed inside a tool
        chunk("tool-call", {"toolCallId": "call-agent", "toolName": "agent-evil", "args": {"prompt": "go"}}),
        nested("start", {"id": evil("sub-agent-id")}),
        nested("text-start", {"id": "s1"}),
        nested("text-delta", {"id": "s1", "text": evil("nested-text")}),
        nested("text-end", {"id": "s1"}),
        nested("finish", {"stepResult": {"reason": "stop"}, "output": {"usage": {"inputTokens": 1, "outputTokens": 1}}}),
        chunk("tool-result", {"toolCallId": "call-agent", "toolName": "agent-evil", "result": {"text": evil("nested-result")}}),
        # a workflow step and a background task with payload names
        chunk("workflow-step-start", {"stepName": evil("step-name"), "payload": {"x": evil("step-input")}}),
        chunk("workflow-step-output", {"stepName": evil("step-name"), "output": {"note": evil("step-output")}}),
        chunk("workflow-step-result", {"stepName": evil("step-name"), "status": evil("step-status"), "output": evil("step-result")}),
        chunk("background-task-started", {"taskId": evil("task-id"), "toolName": evil("task-tool")}),
        chunk("background-task-completed", {"taskId": evil("task-id"), "result": evil("task-result")}),
        chunk("goal", {"iteration": 1, "shouldContinue": False, "reason": evil("goal")}),
        # sources and files
        chunk("source", {"id": "s-js", "sourceType": "url", "url": "javascript:window.__pwned='source-url'", "title": evil("source-title")}),
        chunk("source", {"id": "s-data", "sourceType": "url", "url": "data:text/html,<script>window.__pwned='source-data'</script>", "title": "data source"}),
        chunk("source", {"id": "s-vb", "sourceType": "url", "url": " JaVaScRiPt:alert('source-mixed-case')", "title": "mixed case"}),
        chunk("source", {"id": "s-ok", "sourceType": "url", "url": "https://example.org/fine", "title": "fine source"}),
        chunk("file", {"base64": b64(SVG), "mimeType": "image/svg+xml", "filename": evil("svg-name")}),
        chunk("file", {"base64": b64(HTML_FILE), "mimeType": "text/html", "filename": "page.html"}),
        chunk("file", {"base64": "iVBORw0KGgo=\"><img src=x onerror=alert(1)>", "mimeType": "image/png", "filename": "broken.png"}),
        # structured output, data-*, raw, an unknown chunk type, a garbage line
        chunk("object", object={"advice": evil("object"), evil("object-key"): 1}),
        {"type": "data-evil", "data": {"html": evil("data")}, "id": evil("data-id")},
        {"type": f"data-{evil('data-type')}", "data": evil("data-value")},
        chunk("raw", {"html": evil("raw")}),
        chunk(f"x-{evil('unknown-type')}", {"html": evil("unknown")}),
        '{"type": "text-delta", <script>window.__pwned="invalid"</script><img src=x onerror=alert("invalid")> not json',
        # the end: an error, then a tripwire, both with payload messages
        chunk("error", {"error": {"message": evil("error"), "details": evil("error-details")}}),
        chunk("tripwire", {"reason": evil("tripwire"), "processorId": evil("processor"), "metadata": {"m": evil("tripwire-meta")}}),
        chunk("step-finish", {"stepResult": {"reason": evil("finish-reason")}, "output": {"usage": {"inputTokens": 3, "outputTokens": 4}}}),
        chunk("finish", {"stepResult": {"reason": "stop"}, "output": {"usage": {"inputTokens": 3, "outputTokens": 4}}}),
    ]
    # fmt: on


AUDIT = """(root) => {
    // Anywhere in the widget: no handler attributes, no frames or scripts, links and images safe only.
    const bad = [];
    for (const el of root.querySelectorAll('*')) {
        for (const attr of el.attributes) {
            const name = attr.name.toLowerCase();
            if (name.startsWith('on')) bad.push(`${el.tagName} ${name}`);
            if (['srcdoc', 'formaction', 'xlink:href', 'action', 'background', 'data'].includes(name))
                bad.push(`${el.tagName} ${name}=${attr.value}`);
            if (name === 'src' && !(el.tagName === 'IMG' && /^data:image\\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/.test(attr.value)))
                bad.push(`${el.tagName} src=${attr.value}`);
            if (name === 'href' && !(el.tagName === 'A' && /^(https?:|mailto:)/i.test(attr.value)))
                bad.push(`${el.tagName} href=${attr.value}`);
        }
    }
    const never = 'script, iframe, frame, frameset, object, embed, applet, base, meta, link, template';
    for (const el of root.querySelectorAll(never)) bad.push(`element ${el.outerHTML.slice(0, 200)}`);
    // In the rendered run (not the widget's own controls): no active or styling elements at all.
    const body = root.querySelector('.mn-body');
    const rich = 'svg, math, style, form, input, textarea, select, button:not(.mn-approve):not(.mn-decline):not(.mn-decline-confirm):not(.mn-decline-cancel):not(.mn-request-toggle), video, audio, [style]';
    // The footer's own label control (thumbs drawn as SVG, a score and a comment box) is the widget's.
    const own = '.mn-footer > .mn-feedback[data-mn-control]';
    for (const el of body.querySelectorAll(rich))
        if (!el.closest(own)) bad.push(`in the run: ${el.outerHTML.slice(0, 200)}`);
    return bad;
}"""


def test_payloads_are_inert_text(lab: e2e.Lab, page: Any, page_events: e2e.PageEvents) -> None:
    lines = [item if isinstance(item, str) else json.dumps(item) for item in chunks()]
    path = lab.root / "xss.jsonl"
    path.write_text("\n".join(lines) + "\n")
    listed_path = lab.root / "xss-list.json"  # the same run as a list (the garbage line as a str)
    listed_path.write_text(json.dumps(chunks()))
    cells = [
        "import json\nimport mastra_notebook as mn",
        f"v = mn.view({str(path)!r}, title={tool_name('title')!r})\nv",
        f"w = mn.view(json.loads(open({str(listed_path)!r}).read()))\nw",
    ]
    e2e.open_notebook(page, lab.notebook("security", cells))
    page.evaluate("() => { delete window.__pwned; }")
    e2e.run_cells(page, 0, 1, 2)
    root = e2e.view_root(page, 1)
    status = e2e.wait_status(root, *e2e.ENDED)
    assert status == mn.collect(chunks()).status  # the same verdict as Python
    listed = e2e.view_root(page, 2)
    e2e.wait_status(listed, *e2e.ENDED)
    for element in (root, listed):  # every part is rendered before it is audited
        expect(element.locator(".mn-run-root")).to_be_attached()
    page.wait_for_function("() => [...document.images].every(img => img.complete)")  # onload, onerror ran
    e2e.steady(root)  # and what a payload that somehow landed would have done

    # nothing ran
    assert page.evaluate("() => typeof window.__pwned") == "undefined", page.evaluate("() => window.__pwned")
    assert page_events.dialogs == []
    assert page_events.errors == []
    assert len(page.frames) == 1, [frame.url for frame in page.frames]
    # nothing dangerous is in the DOM
    for element in (root, listed):
        assert element.evaluate(AUDIT) == []
    hrefs = root.locator("a[href]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert sorted(hrefs) == ["https://example.com/ok", "https://example.org/fine", "mailto:a@example.com"]

    # ... and the payloads are shown, as text
    def shows(locator: Any, which: str, *, visible: bool = False) -> None:
        """The payload is there as text (folded parts, like an invalid line, are only attached)."""
        found = locator.filter(has_text=f"PWN-{which} <script>window.__pwned='{which}'</script>").first
        (expect(found).to_be_visible if visible else expect(found).to_be_attached)()

    text = root.locator(".mn-run-root > .mn-parts > .mn-text")
    shows(text, "text", visible=True)
    expect(text.locator("h1")).to_have_text("Title")
    assert "[x-text](javascript:window.__pwned='text')" in text.text_content()
    expect(text.locator("pre code")).to_contain_text("<script>window.__pwned='code'</script>")
    shows(text, "html-block")
    shows(root.locator(".mn-reasoning"), "reasoning")
    tool = root.locator(".mn-tool").first
    expect(tool.locator(".mn-card-head .mn-name")).to_have_text(tool_name("tool-name"))
    expect(tool.locator(".mn-card-head .mn-name")).to_be_visible()
    expect(root.locator(".mn-title")).to_have_text(tool_name("title"))
    shows(tool.locator(".mn-args"), "args")
    shows(tool.locator(".mn-result"), "result")
    shows(tool.locator(".mn-outputs"), "tool-output")
    shows(root.locator(".mn-tool[data-tool-status='error'] .mn-error"), "tool-error")
    shows(root.locator(".mn-tool[data-tool-status='denied'] .mn-denied"), "denied")
    shows(root.locator(".mn-tool[data-tool-status='suspended'] .mn-suspended"), "suspend")
    sub = root.locator(".mn-tool[data-tool-status='done'] .mn-run-nested")
    shows(sub.locator(".mn-text"), "nested-text")
    shows(root.locator(".mn-workflow-step .mn-name"), "step-name")
    shows(root.locator(".mn-background-task"), "task-result")
    shows(root.locator(".mn-goal"), "goal")
    source = root.locator(".mn-source").first
    shows(source.locator(".mn-source-title"), "source-title")
    expect(source.locator("a")).to_have_count(0)
    expect(root.locator(".mn-source a")).to_have_count(1)  # only the https one is a link
    shows(root.locator(".mn-file .mn-name"), "svg-name")
    expect(root.locator(".mn-file").filter(has_text="page.html").locator(".mn-preview")).to_contain_text(
        "<script>window.__pwned='html-file'</script>"
    )
    shows(root.locator(".mn-object"), "object")
    shows(root.locator(".mn-data"), "data")
    shows(root.locator(".mn-unknown"), "unknown")
    expect(root.locator(".mn-invalid pre")).to_contain_text('<script>window.__pwned="invalid"</script>')
    shows(root.locator(".mn-banner-error .mn-banner-message"), "error")
    shows(root.locator(".mn-banner-tripwire .mn-banner-message"), "tripwire")
    # a list of dicts is rendered the same way
    assert listed.get_attribute("data-status") == status
    shows(listed.locator(".mn-run-root > .mn-parts > .mn-text"), "text")
    expect(listed.locator(".mn-tool .mn-card-head .mn-name").first).to_have_text(tool_name("tool-name"))
    expect(listed.locator(".mn-invalid pre")).to_contain_text('<script>window.__pwned="invalid"</script>')

    # the chunk inspector (types, `from`, paths and each chunk's JSON, all from the stream) is inert too
    inspect = root.locator("button.mn-inspect")
    if inspect.count():
        inspect.click()
        rows = root.locator(".mn-inspector .mn-chunk")
        expect(rows).to_have_count(len(chunks()))
        rows.evaluate_all("rows => rows.forEach(row => row.click())")  # every chunk's JSON
        expect(root.locator(".mn-inspector .mn-chunk-json")).to_have_count(len(chunks()))
        expect(
            rows.locator(".mn-chunk-type").filter(has_text="x-PWN-unknown-type <script>").first
        ).to_be_attached()
        expect(
            root.locator(".mn-inspector .mn-chunk-json").filter(has_text="PWN-text <script>").first
        ).to_be_attached()
        e2e.steady(root)
        assert root.evaluate(AUDIT) == []
        e2e.screenshot(root.locator(".mn-inspector"), "security-inspector")

    e2e.assert_no_rate_limit(page)
    assert page.evaluate("() => typeof window.__pwned") == "undefined"
    assert page_events.dialogs == []
    assert re.search(r"PWN-text", root.text_content())
    e2e.screenshot(root, "security-payloads")  # its top: header, reasoning, text
    e2e.screenshot(tool, "security-tool-card")
    e2e.screenshot(root.locator(".mn-run-root > .mn-parts > .mn-source").first, "security-source")
    e2e.screenshot(root.locator(".mn-run-root > .mn-parts > .mn-banner-error"), "security-error-banner")
