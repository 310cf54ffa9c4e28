"""The example notebooks run top to bottom against the bundled server, as a newcomer would run them:
in the environment ``scripts/demo.sh`` builds, when ``MN_DEMO_VENV`` names one (scripts/test.sh
installs the demo's packages into ``.venv-demo/`` and sets it), else in the test environment."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from importlib import metadata
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import mastra_notebook as mn

from ..helpers import kernel_sees_the_package

pytestmark = pytest.mark.server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


DEMO_VENV = os.environ.get("MN_DEMO_VENV")


def demo_kernel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The kernel the examples run in: the demo environment's Python (``MN_DEMO_VENV``), as a kernel
    spec of its own on ``JUPYTER_PATH``; else this environment's ``python3``."""
    kernel_sees_the_package(monkeypatch)
    if DEMO_VENV is None:
        return "python3"
    python = Path(DEMO_VENV).resolve() / "bin" / "python"
    spec = tmp_path / "jupyter" / "kernels" / "mn-demo"
    spec.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "demo", "language": "python"})
    )
    monkeypatch.setenv(
        "JUPYTER_PATH", os.pathsep.join(filter(None, [str(spec.parents[1]), os.environ.get("JUPYTER_PATH")]))
    )
    return "mn-demo"


def run_notebook(name: str, mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """Run an example in a copy of examples/ (what it writes stays out of the repository), in the
    demo's environment."""
    monkeypatch.setenv("MASTRA_BASE_URL", mastra_url)
    kernel = demo_kernel(monkeypatch, tmp_path)
    workdir = shutil.copytree(EXAMPLES, tmp_path / "examples")
    notebook = nbformat.read(workdir / name, as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name=kernel, resources={"metadata": {"path": str(workdir)}}
    ).execute()
    return "\n".join(
        str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


# What each example shows when it runs against the bundled server (its outputs' text).
SHOWN = {
    "quickstart.ipynb": ["'temperatureC': 18", "WeatherSummary(city='Paris'", "finished"],
    "nested-agents.ipynb": ["('getForecast', 'done'), ('agent-analyst', 'done')", "forecast-progress"],
    "approvals.ipynb": ["suspended", "{'deleted': True, 'id': 'abc-123'}", "Lisbon", "'approved': True"],
    "teaching.ipynb": [
        "step 2: messages ['user', 'assistant', 'tool'], tools offered ['agent-researcher']",  # the request
        "agent-researcher: 0.322 s (by trace)",  # where the time went: the trace's span
        "agent_run",  # the kept trace's spans, as a table
        "'What do I teach, and what is my name?': 2 messages recalled, 2 saved",  # the memory chat
        "20 of 103 chunks: ['running']",
        "[('getForecast', 'done'), ('agent-analyst', 'done')]",
        "agent-researcher",
    ],
    "prompt-iteration.ipynb": [
        "judge-answers-question",  # client.scorers() lists the server's scorers
        "differ on any score: [0, 1, 2, 3, 4]",  # answer-length tells every variant apart
        "plain and uppercase differ on names_term: [2, 3, 4]",  # upper case loses Paris, Everest, ...
        "--- plain #1\n+++ uppercase #1",  # one step-by-step comparison (of every repeat)'s text diff
        "sent_to_mastra=True",  # the human label reached Mastra's feedback route
        # the pairwise judge: plain names the term where uppercase loses it (Paris, Everest,
        # photosynthesis), and says more where both name it (NASA, IBM): 10 pairs, 5 questions x 2 repeats
        "<Pairwise plain vs uppercase: 10-0-0, position bias 0.50>",
        "only it names Paris",
        "it says more",
        # a short review of the same pairs, six labelled as a reader who cares for proper nouns would
        "<Pairwise review of 10 items: 7 of 10, 6 labelled>",
        # the judge against that reader: it said plain on every pair (kappa 0: no more than its habit),
        # the reader calls a tie where both answers keep the term (four of the six labelled)
        "<Agreement of judge (plain vs uppercase) and you: n=6, kappa=0.000, 4 disagree>",
        # agreement with six hand labels: they differ on PHOTOSYNTHESIS only; p_o = 5/6, each says True
        # 3 (the scorer) and 4 (the person) times of 6: p_e = .5 * 4/6 + .5 * 2/6 = .5, kappa = 2/3
        "<Agreement of names_term and labels: n=6, kappa=0.667, 1 disagree>",
        "True",  # the saved experiment reopens with the same summary
        "<Comparisons of 'plain words' and 'uppercase' on inputs [0, 1, 2, 3, 4]>",  # two on the server
    ],
    "tool-iteration.ipynb": [
        "finished notebook [{'city': 'Mexico City', 'rainy_days': 133}",  # v1 ran in the kernel
        "'share': 0.241}",  # v2, changed in the notebook, ran on the next request
        '+- top_cities returned [{"city":"Mexico City","rainy_days":133,"share":0.241}',  # compared
        "finished | invalid arguments for top_cities: n: Input should be a valid integer",
    ],
}


@pytest.mark.parametrize("name", SHOWN)
def test_an_example_shows_what_it_should(
    name: str, mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = run_notebook(name, mastra_url, monkeypatch, tmp_path)
    assert [shown for shown in SHOWN[name] if shown not in text] == []
    if name == "prompt-iteration.ipynb":
        assert (tmp_path / "examples" / "paris.html").read_text().startswith("<!doctype html>")
        saved = mn.load_experiment(tmp_path / "examples" / "glossary-experiment")
        assert len(saved.to_dataframe()) == 30  # 5 questions x 3 variants x 2 repeats
        assert saved.summary().loc["uppercase", "names_term_mean"] == 0.4


def test_two_waits_in_one_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """wait() inside a running kernel, twice in a cell: the second view must not hang (nest-asyncio2
    swaps asyncio.Future for its own class once applied; a view made before is no instance of it)."""
    kernel_sees_the_package(monkeypatch)
    recording = EXAMPLES / "recordings" / "agent-as-tool.jsonl"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        f"import mastra_notebook as mn\na = mn.view({str(recording)!r}, delay=0.005)\n"
        f"b = mn.view({str(recording)!r}, delay=0.01)\nprint(a.wait(30).status, b.wait(30).status)"
    )]  # fmt: skip
    NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    assert notebook.cells[0].outputs[0]["text"].strip() == "finished finished"


@pytest.mark.skipif(DEMO_VENV is None, reason="scripts/test.sh sets MN_DEMO_VENV to the demo's environment")
def test_the_examples_kernel_is_the_demos_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The examples' kernel runs in the demo's environment: its own Python, with none of the test
    environment's tools (pytest), and the package's extras the demo installs."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        "import sys, importlib.util as u\n"
        "print(sys.prefix, [m for m in ('pytest', 'pandas', 'scipy', 'mastra_notebook') if u.find_spec(m)])"
    )]  # fmt: skip
    NotebookClient(notebook, timeout=60, kernel_name=demo_kernel(monkeypatch, tmp_path)).execute()
    prefix, found = notebook.cells[0].outputs[0]["text"].strip().split(" ", 1)
    assert Path(prefix) == Path(str(DEMO_VENV)).resolve()
    assert found == "['pandas', 'scipy', 'mastra_notebook']"


