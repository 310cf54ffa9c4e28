/**
 * A DOM just large enough to run the view's own renderers where no browser is: in the kernel, in an
 * embedded JS engine (mastra_notebook/render/engine.py), to draw the static transcript. The renderers
 * are the live view's, unchanged: this is what keeps one function per node kind.
 *
 * It holds elements, attributes, text, and raw HTML (markdown and a tool's HTML display, which the
 * kernel sanitises afterwards with nh3). Listeners are kept and only `click()` and `dispatchEvent`
 * call them (the transcript opens its disclosures that way); timers never fire; layout reads zero.
 */

type Listener = (event: StaticEvent) => void;

export class StaticEvent {
  defaultPrevented = false;
  target: SNode | null = null;
  constructor(readonly type: string) {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
  stopPropagation(): void {}
}

export class SNode {
  parentNode: SElement | SFragment | null = null;
  ownerDocument!: SDocument;
  private listeners: Map<string, Listener[]> | null = null;

  get parentElement(): SElement | null {
    return this.parentNode instanceof SElement ? this.parentNode : null;
  }

  get isConnected(): boolean {
    let node: SNode | null = this;
    while (node.parentNode) node = node.parentNode;
    return node === this.ownerDocument.body || node === this.ownerDocument.head;
  }

  get textContent(): string {
    return "";
  }

  get nextSibling(): SNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) + 1] ?? null) : null;
  }

  get previousSibling(): SNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) - 1] ?? null) : null;
  }

  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }

  before(...nodes: (SNode | string)[]): void {
    this.parentNode?.insertAll(nodes, this);
  }

  after(...nodes: (SNode | string)[]): void {
    this.parentNode?.insertAll(nodes, this.nextSibling);
  }

  replaceWith(...nodes: (SNode | string)[]): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.insertAll(nodes, this);
    this.remove();
  }

  addEventListener(type: string, listener: Listener): void {
    if (!this.listeners) this.listeners = new Map();
    const list = this.listeners.get(type) ?? [];
    list.push(listener);
    this.listeners.set(type, list);
  }

  removeEventListener(type: string, listener: Listener): void {
    const list = this.listeners?.get(type);
    if (list) list.splice(list.indexOf(listener) >>> 0, 1);
  }

  /** Calls this node's own listeners (no capture or bubbling: nothing here needs them). */
  dispatchEvent(event: StaticEvent): boolean {
    event.target = event.target ?? this;
    for (const listener of [...(this.listeners?.get(event.type) ?? [])]) listener(event);
    return !event.defaultPrevented;
  }
}

export class SText extends SNode {
  constructor(public data: string) {
    super();
  }
  override get textContent(): string {
    return this.data;
  }
  override set textContent(value: string) {
    this.data = value;
  }
  insertData(offset: number, text: string): void {
    this.data = this.data.slice(0, offset) + text + this.data.slice(offset);
  }
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** The character references markdown-it and highlight.js write (named, decimal and hex). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** HTML kept as written (markdown-it's output, a tool's HTML): sanitised in the kernel, later. */
export class SRaw extends SNode {
  constructor(readonly html: string) {
    super();
  }
  /** Its text as a browser reads it: tags left out, character references read. */
  override get textContent(): string {
    return decodeEntities(this.html.replace(/<[^>]*>/g, ""));
  }
}

export abstract class SParent extends SNode {
  childNodes: SNode[] = [];

  get children(): SElement[] {
    return this.childNodes.filter((node): node is SElement => node instanceof SElement);
  }
  get firstChild(): SNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): SNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get firstElementChild(): SElement | null {
    return this.children[0] ?? null;
  }
  get lastElementChild(): SElement | null {
    const children = this.children;
    return children[children.length - 1] ?? null;
  }
  get childElementCount(): number {
    return this.children.length;
  }

  override get textContent(): string {
    return this.childNodes.map((node) => node.textContent).join("");
  }
  override set textContent(value: string) {
    this.replaceChildren(value);
  }

