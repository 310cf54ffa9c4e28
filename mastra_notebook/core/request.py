"""What the model was given in one step: the provider's request body, read into one shape.

Mastra's ``step-start`` chunk carries the provider's own request JSON (``payload.request.body``).
Each provider has its own shape; :func:`normalise_request` reads the ones Mastra's providers send
into a :class:`ModelRequest`, whose messages follow the AI SDK's prompt (roles ``system``, ``user``,
``assistant``, ``tool``; parts text, reasoning, tool call, tool result, image, file):

- Anthropic Messages (``@ai-sdk/anthropic``, ``anthropic.messages``);
- OpenAI chat completions (``@ai-sdk/openai`` ``.chat``, ``openai.chat``), and Mastra's model router,
  which speaks it too;
- OpenAI responses (``@ai-sdk/openai``, ``openai.responses``);
- Google generateContent (``@ai-sdk/google``, ``google.generative-ai``).

A body of another shape keeps ``raw`` and whatever common fields it has (``model``, ``temperature``...).
Nothing here raises on a body, whatever it holds. The functions are pure: the body is never changed.

A redacted stream (the server's default) carries ``{}``; then the request can come from Mastra's trace
(``source="trace"``), read elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, WrapSerializer

from .documented import Documented
from .values import capped

Api = Literal["anthropic.messages", "openai.chat", "openai.responses", "google.generative-ai"]

# Why a step has no request (RunResult.steps[i].request_reason).
NO_BODY_REASON = (  # one short sentence per step: it names the call that fills the request
    "Not carried: Mastra's server redacts a step's request from the stream by default. "
    "`trace()` on the run's view fills it in from the run's trace (observability on the server), "
    "and `save()` after it keeps it; `streamOptions: {redact: false}` keeps it in the stream."
)
NO_STEP_START_REASON = (
    "No step-start began this step in the stream read (a continuation's step began in the stream "
    "before it), so its request was not seen."
)

RAW_DEPTH_WRITTEN = 100  # as a result's other values (result.py): deeper levels are cut when written


def _write_raw(value: Any, handler: SerializerFunctionWrapHandler) -> Any:
    return handler(capped(value, RAW_DEPTH_WRITTEN))


Raw = Annotated[Any, WrapSerializer(_write_raw)]


class _Request(Documented):
    """A part of a model request."""


class TextPart(_Request):
    """Text in a message."""

    type: Literal["text"] = "text"
    """Always ``text``."""
    text: str
    """The text."""


class ReasoningPart(_Request):
    """The model's reasoning from an earlier step, sent back to it."""

    type: Literal["reasoning"] = "reasoning"
    """Always ``reasoning``."""
    text: str = ""
    """The reasoning as text (empty when the provider sent it only encrypted or redacted)."""


class ToolCallPart(_Request):
    """A tool call the model made in an earlier step."""

    type: Literal["tool-call"] = "tool-call"
    """Always ``tool-call``."""
    id: str | None = None
    """The call's id, which its result names."""
    name: str | None = None
    """The tool called."""
    args: Raw = None
    """The arguments (parsed when the provider sent them as JSON text)."""
    note: str | None = None
    """Where it came from when not from the request itself: Mastra's trace abbreviates a tool call
    (``[tool: getWeather]``), so it is filled from the run's own tool call, and says so."""


class ToolResultPart(_Request):
    """A tool's result, sent back to the model."""

    type: Literal["tool-result"] = "tool-result"
    """Always ``tool-result``."""
    id: str | None = None
    """The id of the call it answers."""
    name: str | None = None
    """The tool's name (from its call, when the provider names only the call's id)."""
    result: Raw = None
    """The result (parsed when the provider sent it as JSON text)."""
    note: str | None = None
    """Where it came from when not from the request itself (``[tool-result: getWeather]`` in
    Mastra's trace, filled from the run's own tool call)."""


class ImagePart(_Request):
    """An image in a message."""

    type: Literal["image"] = "image"
    """Always ``image``."""
    media_type: str | None = None
    """The image's media type (``image/png``...), when given."""
    url: str | None = None
    """Where the image is, when it was sent by URL."""
    data: str | None = None
    """The image's bytes in base64, when it was sent inline."""


