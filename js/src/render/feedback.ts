/**
 * The footer's label control: thumbs up or down, a score and a comment on the run (the same as
 * `view.label(...)` in Python), and the label's state as the kernel words it (`feedback_note`: sent to
 * Mastra, or kept in the notebook and why). A click or a committed field sends the whole label to the
 * kernel (`{t: "label", thumbs, score, comment}`); what is shown is always the run node's `feedback`,
 * so a label set from Python shows here too. Without a kernel (a static page) the label is only shown.
 */
import { h } from "../dom";
import type { FeedbackShown, RunNode, Send } from "../types";

type Thumbs = "up" | "down";

const THUMBS: [Thumbs, string][] = [
  ["up", "Thumbs up"],
  ["down", "Thumbs down"],
];

/** Feather's thumbs-up outline (MIT): drawn in the text's colour, so it reads in both themes and needs
 * no emoji font; thumbs down is the same turned over. */
const THUMB_PATH =
  "M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3";

export function thumbIcon(value: Thumbs): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const attrs: Record<string, string> = {
    viewBox: "0 0 24 24",
    width: "14",
    height: "14",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
  };
  if (value === "down") attrs.transform = "rotate(180)";
  for (const [name, attr] of Object.entries(attrs)) svg.setAttribute(name, attr);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", THUMB_PATH);
  svg.append(path);
  return svg;
}

export class FeedbackControl {
  readonly el = h("div", "mn-feedback", [], { "data-mn-control": "" });
  private readonly buttons = new Map<Thumbs, HTMLButtonElement>();
  private readonly score = h("input", "mn-feedback-score", [], {
    type: "number",
    step: "any",
    placeholder: "score",
    "aria-label": "Score",
  });
  private readonly comment = h("input", "mn-feedback-comment", [], {
    type: "text",
    placeholder: "comment",
    "aria-label": "Comment",
    maxlength: "10000",
  });
  private readonly note = h("span", "mn-feedback-note");
  /** What the static page shows in place of the control: the label as text. */
  private readonly text = h("span", "mn-feedback-text");
  private thumbs: Thumbs | null = null;
  private shown = "";
  /**
   * The label last sent, until the kernel's label says the same: an older label arriving meanwhile
   * (the answer to an earlier click) must not undo what the person has entered since.
   */
  private sent: string | null = null;

  constructor(private readonly send: Send | null) {
    const label = h("span", "mn-stat-label", ["label"]);
    if (send === null) {
      this.el.append(label, this.text, this.note);
      this.el.removeAttribute("data-mn-control"); // a label shown, not a control: it is the run's
      this.el.hidden = true;
      return;
    }
    const thumbs = THUMBS.map(([value, title]) => {
      const button = h("button", "mn-feedback-thumb", [thumbIcon(value)], {
        type: "button",
        title,
        "aria-label": title,
        "aria-pressed": "false",
        "data-thumbs": value,
      });
      button.addEventListener("click", () => {
        this.thumbs = this.thumbs === value ? null : value; // a second click takes it back
        this.paintThumbs();
        this.commit();
      });
      this.buttons.set(value, button);
      return button;
    });
    // `change` fires when a field is committed (Enter, or leaving it): one label per edit, not per key
    this.score.addEventListener("change", () => this.commit());
    this.comment.addEventListener("change", () => this.commit());
    this.comment.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.comment.blur();
    });
    this.el.append(label, ...thumbs, this.score, this.comment, this.note);
  }

  update(run: RunNode): void {
    const label: FeedbackShown | null = run.feedback ?? null;
    const note = typeof run.feedback_note === "string" ? run.feedback_note : "";
    const shown = JSON.stringify([label, note]);
    if (shown === this.shown) return;
    this.shown = shown;
    if (this.sent === labelKey(label?.thumbs ?? null, label?.score ?? null, label?.comment ?? null)) this.sent = null;
    if (this.sent === null) this.thumbs = label?.thumbs ?? null;
    const kept = label?.sent_to_mastra === false;
    this.el.toggleAttribute("data-kept", kept);
    this.el.toggleAttribute("data-sent", label?.sent_to_mastra === true);
    this.note.textContent = note;
    this.note.title = note;
    if (this.send === null) {
      this.text.textContent = labelText(label);
      this.el.hidden = label === null || this.text.textContent === "";
      return;
    }
    this.paintThumbs();
    if (this.sent !== null) return; // the kernel has not caught up with the person yet
    // a field being edited keeps what the person is typing
    const active = this.el.ownerDocument.activeElement;
    if (active !== this.score) this.score.value = typeof label?.score === "number" ? String(label.score) : "";
    if (active !== this.comment) this.comment.value = label?.comment ?? "";
  }

  private paintThumbs(): void {
    for (const [value, button] of this.buttons) button.setAttribute("aria-pressed", String(this.thumbs === value));
  }

  private commit(): void {
    if (this.send === null) return;
    const score = this.score.value.trim() === "" ? null : Number(this.score.value);
    const text = this.comment.value.trim();
    const label = {
      thumbs: this.thumbs,
      score: score !== null && Number.isFinite(score) ? score : null,
      comment: text === "" ? null : text,
    };
    this.sent = labelKey(label.thumbs, label.score, label.comment);
    this.send({ t: "label", ...label });
  }
}

function labelKey(thumbs: unknown, score: unknown, comment: unknown): string {
  return JSON.stringify([thumbs, score, comment]);
}

/** The label as one line of text: `thumbs up · 4 · “a comment”` (empty when the label has nothing). */
export function labelText(label: FeedbackShown | null): string {
  if (label === null) return "";
  const parts: string[] = [];
  const thumb = THUMBS.find(([value]) => value === label.thumbs);
  if (thumb) parts.push(thumb[1].toLowerCase());
  if (typeof label.score === "number") parts.push(String(label.score));
  if (label.comment) parts.push(`“${label.comment}”`);
  return parts.join(" · ");
}
