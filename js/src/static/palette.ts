/**
 * How the static transcript looks where no stylesheet reaches it (GitHub strips `<style>` and
 * classes; nbviewer and nbconvert keep inline styles): each class and tag of the view's DOM as an
 * inline style. One palette for every static surface (transcript, export page fallback,
 * `RunResult._repr_html_`): colours that read on a light and on a dark page alike: text keeps the
 * page's own colour, accents are mid tones on borders, tints are translucent greys.
 *
 * The live widget is styled by widget.css; this palette is its static counterpart, not a second
 * renderer: it lays out nothing, it only colours what the one renderer drew.
 */

const BORDER = "rgba(128,128,128,0.45)";
const TINT = "rgba(128,128,128,0.12)";
const MUTED = "opacity:0.75";
const CARD = `border:1px solid ${BORDER};border-radius:6px;padding:4px 8px;margin:6px 0`;
const PRE =
  "white-space:pre-wrap;overflow-wrap:break-word;margin:2px 0;padding:4px 6px;" +
  `background:${TINT};border-radius:4px;font-size:90%`;
const LABEL = "font-size:85%;font-weight:600;opacity:0.8";
const KIND = "font-size:75%;text-transform:uppercase;letter-spacing:0.04em;opacity:0.75";
const CELL = `padding:2px 8px;border-bottom:1px solid ${BORDER};text-align:left;vertical-align:top`;
const TONES = {
  ok: "#2da44e",
  error: "#e5534b",
  warn: "#d29922",
  active: "#4493f8",
  neutral: "#8b949e",
} as const;
/** What a diff adds and removes: translucent tints over the page's own text colour. */
const INS = "rgba(46,160,67,0.28)";
const DEL = "rgba(248,81,73,0.28)";
/** Where compared runs part. */
const MARK = "background:rgba(210,153,34,0.22);border-left:3px solid rgba(210,153,34,0.95)";
const BADGE = "border:1px solid #8b949e;border-radius:9px;padding:0 6px;font-size:80%;white-space:nowrap;margin:0 3px";

/** Phase colours of the timeline's bars (the widget's, in widget.css, as tints that read on both themes). */
const PHASES: Record<string, string> = {
  run: "rgba(128,128,128,0.28)",
  step: "rgba(128,128,128,0.45)",
  text: "rgba(31,111,191,0.8)",
  reasoning: "rgba(163,113,247,0.8)",
  args: "rgba(46,160,67,0.45)",
  exec: "rgba(46,160,67,0.9)",
  "workflow-step": "rgba(46,160,67,0.9)",
  wait: "repeating-linear-gradient(135deg,rgba(212,150,30,0.9) 0 4px,rgba(212,150,30,0.35) 4px 8px)",
  model: "rgba(31,111,191,0.7)",
  memory: "rgba(0,150,160,0.8)",
  processor: "rgba(128,128,128,0.6)",
  tool: "rgba(46,160,67,0.9)",
};