  /** Inserts `nodes` before `ref` (at the end when null); a fragment gives its children. */
  insertAll(nodes: (SNode | string)[], ref: SNode | null): void {
    const flat: SNode[] = [];
    for (const node of nodes) {
      if (typeof node === "string") flat.push(this.ownerDocument.createTextNode(node));
      else if (node instanceof SFragment) flat.push(...node.childNodes.splice(0));
      else flat.push(node);
    }
    // a node inserted before itself stays where it is (as in a browser): the reference moves past it
    let before = ref;
    while (before !== null && flat.includes(before)) before = before.nextSibling;
    for (const node of flat) {
      node.remove();
      node.parentNode = this as unknown as SElement;
    }
    const at = before === null ? -1 : this.childNodes.indexOf(before);
    if (at < 0) this.childNodes.push(...flat);
    else this.childNodes.splice(at, 0, ...flat);
  }

  append(...nodes: (SNode | string)[]): void {
    this.insertAll(nodes, null);
  }
  prepend(...nodes: (SNode | string)[]): void {
    this.insertAll(nodes, this.firstChild);
  }
  appendChild<T extends SNode>(node: T): T {
    this.insertAll([node], null);
    return node;
  }
  insertBefore<T extends SNode>(node: T, ref: SNode | null): T {
    this.insertAll([node], ref);
    return node;
  }
  removeChild<T extends SNode>(node: T): T {
    node.remove();
    return node;
  }
  replaceChildren(...nodes: (SNode | string)[]): void {
    for (const node of this.childNodes) node.parentNode = null;
    this.childNodes = [];
    this.insertAll(nodes, null);
  }
  contains(node: SNode | null): boolean {
    for (let at: SNode | null = node; at; at = at.parentNode) if (at === this) return true;
    return false;
  }

  /** Every element below, in document order. */
  descendants(): SElement[] {
    const out: SElement[] = [];
    const walk = (parent: SParent) => {
      for (const child of parent.children) {
        out.push(child);
        walk(child);
      }
    };
    walk(this);
    return out;
  }

