"""One line on each chunk type Mastra streams (and the notebook's own lines), and on each ``from``
value: shown as the title of the inspector's type and from cells (scripts/contract.py writes them into
js/src/contract.generated.ts) and in ``help(mn.chunks)``. The one place they are said.
"""

from __future__ import annotations

from .feedback import FEEDBACK_TYPE
from .score import SCORES_TYPE
from .trace import TRACE_LINE

FROM: dict[str, str] = {
    "AGENT": "sent by an agent's own stream (its model, its tools, its steps)",
    "WORKFLOW": "sent by a workflow run (its steps, and what they stream)",
    "NETWORK": "sent by an agent network (its routing agent and the members it picks)",
    "SYSTEM": "sent by Mastra itself, not by an agent or workflow (a stream-level notice)",
    "USER": "written by the notebook into a recording (a trace, a label, scores): no server sent it",
}
"""Each ``from`` value of a chunk: who sent it."""

_TOOL = {
    "tool-call": "the model calls a tool: its name and arguments, complete",
    "tool-call-input-streaming-start": "the model starts writing a tool call's arguments",
    "tool-call-delta": "a piece of a tool call's arguments, as the model writes them",
    "tool-call-input-streaming-end": "the model finished writing a tool call's arguments",
    "tool-result": "what a tool returned, sent back to the model",
    "tool-error": "a tool failed: its error, sent back to the model instead of a result",
    "tool-output": "something a tool streamed while it ran (a sub-agent's chunks, progress)",
    "tool-call-approval": "a tool call waits for a person to approve or decline it",
    "tool-call-suspended": "a tool suspended itself, waiting for data to resume with",
    "tool-output-denied": "a person declined the tool call: it did not run",
    "tool-execution-start": "a network member tool starts",
    "tool-execution-end": "a network member tool ended",
    "tool-execution-abort": "a network member tool was aborted",
    "tool-execution-approval": "a network member tool waits for approval",
    "tool-execution-suspended": "a network member tool suspended itself",
}
_TEXT = {
    "start": "the run starts (its run id)",
    "step-start": "a step starts: one request to the model (its request, unless the server redacts it)",
    "step-finish": "a step ended: why the model stopped, and the step's token usage",
    "finish": "the run ended: why, its total usage, and (with memory) the messages the model was given",
    "text-start": "the model starts a block of text",
    "text-delta": "a piece of the model's text, as it streams",
    "text-end": "a block of the model's text ended",
    "reasoning-start": "the model starts reasoning (thinking before it answers)",
    "reasoning-delta": "a piece of the model's reasoning",
    "reasoning-end": "the model's reasoning ended",
    "reasoning-signature": "the provider's signature over the reasoning (kept, not shown)",
    "redacted-reasoning": "reasoning the provider keeps hidden: only that it happened",
    "reasoning-file": "a file the model produced while reasoning",
    "file": "a file the model produced (an image, say)",
    "source": "a source the model cites (a URL or document)",
    "object": "the structured output so far, as the model writes it",
    "object-result": "the structured output, complete and validated",
    "response-metadata": "the provider's response metadata (model id, timestamps)",
    "raw": "the provider's raw chunk, passed through as it came",
    "error": "the run failed: its error",
    "abort": "the run was aborted (Stop, or the client went away)",
    "tripwire": "a processor stopped the run on purpose (a guardrail): its reason",
    "watch": "a workflow's state, as Mastra's watch stream reports it",
    "custom": "a chunk a tool or step wrote itself (data-*): drawn by its renderer",
    "goal": "the agent's goal for the run, as it states it",
    "is-task-complete": "the agent's check whether its task is complete",
    "step-output": "what a nested step streamed, carried by its parent",
}
_WORKFLOW = {
    "workflow-start": "a workflow run starts",
    "workflow-finish": "a workflow run ended: its status and result",
    "workflow-canceled": "a workflow run was cancelled",
    "workflow-paused": "a workflow run paused",
    "workflow-step-start": "a workflow step starts: its input",
    "workflow-step-result": "a workflow step ended: its status and output",
    "workflow-step-finish": "a workflow step finished",
    "workflow-step-output": "something a workflow step streamed while it ran",
    "workflow-step-progress": "a workflow step's progress (of a foreach, say)",
    "workflow-step-suspended": "a workflow step suspended itself, waiting for data to resume with",
    "workflow-step-waiting": "a workflow step waits (for an event, or its turn)",
    "workflow-execution-start": "a network member workflow starts",
    "workflow-execution-end": "a network member workflow ended",
    "workflow-execution-abort": "a network member workflow was aborted",
    "workflow-execution-approval": "a network member workflow waits for approval",
    "workflow-execution-suspended": "a network member workflow suspended itself",
}
_NETWORK = {
    "agent-execution-start": "a network member agent starts",
    "agent-execution-end": "a network member agent ended",
    "agent-execution-abort": "a network member agent was aborted",
    "agent-execution-approval": "a network member agent waits for approval",
    "agent-execution-suspended": "a network member agent suspended itself",
    "routing-agent-start": "the network's routing agent starts choosing what runs next",
    "routing-agent-text-start": "the routing agent starts writing its reasoning",
    "routing-agent-text-delta": "a piece of the routing agent's text",
    "routing-agent-end": "the routing agent chose: which member runs, and why",
    "routing-agent-abort": "the routing agent was aborted",
    "network-execution-event-step-finish": "a network step (one member's run) finished",
    "network-execution-event-finish": "the network's run ended: its result",
    "network-object": "the network's structured output so far",
    "network-object-result": "the network's structured output, complete",
    "network-validation-start": "the network starts checking whether the task is done",
    "network-validation-end": "the network's check ended: done or not",
}
_BACKGROUND = {
    f"background-task-{state}": f"a background task (a tool left running while the agent goes on) {said}"
    for state, said in {
        "started": "started",
        "running": "is running",
        "progress": "reports progress",
        "output": "streamed output",
        "suspended": "suspended itself",
        "resumed": "resumed",
        "completed": "completed: its result",
        "failed": "failed: its error",
        "cancelled": "was cancelled",
    }.items()
}
_OWN = {
    TRACE_LINE: "the notebook's own line: the run's trace from Mastra's observability, kept in the recording",
    FEEDBACK_TYPE: "the notebook's own line: a person's label on the run (thumbs, score, comment)",
    SCORES_TYPE: "the notebook's own line: the run's scores, kept in the recording",
}

CHUNK_TYPES: dict[str, str] = {**_TEXT, **_TOOL, **_WORKFLOW, **_NETWORK, **_BACKGROUND, **_OWN}
"""Each chunk type: what it says happened."""


def glossary_text() -> str:
    """Both glossaries as text, one line each (``help(mn.chunks)`` ends with it)."""
    width = max(len(name) for name in [*CHUNK_TYPES, *FROM])
    types = [f"    {name:<{width}}  {line}" for name, line in sorted(CHUNK_TYPES.items())]
    senders = [f"    {name:<{width}}  {line}" for name, line in FROM.items()]
    return "\n".join(["Chunk types:", *types, "", "``from`` (who sent a chunk):", *senders])
