/**
 * A drawn live view hides its own static transcripts: the output just after it, written for GitHub,
 * nbviewer and a notebook reopened without a kernel. Each transcript names the views it stands for
 * (`mn-transcript-of-<key>`, render/static `transcript_class`); a view that draws adds one rule for its
 * key to one shared stylesheet. Where no view draws (no kernel, an untrusted notebook, scripts off)
 * no rule exists and the transcript is read. A `:has()` rule matching the outputs by structure did
 * this in CSS alone, but made every DOM change of a streaming view restyle the page (p50 chunk to
 * screen 167 ms against 27 ms without it).
 */

const VIEW_KEY = /^[0-9a-f]{32}$/;
const SHEET_ID = "mn-drawn-views";
const hidden = new WeakMap<Document, Set<string>>();

export function transcriptRule(key: string): string {
  return `.mastra-notebook-transcript.mn-transcript-of-${key} { display: none !important; }`;
}

/** Hides the transcripts of view `key` in `doc` (once per key; anything but a view key is ignored). */
export function hideOwnTranscripts(doc: Document, key: unknown): void {
  if (typeof key !== "string" || !VIEW_KEY.test(key)) return;
  let keys = hidden.get(doc);
  if (!keys) hidden.set(doc, (keys = new Set()));
  if (keys.has(key)) return;
  let style = doc.getElementById(SHEET_ID) as HTMLStyleElement | null;
  if (!style) {
    style = doc.createElement("style");
    style.id = SHEET_ID;
    doc.head.append(style);
  }
  keys.add(key);
  style.sheet?.insertRule(transcriptRule(key), style.sheet.cssRules.length);
}