def test_every_example_is_run() -> None:
    """Each notebook in examples/ runs in test_an_example_shows_what_it_should (a new one too)."""
    assert sorted(SHOWN) == sorted(path.name for path in EXAMPLES.glob("*.ipynb"))


def demo_distributions() -> set[str]:
    """The distributions scripts/demo.sh installs into .venv/ (``DEMO_PACKAGES``, scripts/installs.sh):
    the package with the extras named there, JupyterLab, and what each of those requires in turn
    (installed here to read)."""
    installs = (EXAMPLES.parent / "scripts" / "installs.sh").read_text()
    (extras,) = re.findall(r'DEMO_PACKAGES=\(-e "\.\[([a-z,]+)\]"', installs)
    wanted = [f"mastra-notebook[{extras}]", "jupyterlab"]
    found: set[str] = set()
    while wanted:
        requirement = Requirement(wanted.pop())
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        found.add(name)
        for needed in metadata.requires(name) or []:
            needs = Requirement(needed)
            if needs.marker is None or any(
                needs.marker.evaluate({"extra": extra}) for extra in ["", *requirement.extras]
            ):
                wanted.append(str(needs.name) + (f"[{','.join(needs.extras)}]" if needs.extras else ""))
    return found


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_demo_installs_what_an_example_imports(name: str) -> None:
    """The demo's own environment has every module an example imports (pandas, which the notebooks'
    tables use, was missing once): stdlib, or a distribution the demo's install line brings."""
    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    imported = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", code, re.MULTILINE))
    installed = demo_distributions()
    providers = metadata.packages_distributions()
    missing = [
        module
        for module in sorted(imported - set(sys.stdlib_module_names) - {"mastra_notebook"})  # the package
        if not {canonicalize_name(d) for d in providers.get(module, [])} & installed
    ]
    assert missing == []


def test_the_readme_and_the_quickstart_point_to_every_example() -> None:
    """A reader of the README, and of the notebook the demo opens, learns each example exists."""
    readme = (EXAMPLES.parent / "README.md").read_text()
    quickstart = nbformat.read(EXAMPLES / "quickstart.ipynb", as_version=4)
    told = "\n".join(cell.source for cell in quickstart.cells if cell.cell_type == "markdown")
    for path in EXAMPLES.glob("*.ipynb"):
        assert re.search(rf"`examples/{re.escape(path.name)}`[^\n]+", readme), path.name
        if path.name != "quickstart.ipynb":
            assert re.search(rf"\({re.escape(path.name)}\)[^\n]+", told), path.name
    assert readme.count("```sh\nbash scripts/demo.sh") == 1  # still the two commands