class FilePart(_Request):
    """A file (a PDF, audio...) in a message."""

    type: Literal["file"] = "file"
    """Always ``file``."""
    media_type: str | None = None
    """The file's media type, when given."""
    url: str | None = None
    """Where the file is (a URL or the provider's file id), when it was sent by reference."""
    data: str | None = None
    """The file's content (base64, or text for a text document), when it was sent inline."""
    filename: str | None = None
    """The file's name or title, when given."""


class OtherPart(_Request):
    """A part this package does not read (a new block type, say), as the provider had it."""

    type: Literal["other"] = "other"
    """Always ``other``."""
    value: Raw = None
    """The part as sent."""


RequestPart = Annotated[
    TextPart | ReasoningPart | ToolCallPart | ToolResultPart | ImagePart | FilePart | OtherPart,
    Field(discriminator="type"),
]


class RequestMessage(_Request):
    """One message of the conversation the model was given."""

    role: str
    """``user``, ``assistant``, ``tool`` (tool results) or ``system`` (a system message after the
    first one that is not a system message); another role a provider sent stays as it was."""
    parts: list[RequestPart] = Field(default_factory=list)
    """What the message holds, in order."""

    @property
    def text(self) -> str:
        """The message's text parts, joined."""
        return "".join(part.text for part in self.parts if isinstance(part, TextPart))


class OfferedTool(_Request):
    """A tool the model was offered."""

    name: str = ""
    """The tool's name (a built-in tool without one: its type, e.g. ``web_search``)."""
    description: str | None = None
    """What the tool does, as the model was told."""
    input_schema: Raw = None
    """The JSON schema of its arguments."""
    provider_type: str | None = None
    """For a tool the provider runs itself, its type (``web_search_20250305``); None for a function."""


class RequestSettings(_Request):
    """The settings of the model call."""

    model: str | None = None
    """The model asked for, as the body names it (Google's body does not: the model is in the URL)."""
    temperature: float | None = None
    """The sampling temperature."""
    max_tokens: int | None = None
    """The most tokens the model may write."""
    top_p: float | None = None
    """Nucleus sampling."""
    top_k: int | None = None
    """Top-k sampling."""
    stop: list[str] | None = None
    """Stop sequences."""
    seed: int | None = None
    """The sampling seed."""
    presence_penalty: float | None = None
    """The presence penalty."""
    frequency_penalty: float | None = None
    """The frequency penalty."""
    tool_choice: Raw = None
    """Which tool the model had to (or could) call, as the provider says it."""
    reasoning: Raw = None
    """The reasoning or thinking settings, as the provider says them."""
    response_format: Raw = None
    """The structured output asked for (a JSON schema), as the provider says it."""
    other: dict[str, Raw] = Field(default_factory=dict)
    """The body's other fields, as sent (``stream``, ``store``, ``include``...)."""


class SystemMessage(_Request):
    """One system message, apart from the others, with the agent whose instructions it is."""

    text: str
    """Its text."""
    agent: str | None = None
    """The agent whose instructions it is (a sub-agent is given its own and its supervisor's), when
    Mastra's trace says so."""


class ModelRequest(_Request):
    """What the model was given in one step: system prompt, messages, tools and settings."""

    system: str | None = None
    """The system prompt (the leading system messages' text, joined by a blank line)."""
    messages: list[RequestMessage] = Field(default_factory=list)
    """The conversation, history included, in the order the model read it."""
    tools: list[OfferedTool] = Field(default_factory=list)
    """The tools the model was offered."""
    settings: RequestSettings = Field(default_factory=RequestSettings)
    """The model, temperature, token limit and the rest."""
    provider: str | None = None
    """The API whose shape the body has (``anthropic.messages``, ``openai.chat``,
    ``openai.responses``, ``google.generative-ai``); None when it is none of them."""
    raw: Raw = None
    """The request body, as sent."""
    source: Literal["stream", "trace"] = "stream"
    """Where the request came from: the stream's step-start, or Mastra's trace."""
    system_messages: list[SystemMessage] = Field(default_factory=list)
    """Each leading system message apart (``system`` joins them), with the agent it came from;
    filled from Mastra's trace (empty for a request read from the stream)."""