/** Inline style by class: the classes the renderers give their elements. */
export const CLASS_STYLES: Record<string, string> = {
  "mastra-notebook-transcript": `${CARD};padding:6px 10px`,
  "mn-header": `border-bottom:1px solid ${BORDER};padding-bottom:4px;margin-bottom:4px`,
  "mn-heading": "margin-right:8px",
  "mn-title": "font-weight:600",
  "mn-subtitle": `${MUTED};margin-left:6px`,
  "mn-head-stats": "display:inline",
  "mn-head-stat": "margin-left:10px;white-space:nowrap;font-variant-numeric:tabular-nums",
  "mn-head-scores": "margin-left:10px",
  "mn-badge": BADGE,
  "mn-card": CARD,
  "mn-kind-label": `${KIND};margin-right:6px`,
  "mn-name": "font-weight:600;margin-right:6px",
  "mn-fold-outcome": "margin-right:6px",
  "mn-duration": `${MUTED};font-size:85%`,
  "mn-fold-args": "font-family:monospace;font-size:90%",
  "mn-origin": `${MUTED};font-style:italic`,
  "mn-muted": MUTED,
  "mn-label": LABEL,
  "mn-field": "margin:4px 0",
  "mn-error": "color:#e5534b;white-space:pre-wrap;margin:4px 0",
  "mn-md-gap": "margin-top:0",
  "mn-step": `${MUTED};font-size:85%;border-top:1px dashed ${BORDER};margin-top:8px;padding-top:2px`,
  "mn-reasoning": `border-left:2px solid ${BORDER};padding-left:6px;margin:4px 0;${MUTED}`,
  "mn-run-nested": `border-left:2px solid ${BORDER};padding-left:10px;margin:6px 0 2px`,
  "mn-children": "margin-left:4px",
  "mn-footer": `font-size:85%;border-top:1px solid ${BORDER};margin-top:8px;padding-top:4px`,
  "mn-stat": "margin-right:14px;white-space:nowrap",
  "mn-stat-label": `${MUTED};margin-right:4px`,
  "mn-stat-value": "font-weight:600",
  "mn-score-reason": `${MUTED};margin-left:4px`,
  // a banner is amber, an error's or a tripwire's red (widget.css)
  "mn-banner": `${CARD};border-color:${TONES.warn};border-left-width:4px`,
  "mn-banner-error": `border-color:${TONES.error}`,
  "mn-banner-tripwire": `border-color:${TONES.error}`,
  "mn-banner-message": "font-weight:600",
  "mn-source": "margin:4px 0",
  "mn-mono": "font-family:monospace",
  "mn-request": "margin:4px 0 8px;padding-left:8px",
  "mn-request-role": "font-size:80%;font-weight:600;text-transform:uppercase;letter-spacing:0.04em;opacity:0.8",
  "mn-request-text": "white-space:pre-wrap",
  "mn-request-message": "margin:4px 0",
  "mn-request-section": "margin-top:4px",
  "mn-table": "border-collapse:collapse;font-size:90%",
  "mn-table-scroll": "max-width:100%;overflow:auto",
  "mn-image": "display:block;max-width:100%;margin:4px 0",
  "mn-tl": "font-size:12px",
  "mn-tl-row": "display:flex;align-items:center;gap:8px;min-height:18px;font-size:12px;line-height:16px",
  "mn-tl-label": "flex:0 0 13em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;unicode-bidi:isolate",
  "mn-tl-track": "position:relative;flex:1 1 auto;height:12px;min-width:120px",
  "mn-tl-time": "flex:0 0 4.5em;text-align:right;opacity:0.75;font-variant-numeric:tabular-nums",
  "mn-tl-bar": "position:absolute;top:2px;height:8px;border-radius:2px;display:flex;overflow:hidden",
  "mn-tl-seg": "position:absolute;top:0;height:100%",
  "mn-tl-tick": "position:absolute;top:0;font-size:11px;opacity:0.7;white-space:nowrap",
  "mn-tl-swatch": "display:inline-block;width:10px;height:8px;border-radius:2px;margin:0 3px 0 8px",
  "mn-tl-key": "white-space:nowrap",
  "mn-tl-lane": `border-top:1px solid ${BORDER};margin-top:6px;padding-top:4px`,
  "mn-tl-lane-title": "font-weight:600;margin-right:8px",
  "mn-tl-lane-count": `${MUTED};margin-right:8px`,
  "mn-tl-legend": "display:inline-block",
  "mn-term": "font-family:monospace;white-space:pre-wrap",
  "mn-term-stderr": "background:rgba(229,83,75,0.14);border-left:3px solid #e5534b",
  "mn-disclosure": "margin:4px 0",
  "mn-score-row": "margin:4px 0",
  // the kernel's tables and panels (js/src/views/): catalogues, datasets, experiments, mn.compare, a chat
  "mn-view-table": "border-collapse:collapse;margin:4px 0;max-width:100%",
  "mn-num": "text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums",
  "mn-compare-cell": "overflow-wrap:anywhere",
  "mn-view-pre": "max-height:24em;overflow:auto",
  "mn-caption": "font-weight:600;margin:4px 0",
  "mn-ins": `background:${INS};text-decoration:none`,
  "mn-del": `background:${DEL};text-decoration:line-through;text-decoration-thickness:1px`,
  "mn-progress": `display:inline-block;width:12em;height:0.55em;vertical-align:middle;border-radius:3px;border:1px solid ${BORDER};overflow:hidden`,
  "mn-progress-fill": "display:block;height:100%;background:currentColor;opacity:0.55",
  "mn-experiment-error": `color:${TONES.error}`,
  "mn-nowrap": "white-space:nowrap",
  "mn-compare-parting": "padding:4px 8px;margin:8px 0",
  "mn-compare-parted": MARK,
  "mn-compare-parts": MARK,
  "mn-compare-row-head": "white-space:nowrap",
  "mn-compare-gap": "background:rgba(128,128,128,0.08)",
  "mn-compare-args": "white-space:pre-wrap",
  "mn-compare-error": "background:rgba(248,81,73,0.16);border-radius:2px",
  "mn-compare-rich": "max-height:320px;max-width:480px;overflow:auto",
  "mn-word-diff": "white-space:pre-wrap;text-align:left",
  "mn-conversation-transcript": "border:none;padding:0;margin:0",
  "mn-user-turn":
    "margin:10px 0 4px auto;max-width:80%;width:fit-content;padding:6px 12px;border-radius:12px;" +
    "background:rgba(33,150,243,0.16);white-space:pre-wrap;overflow-wrap:anywhere",
  "mn-turn-memory": `margin:2px 0 8px;padding:4px 10px;border-left:3px solid ${BORDER};line-height:1.5;font-size:13px`,
  "mn-memory-list": "margin:4px 0;padding-left:22px",
  "mn-memory-role": "font-weight:600;margin-right:6px;opacity:0.8",
  "mn-memory-text": "white-space:pre-wrap;overflow-wrap:anywhere",
  "mn-memory-diff": `margin:4px 0;padding:4px 6px;white-space:pre-wrap;overflow-wrap:anywhere;font-family:monospace;font-size:12px;background:${TINT}`,
  "mn-diff-line": "display:block",
  "mn-diff-added": `background:${INS}`,
  "mn-diff-removed": `background:${DEL}`,
  "mn-diff-gutter": "display:inline-block;width:1.4em;opacity:0.75;user-select:none",
  "mn-memory-note": `font-style:italic;${MUTED}`,
  "mn-memory-counts": `font-size:12px;${MUTED}`,
};
for (const [tone, colour] of Object.entries(TONES)) CLASS_STYLES[`mn-tone-${tone}`] = `border-color:${colour}`;

