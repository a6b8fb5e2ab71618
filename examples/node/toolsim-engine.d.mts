// Types for toolsim-engine.mjs, for engines written in TypeScript.
// The shapes are docs/trace-format.md (events) and docs/timeline.md (timelines).

/** One canonical event (SPEC §1). Unknown kinds only move the clock. */
export interface ToolsimEvent {
  seq: number;
  t: number;
  kind: 'turn_start' | 'user' | 'thinking' | 'text' | 'tool_start' | 'tool_progress' | 'tool_done'
    | 'permission' | 'cancel' | 'error' | 'turn_end' | (string & {});
  role?: 'assistant' | 'user';
  text?: string;
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  batch?: string;
  parent?: string;
  output?: string;
  details?: Record<string, unknown>;
  ok?: boolean;
  error?: string;
  duration_ms?: number;
  state?: 'asked' | 'granted' | 'denied';
  reason?: string;
  message?: string;
}

export type Status = 'pending' | 'running' | 'ok' | 'failed' | 'interrupted' | 'denied';

export interface Tool {
  id: string;
  name: string;
  status: Status;
  start_t: number;
  end_t?: number;
  duration_ms?: number;
  summary?: string;
  error?: string;
  output?: string;
  update_seq?: number;
  batch?: string;
  parent?: string;
  meta?: boolean;
  children?: Item[];
}

export type Item =
  | { kind: 'user' | 'thinking' | 'separator'; text: string }
  | { kind: 'assistant'; text: string; interrupted?: boolean }
  | { kind: 'notice'; level: 'interrupted' | 'error'; text: string }
  | { kind: 'tool' | 'meta_tool'; tool: Tool; batch?: string }
  | { kind: 'tool_group'; tools: Tool[]; batch?: string };

export interface Diagnostic { seq: number; code: string; id: string }

export interface Timeline { items: Item[]; diagnostics?: Diagnostic[]; now: number }

/** Options toolsim sends at init. */
export interface InitOptions { width?: number; meta_tools?: string[] | null; features?: string[] }

/** What serve drives; every method may return a promise. */
export interface Engine {
  /** ahead.next(k): the k-th event after this one in the same batch
   * (undefined past its end, or when toolsim sent a lone event). Only for a
   * producer that simulates a server knowing its own output. */
  apply(event: ToolsimEvent, ahead?: { next(k?: number): ToolsimEvent | undefined }): void | Promise<void>;
  /** End of stream: live tools become interrupted (SPEC §2). */
  finish(): void | Promise<void>;
  timeline(): Timeline | Promise<Timeline>;
  render?(width: number): string | Promise<string>;
  /** The indices of the top-level items added or changed since the last
   * call, in order: when present, serve sends only those instead of
   * diffing every item. */
  changed?(): number[];
}

export interface Info {
  /** Optional timeline fields the engine fills: output, update_seq, error, diagnostics, duration_ms, summary. */
  fields?: string[];
  /** SPEC §2 features it supports (absent: all). */
  features?: string[];
  /** false: every call on its own row, no tool groups. */
  grouping?: boolean;
  /** What the engine's real upstream never sends (docs/simulator.md, Contracts): "executor", or guarantee names such as "calls-first", "known-ids". Absent: nothing is guaranteed. */
  contract?: string[];
  /** The library's documented behaviours SPEC is stricter than, "open-after-turn", "results-at-step-end", "approval-after-results", "cancel-drops-in-flight" (docs/simulator.md, Contracts): findings that show them leave the default report. */
  documented?: string[];
}

/** Answers toolsim-engine/1 on stdin/stdout until stdin closes. make is called at init and on every reset. */
export function serve(make: (options: InitOptions) => Engine | Promise<Engine>, info?: Info): Promise<void>;
