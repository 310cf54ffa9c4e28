/**
 * The replay controls (a `ReplayView`'s trait `replay`): play/pause, one chunk back/forward and a
 * scrubber. It only sends wishes (`play`, `pause`, `seek`); Python moves the run and the trait.
 */
import { h } from "./dom";
import type { Send } from "./types";

export interface ReplayState {
  total: number;
  position: number;
  playing: boolean;
  speed: number;
}


/** The trait's value if it describes a replay, else null (a live view). */
export function parseReplay(value: unknown): ReplayState | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.total !== "number" || typeof v.position !== "number") return null;
  return { total: v.total, position: v.position, playing: v.playing === true, speed: Number(v.speed) || 1 };
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

/** Keys the bar's own controls act on (a focused button's Enter and Space): the notebook must not. */
const OWN_KEYS = new Set(["Enter", " "]);

export class ReplayBar {
  readonly el = h("div", "mn-replay");
  private readonly play = h("button", "mn-btn mn-play", ["Play"], { type: "button" });
  private readonly back = h("button", "mn-btn mn-step-back", ["◀"], { type: "button", title: "One chunk back" });
  private readonly forward = h("button", "mn-btn mn-step-forward", ["▶"], { type: "button", title: "One chunk on" });
  private readonly scrubber = h("input", "mn-scrubber", [], { type: "range", min: "0", step: "1" });
  private readonly label = h("span", "mn-replay-position");
  private state: ReplayState | null = null;
  /**
   * The position last asked for, until the kernel's state reaches it: the scrubber shows it and steps
   * go on from it, so two quick clicks go two chunks even before the kernel has answered the first.
   */
  private asked: number | null = null;
  private seekTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly send: Send) {
    this.el.append(this.play, this.back, this.scrubber, this.forward, this.label);
    this.el.hidden = true;
    this.play.addEventListener("click", () => this.send({ t: this.state?.playing ? "pause" : "play" }));
    this.back.addEventListener("click", () => this.seek(Number(this.scrubber.value) - 1));
    this.forward.addEventListener("click", () => this.seek(Number(this.scrubber.value) + 1));
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
    this.back.disabled = at <= 0;
    this.forward.disabled = at >= total;
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
