/**
 * The replay controls (a `ReplayView`'s trait `replay`, or the export page's own player): play/pause,
 * one chunk back/forward, previous and next step, next tool call, a scrubber, a speed control and,
 * held before a moment (`pause_at`), Reveal. It only sends wishes (`play`, `pause`, `seek`, `speed`,
 * `reveal`); whoever plays (Python, or the page's player) moves the run and the state.
 */
import { h } from "./dom";
import type { Send } from "./types";

/** The moments a lesson pauses before, and what the bar says while held before one. */
export const MOMENTS = { step: "step", "tool-call": "tool call", "sub-agent": "sub-agent" } as const;
export type Moment = keyof typeof MOMENTS;
/** The speeds the control offers (times the recorded pace). */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];

export interface ReplayState {
  total: number;
  position: number;
  playing: boolean;
  speed: number;
  /** Where each moment begins: the indexes of the chunks that begin one (core/moments.py). */
  marks: Record<Moment, number[]>;
  /** The moment the replay is held before, hidden until revealed (null: not held). */
  held: Moment | null;
}

function isMoment(value: unknown): value is Moment {
  return typeof value === "string" && Object.hasOwn(MOMENTS, value);
}

function indexes(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((i): i is number => Number.isInteger(i) && i >= 0).sort((a, b) => a - b) : [];
}

/** The trait's value if it describes a replay, else null (a live view). */
export function parseReplay(value: unknown): ReplayState | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.total !== "number" || typeof v.position !== "number") return null;
  const marks = (typeof v.marks === "object" && v.marks !== null ? v.marks : {}) as Record<string, unknown>;
  return {
    total: v.total,
    position: v.position,
    playing: v.playing === true,
    speed: Number(v.speed) || 1,
    marks: { step: indexes(marks.step), "tool-call": indexes(marks["tool-call"]), "sub-agent": indexes(marks["sub-agent"]) },
    held: isMoment(v.held) ? v.held : null,
  };
}

/**
 * Where "next step" or "next tool call" goes from `position`: just after the first chunk of the next
 * such moment (the moment begun, shown), or null when none is left.
 */
export function nextMark(marks: number[], position: number): number | null {
  const found = marks.find((index) => index + 1 > position);
  return found === undefined ? null : found + 1;
}

/** Where "previous step" goes from `position`: just after the last step start before it, or 0. */
export function previousMark(marks: number[], position: number): number {
  const before = marks.filter((index) => index + 1 < position).at(-1);
  return before === undefined ? 0 : before + 1;
}

/**
 * The position a key asks for on the replay bar (arrows: one chunk, Page keys: ten, Home/End: the
 * ends), or null for a key the bar leaves alone.
 */
export function keyTarget(key: string, position: number, total: number): number | null {
  const steps: Record<string, number> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
  if (key in steps) return Math.max(0, Math.min(total, position + (steps[key] ?? 0)));
  if (key === "Home") return 0;
  if (key === "End") return total;
  return null;
}

/** Keys that jump: to the previous or next step, to the next tool call (r: Reveal). */
const JUMP_KEYS: Record<string, Jump | undefined> = { p: "previous-step", n: "next-step", t: "next-tool" };
type Jump = "previous-step" | "next-step" | "next-tool";

/** Keys the bar's own controls act on (a focused button's Enter and Space): the notebook must not. */
const OWN_KEYS = new Set(["Enter", " "]);