# ---- small readers that accept anything ----------------------------------------------------------


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _json(value: Any) -> Any:
    """JSON text parsed (tool arguments and results travel as text in OpenAI's shapes); else as is."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _texts(content: Any, separator: str = "") -> str:
    """The text of a string, or of a list of text blocks (``{type: text|input_text, text}``, Google's
    ``{text}``), joined."""
    if isinstance(content, str):
        return content
    texts = (_str(_dict(block).get("text")) for block in _list(content))
    return separator.join(text for text in texts if text is not None)


def _data_url(url: str | None) -> tuple[str | None, str | None, str | None]:
    """(media type, url, base64 data) of a URL; a ``data:`` URL is split into its type and data."""
    if url is not None and url.startswith("data:") and ";base64," in url:
        head, data = url[5:].split(";base64,", 1)
        return head or None, None, data
    return None, url, None


def _media(
    kind: str, media_type: Any, url: Any = None, data: Any = None, filename: Any = None
) -> ImagePart | FilePart:
    """An image part when the media type says image (or ``kind`` is ``image``), else a file part."""
    found_type, found_url, found_data = _data_url(_str(url))
    media = _str(media_type) or found_type
    data = _str(data) if _str(data) is not None else found_data
    if kind == "image" or (media or "").startswith("image/"):
        return ImagePart(media_type=media, url=found_url, data=data)
    return FilePart(media_type=media, url=found_url, data=data, filename=_str(filename))


def _path(body: dict[str, Any], dotted: str) -> Any:
    value: Any = body
    for key in dotted.split("."):
        value = _dict(value).get(key)
    return value


# ---- Anthropic Messages --------------------------------------------------------------------------


def _anthropic_part(block: Any) -> RequestPart:
    """A content block: ``text``; ``thinking``/``redacted_thinking``; ``tool_use``/``server_tool_use``
    ``{id, name, input}``; ``tool_result`` and the server tools' ``*_tool_result``
    ``{tool_use_id, content}``; ``image``/``document`` ``{source: {type: base64|url|text, media_type,
    data|url}, title}``."""
    block = _dict(block)
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return TextPart(text=block["text"])
    if kind in ("thinking", "redacted_thinking"):
        return ReasoningPart(text=_str(block.get("thinking")) or "")
    if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
        return ToolCallPart(id=_str(block.get("id")), name=_str(block.get("name")), args=block.get("input"))
    if isinstance(kind, str) and kind.endswith("tool_result"):
        content = block.get("content")
        text = (
            _texts(content)
            if isinstance(content, list) and all(_dict(item).get("type") == "text" for item in content)
            else content
        )
        return ToolResultPart(id=_str(block.get("tool_use_id")), result=_json(text))
    if kind in ("image", "document"):
        source = _dict(block.get("source"))
        url = source.get("url") or source.get("file_id")
        data = source.get("data") if source.get("type") in ("base64", "text") else None
        return _media(kind, source.get("media_type"), url, data, block.get("title"))
    return OtherPart(value=block)


def _anthropic(body: dict[str, Any]) -> tuple[str | None, list[RequestMessage], list[OfferedTool]]:
    """``system`` (a string or text blocks); ``messages`` ``{role, content: string | blocks}``, tool
    results in ``user`` messages (read as ``tool`` ones); ``tools`` ``{name, description,
    input_schema}``, server tools ``{type, name}``."""
    system = body.get("system")
    messages: list[RequestMessage] = []
    for message in map(_dict, _list(body.get("messages"))):
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else _list(content)
        messages.extend(_split_results(_str(message.get("role")) or "", map(_anthropic_part, blocks)))
    tools = [
        OfferedTool(
            name=_str(tool.get("name")) or "",
            description=_str(tool.get("description")),
            input_schema=tool.get("input_schema"),
            provider_type=_str(tool.get("type")) if tool.get("type") not in (None, "custom") else None,
        )
        for tool in map(_dict, _list(body.get("tools")))
    ]
    return (_texts(system, "\n\n") if system is not None else None), messages, tools


# ---- OpenAI chat completions (and Mastra's model router) -----------------------------------------


def _chat_part(part: Any) -> RequestPart:
    """A content part: ``text``/``refusal``; ``image_url {url}``; ``input_audio {data, format}``;
    ``file {filename, file_data, file_id}``."""
    part = _dict(part)
    kind = part.get("type")
    if kind in ("text", "refusal") and isinstance(part.get(kind), str):
        return TextPart(text=part[kind])
    if kind == "image_url":
        image = part.get("image_url")
        return _media("image", None, image if isinstance(image, str) else _dict(image).get("url"))
    if kind == "input_audio":
        audio = _dict(part.get("input_audio"))
        return FilePart(media_type=f"audio/{audio.get('format')}", data=_str(audio.get("data")))
    if kind == "file":
        file = _dict(part.get("file"))
        return _media("file", None, file.get("file_data") or file.get("file_id"), None, file.get("filename"))
    return OtherPart(value=part)


def _chat_message(message: dict[str, Any]) -> RequestMessage:
    """``{role, content: string | parts | null, tool_calls: [{id, function: {name, arguments}}],
    tool_call_id}``; ``tool`` (and the old ``function``) messages hold one result each."""
    role = _str(message.get("role")) or ""
    content = message.get("content")
    if role in ("tool", "function"):
        result = _texts(content) if isinstance(content, list) else content
        answer = ToolResultPart(
            id=_str(message.get("tool_call_id")), name=_str(message.get("name")), result=_json(result)
        )
        return RequestMessage(role="tool", parts=[answer])
    parts: list[RequestPart] = [TextPart(text=content)] if isinstance(content, str) else []
    parts += [_chat_part(part) for part in _list(content)]
    for call in map(_dict, _list(message.get("tool_calls"))):
        function = _dict(call.get("function"))
        parts.append(
            ToolCallPart(
                id=_str(call.get("id")),
                name=_str(function.get("name")),
                args=_json(function.get("arguments")),
            )
        )
    return RequestMessage(role="system" if role == "developer" else role, parts=parts)


def _chat(body: dict[str, Any]) -> tuple[str | None, list[RequestMessage], list[OfferedTool]]:
    """``messages`` (system and developer messages first: the system prompt); ``tools``
    ``{type: function, function: {name, description, parameters}}``."""
    messages = [_chat_message(_dict(message)) for message in _list(body.get("messages"))]
    tools = [_offered(tool, _dict(tool.get("function"))) for tool in map(_dict, _list(body.get("tools")))]
    system, messages = _leading_system(messages)
    return system, messages, tools


def _offered(tool: dict[str, Any], function: dict[str, Any]) -> OfferedTool:
    """An OpenAI tool: ``{type, name, description, parameters}`` held in ``function`` (chat
    completions nest them there; responses keep them flat, ``function`` is then the tool itself).
    A built-in tool (``web_search``...) is named by its type."""
    kind = _str(tool.get("type"))
    return OfferedTool(
        name=_str(function.get("name")) or kind or "",
        description=_str(function.get("description")),
        input_schema=function.get("parameters"),
        provider_type=kind if kind not in (None, "function") else None,
    )


# ---- OpenAI responses ----------------------------------------------------------------------------


def _responses_part(part: Any) -> RequestPart:
    """A content part: ``input_text``/``output_text``/``text``/``refusal``; ``input_image
    {image_url | file_id}``; ``input_file {filename, file_data | file_id | file_url}``."""
    part = _dict(part)
    kind = part.get("type")
    text = part.get("text", part.get("refusal"))
    if kind in ("input_text", "output_text", "text", "refusal") and isinstance(text, str):
        return TextPart(text=text)
    if kind == "input_image":
        return _media("image", None, part.get("image_url") or part.get("file_id"))
    if kind == "input_file":
        reference = part.get("file_data") or part.get("file_id") or part.get("file_url")
        return _media("file", None, reference, None, part.get("filename"))
    return OtherPart(value=part)


def _responses_item(item: Any) -> RequestMessage:
    """An input item: a message ``{role, content: string | parts}``; ``function_call {call_id, name,
    arguments}`` and the other ``*_call`` items (assistant); ``*_call_output {call_id, output}``
    (tool); ``reasoning {summary: [{text}]}`` (assistant); anything else, an assistant's other part."""
    item = _dict(item)
    kind = _str(item.get("type")) or ""
    if "role" in item and kind in ("", "message"):
        role = _str(item.get("role")) or ""
        content = item.get("content")
        parts = (
            [TextPart(text=content)]
            if isinstance(content, str)
            else [_responses_part(p) for p in _list(content)]
        )
        return RequestMessage(role="system" if role == "developer" else role, parts=parts)
    call_id = _str(item.get("call_id")) or _str(item.get("id"))
    if kind.endswith("_call_output"):
        output = item.get("output")
        output = _texts(output) if isinstance(output, list) else output
        return RequestMessage(role="tool", parts=[ToolResultPart(id=call_id, result=_json(output))])
    if kind.endswith("_call"):
        args = next((item[key] for key in ("arguments", "input", "action") if key in item), None)
        name = _str(item.get("name")) or kind.removesuffix("_call")
        return RequestMessage(role="assistant", parts=[ToolCallPart(id=call_id, name=name, args=_json(args))])
    if kind == "reasoning":
        summary = "\n\n".join(_str(_dict(s).get("text")) or "" for s in _list(item.get("summary")))
        return RequestMessage(role="assistant", parts=[ReasoningPart(text=summary)])
    return RequestMessage(role="assistant", parts=[OtherPart(value=item)])


