/**
 * The view's header, sticky at the top of the view's scroll box: the agent or workflow id and the
 * first line of the prompt, a status badge (a live elapsed counter while streaming), tokens, time to
 * first token, a cost slot, the controls (the inspector toggle) and Stop (while the run streams).
 */
import { h } from "../dom";
import { formatDuration, num, runFigures, str } from "../format";
import { statusTone, statusWord } from "../status-words";
import type { RunNode, Send } from "../types";
import type { Traits } from "./context";

/**
 * The header's state (`data-state` on the header and on the badge): the run's status, or one of the
 * header's own (queued, starting, streaming, paused: a replay held short of its end, approval). The
 * badge says its word from the one table (status-words.ts).
 */
export function headerState(traits: Traits, run: RunNode | undefined, awaitingApproval: boolean): string {
  if (traits.queued) return "queued";
  const status = str(run?.status);
  if (!status) return traits.streaming ? "starting" : "";
  if (status === "running") return traits.streaming ? "streaming" : traits.paused ? "paused" : "running";
  if (status === "suspended" && awaitingApproval) return "approval";
  return status;
}

/** A replay or a read recording: its times are the recording's (core/run.py writes `clock`). */
function recordedClock(run: RunNode | undefined): boolean {
  return str(run?.clock) === "recorded";
}

/** A start time further back than this is a recording's clock, not this run's. */
const DAY_MS = 86_400_000;

export class Header {
  readonly el = h("div", "mn-header");
  private readonly title = h("span", "mn-title");
  private readonly subtitle = h("span", "mn-subtitle");
  private readonly heading = h("span", "mn-heading", [this.title, this.subtitle]);
  /** Said when the run's request replaced the agent's instructions (the run node's `overrides`); in
   * the page only then (a status badge is a status word: this one is no status). */
  private readonly overridden = h("span", "mn-badge mn-overridden", ["instructions overridden"], {
    title: "This run's request replaced the agent's instructions (result.overrides)",
  });
  private readonly badge = h("span", "mn-badge mn-state");
  private readonly elapsed = h("span", "mn-head-stat", [], { "data-stat": "elapsed" });
  private readonly tokens = h("span", "mn-head-stat", [], { "data-stat": "tokens" });
  private readonly ttft = h("span", "mn-head-stat", [], { "data-stat": "ttft" });
  private readonly cost = h("span", "mn-head-stat", [], { "data-stat": "cost" });
  private readonly scores = h("span", "mn-head-scores");
  private scoresShown = "";
  private readonly controls = h("span", "mn-head-controls");
  private readonly stop = h("button", "mn-btn mn-stop", ["Stop"], { type: "button", title: "Stop the run" });
  private traits: Traits | null = null;
  private run: RunNode | undefined;
  private awaitingApproval = false;
  private seenRunning: number | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;

  /** `latest`: the latest moment the run's tree knows (a recorded run's "so far": render/timeline.ts). */
  constructor(
    send: Send,
    private readonly latest: () => number = () => Number.NaN,
    private readonly clock: () => number = () => Date.now(),
  ) {
    const stats = h("span", "mn-head-stats", [
      this.badge,
      this.elapsed,
      this.tokens,
      this.ttft,
      this.cost,
      this.scores,
    ]);
    this.el.append(this.heading, stats, this.controls, this.stop);
    this.stop.addEventListener("click", () => {
      send({ t: "stop" });
      this.stop.disabled = true;
      this.stop.textContent = "Stopping…";
    });
  }

  update(traits: Traits): void {
    this.traits = traits;
    setText(this.title, traits.title);
    setText(this.subtitle, traits.subtitle);
    this.subtitle.title = traits.subtitle; // the whole line on hover when it is cut
    this.subtitle.hidden = !traits.subtitle;
    if (this.stop.hidden !== !traits.streaming) {
      this.stop.hidden = !traits.streaming;
      this.stop.disabled = false;
      this.stop.textContent = "Stop";
    }
    this.render();
  }