/** Inline style by tag: for the renderers' elements and for markdown and HTML they embed (the kernel
 * sets these on sanitised HTML too: render/engine.py). */
export const TAG_STYLES: Record<string, string> = {
  pre: PRE,
  code: `background:${TINT};padding:0 3px;border-radius:3px;font-size:90%`,
  summary: "cursor:pointer",
  th: `${CELL};font-weight:600`,
  td: CELL,
  blockquote: `border-left:3px solid ${BORDER};margin:4px 0;padding-left:8px;${MUTED}`,
};

/** A timeline segment's or legend swatch's colour: its phase class (`mn-tl-text`); a bar's own kind
 * class (`mn-tl-tool`) colours nothing, its segments do. */
function phaseColour(classes: readonly string[]): string | undefined {
  if (!classes.includes("mn-tl-seg") && !classes.includes("mn-tl-swatch")) return undefined;
  const phase = classes.find((cls) => cls.startsWith("mn-tl-") && cls.slice("mn-tl-".length) in PHASES);
  return phase === undefined ? undefined : `background:${PHASES[phase.slice("mn-tl-".length)]}`;
}

/** The inline style of an element of `tag` with `classes` (tag first, then each class in order). */
export function styleOf(tag: string, classes: readonly string[]): string {
  const parts = [TAG_STYLES[tag], ...classes.map((cls) => CLASS_STYLES[cls]), phaseColour(classes)];
  return parts.filter(Boolean).join(";");
}
