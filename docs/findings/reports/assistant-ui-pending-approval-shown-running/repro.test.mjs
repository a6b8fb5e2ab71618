// An assistant message still running (a slow call of its step has not
// returned) with a tool-call part that awaits the user's approval: the
// part has its `approval` ({ id }, no answer yet) and no result. The part
// status the runtime gives it (MessagePartRuntime.getState().status,
// computed by toMessagePartStatus) is the message's: running. A row keyed
// on the status shows the call running, with nothing to answer, until the
// run ends, though the part itself awaits a decision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toMessagePartStatus } from '@assistant-ui/core/internal';

const slow = { type: 'tool-call', toolCallId: 'call_build', toolName: 'bash', args: {}, argsText: '{}' };
const gated = { type: 'tool-call', toolCallId: 'call_rm', toolName: 'rm', args: {}, argsText: '{}', approval: { id: 'approval_1' } };
const running = { id: 'm1', role: 'assistant', createdAt: new Date(0), content: [slow, gated], status: { type: 'running' }, metadata: { custom: {} } };

test('a call awaiting approval is not shown running while its message runs', () => {
  const status = toMessagePartStatus(running, 1, gated);
  assert.equal(status.type, 'requires-action',
    `the part awaiting approval has status ${JSON.stringify(status)}, its message's; want {"type":"requires-action"}, "waiting for UI or human input before continuing"`);
});
