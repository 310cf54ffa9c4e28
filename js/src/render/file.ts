import { h } from "../dom";
import { str } from "../format";
import type { FileNode } from "../types";
import { redrawn } from "./whole";

/** Raster types shown inline; the data: URL is built here, never taken from the payload. */
const RASTER = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function imageDataUrl(mediaType: unknown, base64: unknown): string | null {
  const type = str(mediaType)?.toLowerCase() ?? "";
  if (!RASTER.has(type) || typeof base64 !== "string") return null;
  const data = base64.replace(/\s+/g, "");
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return null;
  return `data:${type};base64,${data}`;
}

/** A generated file: raster images inline, anything else by name, type, size and text preview. */
export const renderFile = redrawn<FileNode>("mn-card mn-file", (node) => {
  const name = str(node.name) ?? "file";
  const type = str(node.media_type) ?? "application/octet-stream";
  const size = str(node.size_label); // the kernel's (core/captions.py)
  const src = imageDataUrl(type, node.base64);
  const preview = str(node.text_preview);
  return [
    h("div", "mn-card-head", [
      h("span", "mn-kind-label", ["File"]),
      h("span", "mn-name", [name]),
      h("span", "mn-muted", [[type, size].filter(Boolean).join(" · ")]),
    ]),
    src ? h("img", "mn-image", [], { src, alt: name }) : null,
    preview ? h("pre", "mn-preview", [preview]) : null,
  ];
});