def _responses(body: dict[str, Any]) -> tuple[str | None, list[RequestMessage], list[OfferedTool]]:
    """``instructions`` and the leading system/developer items: the system prompt; ``input`` (a
    string: one user message); ``tools`` ``{type: function, name, description, parameters}``, built-in
    tools ``{type: web_search...}``."""
    given = body.get("input")
    items = [{"role": "user", "content": given}] if isinstance(given, str) else _list(given)
    system, messages = _leading_system([_responses_item(item) for item in items])
    instructions = _str(body.get("instructions"))
    if instructions:
        system = f"{instructions}\n\n{system}" if system else instructions
    tools = [_offered(tool, tool) for tool in map(_dict, _list(body.get("tools")))]
    return system, messages, tools


# ---- Google generateContent ----------------------------------------------------------------------


def _google_part(part: Any) -> RequestPart:
    """A part: ``{text, thought?}``; ``functionCall {id?, name, args}``; ``functionResponse {id?,
    name, response}`` (the AI SDK wraps a result as ``{name, content}``: the content is read);
    ``inlineData {mimeType, data}``; ``fileData {mimeType, fileUri}``."""
    part = _dict(part)
    if isinstance(part.get("text"), str):
        return (
            ReasoningPart(text=part["text"]) if part.get("thought") is True else TextPart(text=part["text"])
        )
    if "functionCall" in part:
        call = _dict(part["functionCall"])
        return ToolCallPart(id=_str(call.get("id")), name=_str(call.get("name")), args=call.get("args"))
    if "functionResponse" in part:
        answer = _dict(part["functionResponse"])
        response = answer.get("response")
        wrapped = isinstance(response, dict) and set(response) == {"name", "content"}
        result = _dict(response).get("content") if wrapped else response
        return ToolResultPart(id=_str(answer.get("id")), name=_str(answer.get("name")), result=result)
    for key in ("inlineData", "fileData"):
        if key in part:
            media = _dict(part[key])
            uri, data, name = media.get("fileUri"), media.get("data"), media.get("displayName")
            return _media("file", media.get("mimeType"), uri, data, name)
    return OtherPart(value=part)