  querySelectorAll(selector: string): SElement[] {
    const test = compile(selector);
    return this.descendants().filter(test);
  }
  querySelector(selector: string): SElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

export class SFragment extends SParent {}

/** A selector of this DOM: compound selectors (`tag.class[attr="v"]`), in comma lists, no combinators. */
function compile(selector: string): (el: SElement) => boolean {
  const alternatives = selector.split(",").map((part) => {
    const text = part.trim();
    const tag = /^[a-zA-Z*][\w-]*/.exec(text)?.[0]?.toUpperCase();
    const classes = [...text.matchAll(/\.([\w-]+)/g)].map((m) => m[1] ?? "");
    const attrs = [...text.matchAll(/\[([\w-]+)(?:="([^"]*)")?\]/g)].map((m) => [m[1] ?? "", m[2]] as const);
    return (el: SElement) =>
      (tag === undefined || tag === "*" || el.tagName === tag) &&
      classes.every((cls) => el.classList.contains(cls)) &&
      attrs.every(([name, value]) => (value === undefined ? el.hasAttribute(name) : el.getAttribute(name) === value));
  });
  return (el) => alternatives.some((matches) => matches(el));
}

/** Properties that read and write an attribute of the same name. */
const STRING_ATTRS: Record<string, string> = {
  id: "id",
  title: "title",
  type: "type",
  placeholder: "placeholder",
  href: "href",
  dir: "dir",
  role: "role",
  lang: "lang",
  target: "target",
  rel: "rel",
  alt: "alt",
  name: "name",
};
const BOOLEAN_ATTRS = ["hidden", "disabled", "open", "checked", "readOnly"];

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

class StaticStyle {
  private readonly props = new Map<string, string>();

  setProperty(name: string, value: string | null): void {
    if (value === null || value === "") this.props.delete(name);
    else this.props.set(name, String(value));
  }
  removeProperty(name: string): string {
    const old = this.props.get(name) ?? "";
    this.props.delete(name);
    return old;
  }
  getPropertyValue(name: string): string {
    return this.props.get(name) ?? "";
  }
  get cssText(): string {
    return [...this.props].map(([name, value]) => `${name}:${value}`).join(";");
  }
  set cssText(text: string) {
    this.props.clear();
    for (const decl of text.split(";")) {
      const at = decl.indexOf(":");
      if (at > 0) this.props.set(decl.slice(0, at).trim(), decl.slice(at + 1).trim());
    }
  }
}

/** `el.style.maxHeight = "10px"` as `max-height`; anything else as the style object itself. */
function styleProxy(style: StaticStyle): StaticStyle {
  return new Proxy(style, {
    get(target, key, receiver) {
      if (typeof key === "string" && !(key in target)) return target.getPropertyValue(kebab(key));
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, key, value) {
      if (typeof key === "string" && !(key in target)) target.setProperty(kebab(key), String(value ?? ""));
      else Reflect.set(target, key, value);
      return true;
    },
  });
}

function datasetProxy(el: SElement): Record<string, string | undefined> {
  return new Proxy({} as Record<string, string | undefined>, {
    get: (_, key) => (typeof key === "string" ? (el.getAttribute(`data-${kebab(key)}`) ?? undefined) : undefined),
    set: (_, key, value) => {
      if (typeof key === "string") el.setAttribute(`data-${kebab(key)}`, String(value));
      return true;
    },
    deleteProperty: (_, key) => {
      if (typeof key === "string") el.removeAttribute(`data-${kebab(key)}`);
      return true;
    },
    has: (_, key) => typeof key === "string" && el.hasAttribute(`data-${kebab(key)}`),
  });
}

export class SElement extends SParent {
  readonly tagName: string;
  // reflected attributes, defined on the prototype below
  declare hidden: boolean;
  declare disabled: boolean;
  declare open: boolean;
  declare title: string;
  declare id: string;
  readonly attributes = new Map<string, string>();
  readonly style: StaticStyle = styleProxy(new StaticStyle());
  readonly dataset = datasetProxy(this);
  /** A form control's value: a property, as in a browser (never drawn). */
  value = "";
  readonly classList = {
    add: (...names: string[]) => this.setClasses([...this.classNames(), ...names]),
    remove: (...names: string[]) => this.setClasses(this.classNames().filter((c) => !names.includes(c))),
    contains: (name: string) => this.classNames().includes(name),
    toggle: (name: string, force?: boolean) => {
      const on = force ?? !this.classNames().includes(name);
      if (on) this.classList.add(name);
      else this.classList.remove(name);
      return on;
    },
  };

  constructor(tag: string) {
    super();
    this.tagName = tag.toUpperCase();
  }

  get nodeName(): string {
    return this.tagName;
  }
  get localName(): string {
    return this.tagName.toLowerCase();
  }

  classNames(): string[] {
    return (this.attributes.get("class") ?? "").split(/\s+/).filter(Boolean);
  }
  private setClasses(names: string[]): void {
    const unique = [...new Set(names)];
    if (unique.length === 0) this.attributes.delete("class");
    else this.attributes.set("class", unique.join(" "));
  }
  get className(): string {
    return this.attributes.get("class") ?? "";
  }
  set className(value: string) {
    this.setClasses(value.split(/\s+/).filter(Boolean));
  }

  getAttribute(name: string): string | null {
    if (name === "style") return this.style.cssText || null;
    return this.attributes.get(name.toLowerCase()) ?? null;
  }
  setAttribute(name: string, value: string): void {
    if (name === "style") this.style.cssText = String(value);
    else this.attributes.set(name.toLowerCase(), String(value));
  }
  removeAttribute(name: string): void {
    if (name === "style") this.style.cssText = "";
    else this.attributes.delete(name.toLowerCase());
  }
  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }
  toggleAttribute(name: string, force?: boolean): boolean {
    const on = force ?? !this.hasAttribute(name);
    if (on) this.setAttribute(name, "");
    else this.removeAttribute(name);
    return on;
  }

  get tabIndex(): number {
    return Number(this.getAttribute("tabindex") ?? -1);
  }
  set tabIndex(value: number) {
    this.setAttribute("tabindex", String(value));
  }
  get start(): number {
    return Number(this.getAttribute("start") ?? 1);
  }
  set start(value: number) {
    this.setAttribute("start", String(value));
  }

  closest(selector: string): SElement | null {
    const test = compile(selector);
    for (let el: SElement | null = this; el; el = el.parentElement) if (test(el)) return el;
    return null;
  }
  matches(selector: string): boolean {
    return compile(selector)(this);
  }

  click(): void {
    this.dispatchEvent(new StaticEvent("click"));
  }
  focus(): void {}
  blur(): void {}
  scrollIntoView(): void {}
  getClientRects(): unknown[] {
    return [];
  }
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number; width: number; height: number } {
    return { top: 0, bottom: 0, left: 0, right: 0, width: 0, height: 0 };
  }
  scrollTop = 0;
  scrollHeight = 0;
  clientHeight = 0;
  offsetHeight = 0;
  isContentEditable = false;
}

for (const [prop, attr] of Object.entries(STRING_ATTRS)) {
  Object.defineProperty(SElement.prototype, prop, {
    get(this: SElement) {
      return this.getAttribute(attr) ?? "";
    },
    set(this: SElement, value: string) {
      this.setAttribute(attr, String(value));
    },
  });
}
for (const prop of BOOLEAN_ATTRS) {
  const attr = prop.toLowerCase();
  Object.defineProperty(SElement.prototype, prop, {
    get(this: SElement) {
      return this.hasAttribute(attr);
    },
    set(this: SElement, value: boolean) {
      this.toggleAttribute(attr, Boolean(value));
    },
  });
}

export class SDocument {
  readonly head: SElement;
  readonly body: SElement;
  readonly activeElement = null;

