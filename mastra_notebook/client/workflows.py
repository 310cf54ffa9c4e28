"""A workflow of a Mastra server (``client.workflow(id)``), as client-js's ``Workflow``: ``stream`` a
run into a view, list its ``runs``, or watch one (``run(run_id)``: a :class:`WorkflowRun`)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from ..core.records import WorkflowRunRecord
from ..render import DEFAULT_MAX_HEIGHT
from .bodies import WORKFLOW_BODY, body_options, camel, checked
from .catalogue import WorkflowRuns
from .resource import Resource
from .session import Kind, RunSession, new_run

if TYPE_CHECKING:
    from ..widget.streamview import StreamView

__all__ = ["Workflow", "WorkflowRun"]


class Workflow(Resource):
    """A workflow of a Mastra server (``client.workflow(id)``): ``stream`` a run into a view, list its
    ``runs``, or watch one with ``run(run_id)``."""

    route = "workflows"

    @checked(WORKFLOW_BODY)
    def stream(
        self,
        input_data: Any = None,
        *,
        run_id: str | None = None,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        **options: Any,
    ) -> StreamView:
        """Start a run (a new run id unless given) and stream it into a new view: a suspended step
        is resumed with ``view.resume(resume_data, step=None)``; Stop cancels the run on the server."""
        run_id = run_id or str(uuid.uuid4())
        cancel = f"{self.path}/runs/{quote(run_id)}/cancel"
        view, session = _workflow_session(self, "workflow", max_height, run_id, cancel)
        body = {"inputData": input_data if input_data is not None else {}, **body_options(options)}
        session.post(f"{self.path}/stream?{urlencode({'runId': run_id})}", body)
        return view

    def runs(self, **filters: Any) -> WorkflowRuns:
        """This workflow's runs, by run id, newest first; shown as a table. Filters as Mastra's
        (``status="running"``, ``resource_id=...``, ``page``, ``per_page``) in snake_case."""
        if filters.get("per_page") is not None:  # Mastra's storage pages only when given both
            filters.setdefault("page", 0)
        query = {camel(k): v for k, v in filters.items() if v is not None}
        listed = self.client.transport.call("GET", f"{self.path}/runs", params=query)
        runs = listed.get("runs", []) if isinstance(listed, Mapping) else []
        by_id = {str(run.get("runId") or run.get("run_id")): run for run in runs if isinstance(run, Mapping)}
        total = listed.get("total") if isinstance(listed, Mapping) else None
        return WorkflowRuns(by_id, f"workflow {self.id}", total)

    def run(self, run_id: str) -> WorkflowRun:
        """An existing run of this workflow (started here or by anyone else), to watch or inspect."""
        return WorkflowRun(self, run_id)


class WorkflowRun:
    """``client.workflow(id).run(run_id)``: ``view()`` watches it, ``info()`` is the server's record."""

    def __init__(self, workflow: Workflow, run_id: str) -> None:
        self.workflow = workflow
        self.id = run_id
        self.path = f"{workflow.path}/runs/{quote(run_id)}"

    def __repr__(self) -> str:
        return f"<WorkflowRun {self.id!r} of {self.workflow.id!r}>"

    def info(self) -> WorkflowRunRecord:
        """The server's record of the run: status, result, steps, ... (``GET .../runs/:runId``)."""
        found = self.workflow.transport.call("GET", self.path)
        return WorkflowRunRecord.model_validate(
            {**(found if isinstance(found, Mapping) else {}), "runId": self.id}
        )

    def view(self, *, max_height: str | float | None = DEFAULT_MAX_HEIGHT) -> StreamView:
        """Watch the run (Mastra's observe stream: what it did so far, then live until it ends) in a
        new view. Stop stops watching; the run itself goes on."""
        view, session = _workflow_session(self.workflow, "observed", max_height, self.id)
        view.subtitle = f"observing run {self.id}"
        session.post(f"{self.workflow.path}/observe?{urlencode({'runId': self.id})}", {})
        return view


def _workflow_session(
    workflow: Workflow,
    kind: Kind,
    max_height: str | float | None,
    run_id: str,
    cancel_path: str | None = None,
) -> tuple[StreamView, RunSession]:
    """A new view of a workflow's run ``run_id`` (known before any chunk), and its session."""
    view, stream = new_run(True, f"workflow {workflow.id}", max_height=max_height)
    stream.run.adopt_run_id(run_id)
    return view, RunSession(workflow.client.transport, stream, workflow.path, kind, cancel_path=cancel_path)