export class ReplayBar {
  readonly el = h("div", "mn-replay");
  private readonly play = h("button", "mn-btn mn-play", ["Play"], { type: "button" });
  private readonly previousStep = h("button", "mn-btn mn-prev-step", ["« Step"], { type: "button", title: "The step before (key p)" });
  private readonly back = h("button", "mn-btn mn-step-back", ["◀"], { type: "button", title: "One chunk back" });
  private readonly forward = h("button", "mn-btn mn-step-forward", ["▶"], { type: "button", title: "One chunk on" });
  private readonly nextStep = h("button", "mn-btn mn-next-step", ["Step »"], { type: "button", title: "The next step (key n)" });
  private readonly nextTool = h("button", "mn-btn mn-next-tool", ["Tool call »"], { type: "button", title: "The next tool call (key t)" });
  private readonly scrubber = h("input", "mn-scrubber", [], { type: "range", min: "0", step: "1" });
  private readonly speed = h(
    "select",
    "mn-speed",
    SPEEDS.map((speed) => h("option", "", [`${speed}×`], { value: String(speed) })),
    { title: "Speed: times the recorded pace", "aria-label": "Speed" },
  );
  private readonly label = h("span", "mn-replay-position");
  /** Held before a moment: what to predict, and the button that shows it. */
  private readonly prompt = h("span", "mn-held-prompt");
  private readonly reveal = h("button", "mn-btn mn-reveal", ["Reveal"], { type: "button", title: "Show what comes next (key r)" });
  private readonly held = h("div", "mn-held", [this.prompt, this.reveal]);
  private state: ReplayState | null = null;
  /**
   * The position last asked for, until the kernel's state reaches it: the scrubber shows it and steps
   * go on from it, so two quick clicks go two chunks even before the kernel has answered the first.
   */
  private asked: number | null = null;
  private seekTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly send: Send) {
    const controls = h("div", "mn-replay-controls", [
      this.play,
      this.previousStep,
      this.back,
      this.scrubber,
      this.forward,
      this.nextStep,
      this.nextTool,
      this.speed,
      this.label,
    ]);
    this.el.append(controls, this.held);
    this.el.hidden = true;
    this.held.hidden = true;
    this.play.addEventListener("click", () => this.send({ t: this.state?.playing ? "pause" : "play" }));
    this.back.addEventListener("click", () => this.seek(Number(this.scrubber.value) - 1));
    this.forward.addEventListener("click", () => this.seek(Number(this.scrubber.value) + 1));
    this.previousStep.addEventListener("click", () => this.jump("previous-step"));
    this.nextStep.addEventListener("click", () => this.jump("next-step"));
    this.nextTool.addEventListener("click", () => this.jump("next-tool"));
    this.reveal.addEventListener("click", () => this.send({ t: "reveal" }));
    this.speed.addEventListener("change", () => this.send({ t: "speed", speed: Number(this.speed.value) }));
    // While dragging, ask for the newest position only (Python rebuilds the run on a jump back).
    this.scrubber.addEventListener("input", () => {
      clearTimeout(this.seekTimer);
      const position = Number(this.scrubber.value);
      this.label.textContent = this.describe(position);
      this.seekTimer = setTimeout(() => this.seek(position), 60);
    });
    this.el.addEventListener("keydown", this.onKeydown);
  }

  /**
   * Arrow, Page, Home and End keys step the replay wherever the focus is in the bar. The event
   * stops here: JupyterLab's command-mode shortcuts (arrows move to another cell) never see it.
   */
  private readonly onKeydown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const jump = JUMP_KEYS[event.key];
    if (this.state && (event.key === "r" || jump)) {
      event.preventDefault();
      event.stopPropagation();
      if (jump) this.jump(jump);
      else if (this.state.held) this.send({ t: "reveal" });
      return;
    }
    const target = this.state ? keyTarget(event.key, Number(this.scrubber.value), this.state.total) : null;
    if (target !== null) {
      event.preventDefault(); // not the range input's own step as well
      event.stopPropagation();
      clearTimeout(this.seekTimer);
      this.seek(target);
    } else if (OWN_KEYS.has(event.key)) {
      event.stopPropagation();
    }
  };

  update(state: ReplayState | null): void {
    this.state = state;
    this.el.hidden = state === null;
    if (!state) return;
    if (state.position === this.asked || state.playing) this.asked = null; // reached, or moving on by itself
    this.play.textContent = state.playing ? "Pause" : state.position >= state.total ? "Replay" : "Play";
    this.scrubber.max = String(state.total);
    this.showAt(this.asked ?? state.position, state.total, document.activeElement !== this.scrubber);
    this.label.textContent = this.describe(state.position);
    this.el.dataset.position = String(state.position);
    if (this.speed.value !== String(state.speed)) {
      if (!SPEEDS.includes(state.speed)) this.speed.append(h("option", "", [`${state.speed}×`], { value: String(state.speed) }));
      this.speed.value = String(state.speed);
    }
    // Held before a moment: the class predicts, then Reveal shows it (the run there is not drawn yet).
    this.held.hidden = state.held === null;
    this.prompt.textContent = state.held ? `Paused before a ${MOMENTS[state.held]}: what comes next?` : "";
    if (state.held) this.el.dataset.held = state.held;
    else delete this.el.dataset.held;
  }

  /** Where a jump goes from the position shown, or null when there is nothing to jump to. */
  private target(jump: Jump): number | null {
    const state = this.state;
    if (!state) return null;
    const at = Number(this.scrubber.value);
    if (jump === "previous-step") return at > 0 ? previousMark(state.marks.step, at) : null;
    return nextMark(jump === "next-step" ? state.marks.step : state.marks["tool-call"], at);
  }

  private jump(jump: Jump): void {
    if (this.state?.held && jump !== "previous-step") return; // what comes next stays hidden: Reveal shows it
    const target = this.target(jump);
    if (target !== null) this.seek(target);
  }

  destroy(): void {
    clearTimeout(this.seekTimer);
    this.el.removeEventListener("keydown", this.onKeydown);
  }

  private describe(position: number): string {
    const total = this.state?.total ?? 0;
    const speed = this.state && this.state.speed !== 1 ? ` · ${this.state.speed}×` : "";
    return `chunk ${position} / ${total}${speed}`;
  }

  /** The scrubber (unless the reader holds it) and the step buttons at position `at`. */
  private showAt(at: number, total: number, scrubber = true): void {
    if (scrubber) this.scrubber.value = String(at);
    const held = this.state?.held != null; // what comes next stays hidden until Reveal
    this.back.disabled = at <= 0;
    this.forward.disabled = held || at >= total;
    this.previousStep.disabled = at <= 0;
    this.nextStep.disabled = held || this.target("next-step") === null;
    this.nextTool.disabled = held || this.target("next-tool") === null;
  }

  private seek(position: number): void {
    const total = this.state?.total ?? 0;
    const target = Math.max(0, Math.min(total, Math.round(position)));
    this.asked = target;
    this.showAt(target, total); // repeated steps go on from here
    this.label.textContent = this.describe(target);
    this.send({ t: "seek", position: target });
  }
}
