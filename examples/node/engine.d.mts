// Types for engine.mjs, so a TypeScript adapter can use it (see README).
import type { Engine as ToolsimEngine, Timeline, ToolsimEvent } from './toolsim-engine.mjs';

export declare const BUGS: readonly string[];
export declare class Engine implements ToolsimEngine {
  constructor(metaTools?: readonly string[], bug?: string | null);
  apply(event: ToolsimEvent): void;
  finish(): void;
  timeline(): Timeline;
  changed(): number[];
}
