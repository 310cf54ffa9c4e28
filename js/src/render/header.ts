import { h } from "../dom";
import type { Send } from "../types";
import type { Traits } from "./context";

/** The title line and the Stop button (shown while the run streams; sends `{"t": "stop"}`). */
export class Header {
  readonly el = h("div", "mn-header");
  private readonly title = h("span", "mn-title");
  private readonly stop = h("button", "mn-btn mn-stop", ["Stop"], { type: "button", title: "Stop the run" });
  private controls = 0;

  constructor(send: Send) {
    this.el.append(this.title, this.stop);
    this.stop.addEventListener("click", () => {
      send({ t: "stop" });
      this.stop.disabled = true;
      this.stop.textContent = "Stopping…";
    });
  }

  update(traits: Traits): void {
    this.title.textContent = traits.title;
    if (this.stop.hidden !== !traits.streaming) {
      this.stop.hidden = !traits.streaming;
      this.stop.disabled = false;
      this.stop.textContent = "Stop";
    }
    this.el.hidden = !traits.title && !traits.streaming && this.controls === 0;
  }

  /** Adds a control (the inspector toggle) at the end of the header, which then always shows. */
  addControl(el: HTMLElement): void {
    this.controls += 1;
    this.el.append(el);
    this.el.hidden = false;
  }
}