def _google(body: dict[str, Any]) -> tuple[str | None, list[RequestMessage], list[OfferedTool]]:
    """``systemInstruction {parts: [{text}]}``; ``contents`` ``{role: user|model, parts}``
    (``model`` is read as ``assistant``, function responses as ``tool``); ``tools``
    ``[{functionDeclarations: [{name, description, parameters | parametersJsonSchema}]}]`` and
    built-in tools (``{googleSearch: {}}``...)."""
    instruction = body.get("systemInstruction")
    parts = _dict(instruction).get("parts")
    system = _texts(parts, "\n\n") if isinstance(instruction, dict) else _str(instruction)
    messages: list[RequestMessage] = []
    for content in map(_dict, _list(body.get("contents"))):
        role = _str(content.get("role")) or "user"
        role = {"model": "assistant", "function": "tool"}.get(role, role)
        messages.extend(_split_results(role, map(_google_part, _list(content.get("parts")))))
    tools = []
    for group in map(_dict, _list(body.get("tools"))):
        tools += [OfferedTool(name=key, provider_type=key) for key in group if key != "functionDeclarations"]
        for function in map(_dict, _list(group.get("functionDeclarations"))):
            schema = function.get("parametersJsonSchema", function.get("parameters"))
            tools.append(
                OfferedTool(
                    name=_str(function.get("name")) or "",
                    description=_str(function.get("description")),
                    input_schema=schema,
                )
            )
    return system, messages, tools


