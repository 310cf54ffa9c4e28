import { describe, expect, it } from "vitest";
import { type Change, Store } from "../src/store";
import type { OutMsg } from "../src/types";
import { add, append, opsMsg, push, root, set, snapshot } from "./helpers";

function setup() {
  const sent: OutMsg[] = [];
  const changes: Change[] = [];
  const store = new Store((msg) => sent.push(msg));
  store.subscribe((change) => changes.push(change));
  return { store, sent, changes };
}

describe("Store", () => {
  it("applies ops messages in order and tracks lastSeq", () => {
    const { store, changes } = setup();
    store.receive(opsMsg(1, [root(), add("root", "t1", "text", { text: "" })]));
    store.receive(opsMsg(2, [append("t1", "text", "Hello"), append("t1", "text", " world")]));
    expect(store.lastSeq).toBe(2);
    expect(store.get("t1")?.text).toBe("Hello world");
    expect(store.childrenOf("root")).toEqual(["t1"]);
    expect([...(changes[1]?.ids ?? [])]).toEqual(["t1"]);
    expect(changes.every((c) => !c.reset)).toBe(true);
  });

  it("reports the parent as touched when a child is added", () => {
    const { store, changes } = setup();
    store.receive(opsMsg(1, [root()]));
    store.receive(opsMsg(2, [add("root", "tool1", "tool", { status: "running" })]));
    expect(changes[1]?.ids).toEqual(new Set(["tool1", "root"]));
  });

  it("ignores duplicates", () => {
    const { store, sent } = setup();
    store.receive(opsMsg(1, [root(), add("root", "t1", "text", { text: "a" })]));
    store.receive(opsMsg(2, [append("t1", "text", "b")]));
    store.receive(opsMsg(2, [append("t1", "text", "b")]));
    store.receive(opsMsg(1, [append("t1", "text", "x")]));
    expect(store.get("t1")?.text).toBe("ab");
    expect(store.lastSeq).toBe(2);
    expect(sent).toEqual([]);
  });

  it("on a gap sends exactly one resync and recovers with the snapshot", () => {
    const { store, sent } = setup();
    store.receive(opsMsg(1, [root(), add("root", "t1", "text", { text: "a" })]));
    store.receive(opsMsg(3, [append("t1", "text", "c")]));
    store.receive(opsMsg(4, [append("t1", "text", "d")]));
    store.receive(opsMsg(2, [append("t1", "text", "b")])); // late, applies: it is lastSeq + 1
    store.receive(opsMsg(5, [append("t1", "text", "e")]));
    expect(sent).toEqual([{ t: "resync", seq: 1 }]);
    expect(store.awaitingSnapshot).toBe(true);

    store.receive(snapshot(5, [root(), add("root", "t1", "text", { text: "abcde" })]));
    expect(store.awaitingSnapshot).toBe(false);
    expect(store.lastSeq).toBe(5);
    expect(store.get("t1")?.text).toBe("abcde");

    store.receive(opsMsg(6, [append("t1", "text", "f")]));
    expect(store.get("t1")?.text).toBe("abcdef");
    expect(sent).toHaveLength(1);
  });

  it("sends a new resync for a later gap", () => {
    const { store, sent } = setup();
    store.receive(opsMsg(1, [root()]));
    store.receive(opsMsg(3, []));
    store.receive(snapshot(3, [root()]));
    store.receive(opsMsg(7, []));
    expect(sent).toEqual([
      { t: "resync", seq: 1 },
      { t: "resync", seq: 3 },
    ]);
  });

  it("ignores a snapshot when already up to date", () => {
    const { store, changes } = setup();
    store.receive(opsMsg(1, [root(), add("root", "t1", "text", { text: "live" })]));
    store.receive(snapshot(1, [root(), add("root", "t1", "text", { text: "old" })]));
    store.receive(snapshot(0, []));
    expect(store.get("t1")?.text).toBe("live");
    expect(changes).toHaveLength(1);
  });

  it("applies a newer snapshot, and a requested one whatever its seq", () => {
    const { store, sent } = setup();
    store.receive(opsMsg(1, [root(), add("root", "t1", "text", { text: "x" })]));
    store.receive(snapshot(4, [root({ status: "finished" })]));
    expect(store.lastSeq).toBe(4);
    expect(store.get("t1")).toBeUndefined();
    expect(store.get("root")?.status).toBe("finished");

    store.hello();
    expect(sent).toEqual([{ t: "hello" }]);
    store.receive(snapshot(4, [root({ status: "finished" }), add("root", "t2", "text", { text: "again" })]));
    expect(store.get("t2")?.text).toBe("again");
    expect(store.awaitingSnapshot).toBe(false);
  });

  it("does not resync while the hello snapshot is pending", () => {
    const { store, sent } = setup();
    store.hello();
    store.receive(opsMsg(9, []));
    expect(sent).toEqual([{ t: "hello" }]);
    store.receive(snapshot(9, [root()]));
    store.receive(opsMsg(10, [set("root", "status", "finished")]));
    expect(store.get("root")?.status).toBe("finished");
  });

  it("set, push (creating the list) and append on a missing field", () => {
    const { store } = setup();
    store.receive(
      opsMsg(1, [
        root(),
        add("root", "tool1", "tool", { status: "streaming-args" }),
        append("tool1", "args_text", '{"city"'),
        set("tool1", "args", { city: null }),
        push("tool1", "outputs", { p: 1 }),
        push("tool1", "outputs", { p: 2 }),
      ]),
    );
    expect(store.get("tool1")).toMatchObject({ args_text: '{"city"', args: { city: null }, outputs: [{ p: 1 }, { p: 2 }] });
  });

  it("never mutates lists that came with a message (a replay reuses them)", () => {
    const { store } = setup();
    const history = ["started"];
    const snap = snapshot(1, [root(), add("root", "bg", "background-task", { history }), push("bg", "history", "running")]);
    store.receive(snap);
    store.receive(opsMsg(2, [push("bg", "history", "completed")]));
    expect(history).toEqual(["started"]);
    expect(store.get("bg")?.history).toEqual(["started", "running", "completed"]);
  });

  it("skips malformed ops and ops on unknown nodes", () => {
    const { store } = setup();
    const bad = [["append", "nope", "text", "x"], ["frob", "root", "x", 1], ["set", "root", "kind", "text"], null];
    store.receive(opsMsg(1, [root(), ...(bad as never[])]));
    expect(store.lastSeq).toBe(1);
    expect(store.get("root")?.kind).toBe("run");
    expect(store.nodes.size).toBe(1);
  });
});
