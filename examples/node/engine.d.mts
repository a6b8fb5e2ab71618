// Types for engine.mjs, so a TypeScript adapter can use it (see README).
//
// Like engine.mjs, they know nothing of toolsim and import nothing: they
// are the engine's own shapes (events of docs/trace-format.md in, a
// timeline of docs/timeline.md out), which the kit's Engine accepts as they
// are. So this file works next to an adapter on toolsim/engine (npm) as next
// to a copy of toolsim-engine.mjs, and a TypeScript engine of your own needs
// no toolsim types either. make npm-test compiles an adapter on it.

/** The events it reads. Unknown kinds only move the clock. */
export interface TraceEvent {
  seq: number;
  t: number;
  kind: string;
  role?: string;
  text?: string;
  id?: string;
  name?: string;
  batch?: string;
  parent?: string;
  output?: string;
  ok?: boolean;
  error?: string;
  duration_ms?: number;
  state?: string;
  reason?: string;
  message?: string;
}

export type Status = 'pending' | 'running' | 'ok' | 'failed' | 'interrupted' | 'denied';

/** A tool call, with the optional fields it fills: output, update_seq, error. */
export interface Tool {
  id: string;
  name: string;
  status: Status;
  start_t: number;
  end_t?: number;
  duration_ms?: number;
  error?: string;
  output?: string;
  update_seq?: number;
  batch?: string;
  parent?: string;
  children?: Item[];
}

export type Item =
  | { kind: 'user' | 'thinking' | 'separator'; text: string }
  | { kind: 'assistant'; text: string; interrupted?: boolean }
  | { kind: 'notice'; level: 'interrupted' | 'error'; text: string }
  | { kind: 'tool' | 'meta_tool'; tool: Tool; batch?: string }
  | { kind: 'tool_group'; tools: Tool[]; batch?: string };

export interface Timeline { items: Item[]; diagnostics: never[]; now: number }

/** last-item, name-fifo, spinner, upgrade: the mistakes `bug` can plant. */
export declare const BUGS: readonly string[];

export declare class Engine {
  /** bug: none, or one or more of BUGS, comma-separated. */
  constructor(metaTools?: readonly string[], bug?: string | null);
  apply(event: TraceEvent): void;
  finish(): void;
  timeline(): Timeline;
  /** The indices of the top-level items added or changed since the last call. */
  changed(): number[];
}