# ---- shared shaping of messages ------------------------------------------------------------------


def _split_results(role: str, parts: Iterable[RequestPart]) -> Iterator[RequestMessage]:
    """A user message's tool results (Anthropic's, Google's) as ``tool`` messages of their own, in
    order with its other parts."""
    run: list[RequestPart] = []
    run_role, split = role, False
    for part in parts:
        part_role = "tool" if role == "user" and isinstance(part, ToolResultPart) else role
        if run and part_role != run_role:
            yield RequestMessage(role=run_role, parts=run)
            run, split = [], True
        run_role = part_role
        run.append(part)
    if run or not split:
        yield RequestMessage(role=run_role, parts=run)


def _leading_system(messages: list[RequestMessage]) -> tuple[str | None, list[RequestMessage]]:
    """The system prompt of OpenAI's shapes: the text of the system messages before the first other one."""
    count = next((i for i, message in enumerate(messages) if message.role != "system"), len(messages))
    if count == 0:
        return None, messages
    return "\n\n".join(message.text for message in messages[:count]), messages[count:]


def _merged(messages: list[RequestMessage]) -> list[RequestMessage]:
    """Adjacent assistant messages as one, and adjacent tool messages as one (OpenAI sends each call
    and each result on its own); empty text left out (OpenAI's assistant content ``""`` beside its
    tool calls); each result named by its call."""
    merged: list[RequestMessage] = []
    for message in messages:
        message.parts = [part for part in message.parts if not (isinstance(part, TextPart) and not part.text)]
        if merged and message.role == merged[-1].role and message.role in ("assistant", "tool"):
            merged[-1] = RequestMessage(role=message.role, parts=[*merged[-1].parts, *message.parts])
        else:
            merged.append(message)
    names = {
        part.id: part.name
        for message in merged
        for part in message.parts
        if isinstance(part, ToolCallPart) and part.id is not None
    }
    for message in merged:
        for part in message.parts:
            if isinstance(part, ToolResultPart) and part.name is None and part.id is not None:
                part.name = names.get(part.id)
    return merged


# ---- which shape, and the settings ---------------------------------------------------------------

_Reader = Callable[[dict[str, Any]], tuple[str | None, list[RequestMessage], list[OfferedTool]]]

_READERS: dict[Api, _Reader] = {
    "anthropic.messages": _anthropic,
    "openai.chat": _chat,
    "openai.responses": _responses,
    "google.generative-ai": _google,
}

# The body fields each shape's reader reads (the rest of the body is settings or ``other``).
_CONTENT_KEYS: dict[Api | None, tuple[str, ...]] = {
    "anthropic.messages": ("system", "messages", "tools"),
    "openai.chat": ("messages", "tools"),
    "openai.responses": ("instructions", "input", "tools"),
    "google.generative-ai": ("systemInstruction", "contents", "tools"),
    None: (),
}

# Each setting, for each shape: where the body holds it (dotted paths; the first present counts).
_SETTINGS: dict[Api | None, dict[str, tuple[str, ...]]] = {
    "anthropic.messages": {
        "model": ("model",),
        "temperature": ("temperature",),
        "max_tokens": ("max_tokens",),
        "top_p": ("top_p",),
        "top_k": ("top_k",),
        "stop": ("stop_sequences",),
        "tool_choice": ("tool_choice",),
        "reasoning": ("thinking",),
    },
    "openai.chat": {
        "model": ("model",),
        "temperature": ("temperature",),
        "max_tokens": ("max_completion_tokens", "max_tokens"),
        "top_p": ("top_p",),
        "stop": ("stop",),
        "seed": ("seed",),
        "presence_penalty": ("presence_penalty",),
        "frequency_penalty": ("frequency_penalty",),
        "tool_choice": ("tool_choice",),
        "reasoning": ("reasoning_effort",),
        "response_format": ("response_format",),
    },
    "openai.responses": {
        "model": ("model",),
        "temperature": ("temperature",),
        "max_tokens": ("max_output_tokens",),
        "top_p": ("top_p",),
        "tool_choice": ("tool_choice",),
        "reasoning": ("reasoning",),
        "response_format": ("text.format",),
    },
    "google.generative-ai": {
        "model": ("model",),
        "temperature": ("generationConfig.temperature",),
        "max_tokens": ("generationConfig.maxOutputTokens",),
        "top_p": ("generationConfig.topP",),
        "top_k": ("generationConfig.topK",),
        "stop": ("generationConfig.stopSequences",),
        "seed": ("generationConfig.seed",),
        "presence_penalty": ("generationConfig.presencePenalty",),
        "frequency_penalty": ("generationConfig.frequencyPenalty",),
        "tool_choice": ("toolConfig",),
        "reasoning": ("generationConfig.thinkingConfig",),
        "response_format": ("generationConfig.responseJsonSchema", "generationConfig.responseSchema"),
    },
    None: {
        "model": ("model",),
        "temperature": ("temperature",),
        "max_tokens": ("max_tokens", "max_completion_tokens", "max_output_tokens"),
        "top_p": ("top_p",),
    },
}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# What a setting's value must be to be read as it (else it stays in ``other``, as sent).
_FITS: dict[str, Callable[[Any], bool]] = {
    "model": lambda value: isinstance(value, str),
    "temperature": _number,
    "top_p": _number,
    "presence_penalty": _number,
    "frequency_penalty": _number,
    "max_tokens": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "top_k": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "seed": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "stop": lambda value: (
        isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    ),
}


