/**
 * The widget's styles, added once to each document or shadow root its views draw in. anywidget's
 * `_css` rewrites one <style> element for every new model, and Chromium then restyles every view on
 * the page: 20 to 80 ms of the main thread each time a batch started a run (a trace of
 * benchmarks/batch.py). The styles ride in the module's entry instead (widget/bundle.py).
 */

const ATTRIBUTE = "data-mn-styles";

/** Where `el`'s styles must be: its shadow root (marimo draws widgets in one), else its document's head. */
function scopeOf(el: HTMLElement): ShadowRoot | HTMLElement {
  const root = el.getRootNode();
  return typeof ShadowRoot !== "undefined" && root instanceof ShadowRoot ? root : el.ownerDocument.head;
}

const KEY = /^[\w:.-]+$/; // a key goes into a selector: nothing else may

function addTo(scope: ShadowRoot | HTMLElement, css: string, key: string): void {
  // Asked of the DOM natively: a notebook's head holds hundreds of nodes
  if (!KEY.test(key) || scope.querySelector(`style[${ATTRIBUTE}="${key}"]`)) return;
  const style = (scope.ownerDocument ?? document).createElement("style");
  style.setAttribute(ATTRIBUTE, key);
  style.textContent = css;
  scope.append(style);
}

/** How many frames a view not yet in its page is watched for (hosts attach a view after rendering it). */
const ATTACH_FRAMES = 120;

/**
 * Adds `css` (named `key`: one version of the styles) where `el` draws: to its document at once, so
 * no frame is unstyled, and to its shadow root once it is attached inside one.
 */
export function adoptStyles(el: HTMLElement, css: string, key: string, frame = requestFrame): void {
  addTo(el.ownerDocument.head, css, key);
  let frames = 0;
  const check = () => {
    if (el.isConnected) {
      const scope = scopeOf(el);
      if (scope !== el.ownerDocument.head) addTo(scope, css, key);
    } else if (++frames < ATTACH_FRAMES) frame(check);
  };
  check();
}

function requestFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
}
