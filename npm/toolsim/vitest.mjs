// toolsim/vitest for import: the helper is vitest.cjs (see its top).
export {
  fuzzEngine, runFuzz, runFuzzAsync, registerFindings, findingMessage, ToolsimFinding, ToolsimSetupError,
} from './vitest.cjs';
