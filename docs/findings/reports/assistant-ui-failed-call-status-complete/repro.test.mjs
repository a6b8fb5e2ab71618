// A finished assistant message with two tool-call parts: one succeeded, one
// failed (its result is the error, isError: true, the part's documented
// field for it). The part status the runtime gives each (the status a
// message part's runtime reports, MessagePartRuntime.getState().status,
// computed by toMessagePartStatus) is the same: complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toMessagePartStatus } from '@assistant-ui/core/internal';

const ok = { type: 'tool-call', toolCallId: 'call_ok', toolName: 'read', args: {}, argsText: '{}', result: '3 matches' };
const failed = { type: 'tool-call', toolCallId: 'call_failed', toolName: 'bash', args: {}, argsText: '{}', result: 'exit status 1', isError: true };
const message = {
  id: 'm1', role: 'assistant', createdAt: new Date(0), content: [ok, failed],
  status: { type: 'complete', reason: 'stop' }, metadata: { custom: {} },
};

test('a failed tool call does not get the status of a success', () => {
  const success = toMessagePartStatus(message, 0, ok);
  const failure = toMessagePartStatus(message, 1, failed);
  if (success.type !== 'complete') throw new Error(`setup: the successful call is ${JSON.stringify(success)}, not complete`);
  assert.notDeepEqual(failure, success,
    `the failed call (isError: true) has the same status as the successful one: ${JSON.stringify(failure)}; want {"type":"incomplete","reason":"error"}, the status the docs' failure card looks for`);
});
