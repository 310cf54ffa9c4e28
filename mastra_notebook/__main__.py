"""``python -m mastra_notebook result PATH`` and ``render PATH -o OUT.html``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .core.ingest import collect
from .core.result import RunResult


class NotAStream(Exception):
    """The path cannot be read as a Mastra stream."""


def _load(path: Path) -> RunResult:
    if not path.exists():
        raise NotAStream(f"{path}: no such file")
    if not path.is_file():
        raise NotAStream(f"{path}: not a file")
    try:
        result = collect(path)
    except OSError as error:
        raise NotAStream(f"{path}: cannot read it ({error.strerror or error})") from error
    if result.chunk_count == 0:
        lines = len(result.invalid)
        raise NotAStream(f"{path}: not a Mastra stream (no chunk found; {lines} line(s) could not be read)")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mastra_notebook", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("result", help="print the RunResult of a recorded stream as JSON")
    show.add_argument("path", type=Path)
    render = commands.add_parser("render", help="write a standalone HTML page of a recorded stream")
    render.add_argument("path", type=Path)
    render.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        result = _load(args.path)
    except NotAStream as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "result":
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
        if result.invalid:
            print(f"warning: {len(result.invalid)} line(s) could not be read; see 'invalid'", file=sys.stderr)
        return 0
    from .widget.export import write_page

    write_page(args.path, args.output)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
