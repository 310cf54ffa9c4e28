"""The kernel's one renderer (render/engine.py): the widget's bundle in an embedded V8. It starts at the
first transcript, not at import; a first transcript made inside a running event loop (a notebook
cell runs inside the kernel's) neither hangs nor keeps the process from ending."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from mastra_notebook.render.engine import engine

from .conftest import fixture_path


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter, which must end by itself (a hang is a failure, not a wait)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_importing_the_package_starts_no_engine() -> None:
    done = _python(
        """
        import sys
        import mastra_notebook as mn
        assert "py_mini_racer" not in sys.modules, "the engine's library was loaded at import"
        mn.collect(b'{"type":"text-delta","payload":{"id":"t","text":"ok"}}\\n')
        assert "py_mini_racer" not in sys.modules, "a result without its picture started the engine"
        print("ok")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_first_transcript_inside_a_running_loop_returns_and_the_process_ends() -> None:
    done = _python(
        f"""
        import asyncio
        import mastra_notebook as mn

        async def cell():  # as a notebook cell runs: inside the kernel's running loop
            html = mn.collect({str(fixture_path("tool-call"))!r})._repr_html_()
            await asyncio.sleep(0)
            return html

        html = asyncio.run(cell())
        assert "getWeather" in html
        print("ok")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_untrusted_html_keeps_nothing_that_acts_or_loads() -> None:
    clean = engine().sanitize(
        '<a href="relative.html">r</a><a href="https://ok.example" onclick="x()">ok</a>'
        '<td background="http://tracker.example/t.gif">t</td><p style="color:red" class="c" id="i">p</p>'
    )
    assert 'href="relative.html"' not in clean  # a link goes somewhere only by an absolute address
    assert 'href="https://ok.example"' in clean
    assert "onclick" not in clean
    assert "tracker.example" not in clean
    assert "style=" not in clean
    assert "class=" not in clean
    assert 'id="i"' not in clean