  /** The root run changed (`awaitingApproval`: a tool of the run waits for an answer). */
  updateRun(run: RunNode | undefined, awaitingApproval: boolean): void {
    this.run = run;
    this.awaitingApproval = awaitingApproval;
    this.render();
  }

  /** Adds a control (the inspector toggle) before Stop. */
  addControl(el: HTMLElement): void {
    this.controls.append(el);
  }

  destroy(): void {
    this.tick(false);
  }

  private render(): void {
    const traits = this.traits;
    if (!traits) return;
    const run = this.run;
    const state = headerState(traits, run, this.awaitingApproval);
    this.el.dataset.state = state;
    this.badge.dataset.state = state;
    this.badge.hidden = !state;
    setText(this.badge, statusWord(state));
    this.badge.className = `mn-badge mn-state mn-tone-${statusTone(state)}`;
    const overridden = Array.isArray(run?.overrides) && run.overrides.includes("instructions");
    if (overridden !== (this.overridden.parentNode === this.heading)) {
      if (overridden) this.heading.append(this.overridden);
      else this.overridden.remove();
    }

    const live = state === "streaming";
    if (live && this.seenRunning === null) this.seenRunning = this.clock();
    this.tick(live && !recordedClock(run)); // a replay's time moves with its chunks, not the wall clock
    this.showElapsed();

    // The kernel's figures (core/figures.py), shown as they come: the header computes none.
    const figures = runFigures(run);
    show(this.tokens, figures.tokens ?? null);
    this.tokens.title = figures.tokens_title ?? "";
    show(this.ttft, figures.first_token === undefined ? null : `first token ${figures.first_token}`);
    // The header shows a cost only when it is known; the footer says "unknown" and why.
    const cost = figures.cost;
    show(this.cost, cost === undefined || cost === "unknown" ? null : cost);
    this.cost.title = figures.cost_title ?? "";
    this.showScores(run);
  }

  /** "scoring…" while the run's scores are awaited, then a badge per score (core/score.py writes each). */
  private showScores(run: RunNode | undefined): void {
    const scoring = run?.scoring === true;
    const badges = Array.isArray(run?.score_badges) ? run.score_badges : [];
    const shown = JSON.stringify([scoring, badges]);
    if (shown === this.scoresShown) return;
    this.scoresShown = shown;
    const drawn = badges.map((b) => h("span", `mn-badge mn-tone-${b.tone}`, [b.text], { title: b.title }));
    if (scoring) drawn.unshift(h("span", "mn-badge mn-tone-active", ["scoring…"], { "data-state": "scoring" }));
    this.scores.replaceChildren(...drawn);
    this.scores.hidden = drawn.length === 0;
  }

  private showElapsed(): void {
    const run = this.run;
    const took = runFigures(run).duration;
    const started = num(run?.started_at);
    if (took !== undefined) {
      show(this.elapsed, took);
      this.elapsed.title = "";
    } else if (recordedClock(run) && started !== null) {
      // a replay, paused or playing: its latest recorded moment, as the timeline's "so far"
      const soFar = this.latest() - started;
      show(this.elapsed, Number.isFinite(soFar) && soFar >= 0 ? `${formatDuration(soFar)} so far` : null);
      this.elapsed.title = "the recording's time at this point of the replay";
    } else if (this.ticker !== null) {
      const now = this.clock();
      // A recording's own timestamps may be from another day: count from when this view saw it start.
      const from = started !== null && now - started >= 0 && now - started < DAY_MS ? started : this.seenRunning;
      show(this.elapsed, from === null ? null : `${Math.floor((now - from) / 1000)} s`);
    } else {
      show(this.elapsed, null);
    }
  }

  /** A one-second ticker for the elapsed counter, only while the run streams. */
  private tick(on: boolean): void {
    if (on && this.ticker === null) this.ticker = setInterval(() => this.showElapsed(), 1000);
    if (!on && this.ticker !== null) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }
}

function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

function show(el: HTMLElement, text: string | null): void {
  el.hidden = text === null;
  if (text !== null) setText(el, text);
}