def _api(body: dict[str, Any], hint: str | None) -> Api | None:
    """The shape of ``body``: Google's ``contents``, OpenAI responses' ``input``, or ``messages``
    (Anthropic's when the provider hint says so or the body has Anthropic's marks, else OpenAI chat's)."""
    if isinstance(body.get("contents"), list):
        return "google.generative-ai"
    if isinstance(body.get("input"), (list, str)) and "messages" not in body:
        return "openai.responses"
    if not isinstance(body.get("messages"), list):
        return None
    if (hint or "").startswith("anthropic"):
        return "anthropic.messages"
    marks = ("tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document")
    anthropic = (
        "system" in body
        or "stop_sequences" in body
        or any("input_schema" in _dict(tool) for tool in _list(body.get("tools")))
        or any(
            _dict(block).get("type") in marks
            for message in _list(body.get("messages"))
            for block in _list(_dict(message).get("content"))
        )
    )
    return "anthropic.messages" if anthropic else "openai.chat"


def _settings(body: dict[str, Any], api: Api | None) -> RequestSettings:
    read: dict[str, Any] = {}
    used: list[str] = []
    for name, paths in _SETTINGS[api].items():
        for path in paths:
            value = _path(body, path)
            if value is not None and _FITS.get(name, lambda _: True)(value):
                read[name] = [value] if name == "stop" and isinstance(value, str) else value
                used.append(path)
                break
    other = _without(body, [*_CONTENT_KEYS[api], *used])
    return RequestSettings(**read, other=other)


def _without(body: dict[str, Any], paths: list[str]) -> dict[str, Any]:
    """``body`` less the fields at ``paths`` (one level down at most, as the tables have them); an
    object left empty by that goes too."""
    top = {path for path in paths if "." not in path}
    nested: dict[str, set[str]] = {}
    for path in paths:
        if "." in path:
            head, rest = path.split(".", 1)
            nested.setdefault(head, set()).add(rest)
    other: dict[str, Any] = {}
    for key, value in body.items():
        if key in top:
            continue
        if key in nested and isinstance(value, dict):
            kept = {inner: item for inner, item in value.items() if inner not in nested[key]}
            if kept:
                other[key] = kept
        else:
            other[key] = value
    return other


def normalise_request(body: Any, provider_hint: str | None = None) -> ModelRequest:
    """The request ``body`` a provider was sent, read into a :class:`ModelRequest`.

    ``provider_hint`` is Mastra's name of the provider (``anthropic.messages``, ``openai.chat``...,
    a step's ``provider``); the body's own shape decides where the hint is not needed. A body of no
    known shape (or not an object) keeps ``raw`` and whatever common settings it has. Never raises.
    """
    if not isinstance(body, dict):
        return ModelRequest(raw=body)
    api = _api(body, provider_hint)
    system, messages, tools = _READERS[api](body) if api is not None else (None, [], [])
    return ModelRequest(
        system=system,
        messages=_merged(messages),
        tools=tools,
        settings=_settings(body, api),
        provider=api,
        raw=body,
    )