  constructor() {
    this.head = this.createElement("head");
    this.body = this.createElement("body");
  }

  createElement(tag: string): SElement {
    const el = new SElement(tag);
    el.ownerDocument = this;
    return el;
  }
  createTextNode(data: string): SText {
    const text = new SText(String(data));
    text.ownerDocument = this;
    return text;
  }
  createDocumentFragment(): SFragment {
    const fragment = new SFragment();
    fragment.ownerDocument = this;
    return fragment;
  }
  /** A fragment holding `html` as it is (the kernel sanitises the transcript as a whole). */
  rawFragment(html: string): SFragment {
    const raw = new SRaw(html);
    raw.ownerDocument = this;
    const fragment = this.createDocumentFragment();
    fragment.append(raw);
    return fragment;
  }
  getElementById(id: string): SElement | null {
    return this.head.querySelector(`[id="${id}"]`) ?? this.body.querySelector(`[id="${id}"]`);
  }
}

/**
 * Makes this DOM the global one (`document`, and the names renderers test with `instanceof`) and
 * returns its document. Called once, by the transcript entry, in an engine that has no DOM.
 */
export function installStringDom(): SDocument {
  const doc = new SDocument();
  const scope = globalThis as Record<string, unknown>;
  scope.document = doc;
  for (const name of ["Node", "Element", "HTMLElement", "HTMLButtonElement", "HTMLDetailsElement"]) {
    scope[name] = name === "Node" ? SNode : SElement;
  }
  scope.Text = SText;
  scope.DocumentFragment = SFragment;
  scope.ShadowRoot ??= class {};
  scope.NodeFilter ??= { SHOW_TEXT: 4 };
  scope.performance ??= { now: () => Date.now() };
  // Timers never fire: a transcript is drawn in one pass, and what a timer would do is live only.
  scope.setTimeout ??= () => 0;
  scope.clearTimeout ??= () => {};
  scope.setInterval ??= () => 0;
  scope.clearInterval ??= () => {};
  return doc;
}
