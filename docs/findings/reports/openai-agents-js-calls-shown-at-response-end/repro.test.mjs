// A Responses stream with two function calls in one response: call_1 is
// complete (response.output_item.done) before call_2 starts. A UI on the
// run's events wants call_1's row as soon as call_1 is complete, as the
// Python SDK emits it since openai/openai-agents-python#1300; the JS runner
// emits both tool_called items only after response.completed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import OpenAI from 'openai';
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';

setTracingDisabled(true);

const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
const call = (n, status) => ({ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read', arguments: status === 'completed' ? '{}' : '', status });
const response = (status, output) => ({ id: 'resp_1', object: 'response', created_at: 0, model: 'scripted', status, output, usage: status === 'completed' ? usage : null });

// The first request gets a response of two calls; the next (after the
// tools ran) an answer.
function events(first) {
  if (!first) {
    const msg = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] };
    return [['response.created', { response: response('in_progress', []) }],
      ['response.output_item.added', { output_index: 0, item: { ...msg, status: 'in_progress', content: [] } }],
      ['response.output_item.done', { output_index: 0, item: msg }],
      ['response.completed', { response: response('completed', [msg]) }]];
  }
  const out = [['response.created', { response: response('in_progress', []) }]];
  for (const n of [1, 2]) {
    out.push(['response.output_item.added', { output_index: n - 1, item: call(n, 'in_progress') }]);
    out.push(['response.function_call_arguments.delta', { item_id: `fc_${n}`, output_index: n - 1, delta: '{}' }]);
    out.push(['response.function_call_arguments.done', { item_id: `fc_${n}`, output_index: n - 1, arguments: '{}' }]);
    out.push(['response.output_item.done', { output_index: n - 1, item: call(n, 'completed') }]);
  }
  out.push(['response.completed', { response: response('completed', [call(1, 'completed'), call(2, 'completed')]) }]);
  return out;
}

test('a call complete in the model stream is shown before the response ends', async (t) => {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      let seq = 0;
      for (const [type, body] of events(requests++ === 0)) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...body })}\n\n`);
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const client = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${server.address().port}/v1` });
  const read = tool({ name: 'read', description: 'read', parameters: z.object({}), execute: async () => 'ok' });
  const agent = new Agent({ name: 'repro', instructions: '', model: new OpenAIResponsesModel(client, 'scripted'), tools: [read] });

  // The run's events, in the order a UI on the stream sees them.
  const seen = [];
  const stream = await run(agent, 'read two files', { stream: true });
  for await (const e of stream) {
    if (e.type === 'raw_model_stream_event' && e.data.type === 'model' && e.data.event.type === 'response.output_item.done') seen.push(`model: ${e.data.event.item.call_id ?? e.data.event.item.id} complete`);
    if (e.type === 'raw_model_stream_event' && e.data.type === 'response_done') seen.push('model: response done');
    if (e.type === 'run_item_stream_event' && e.name === 'tool_called') seen.push(`tool_called ${e.item.rawItem.callId}`);
  }
  await stream.completed;
  const shown = seen.indexOf('tool_called call_1');
  const next = seen.indexOf('model: call_2 complete');
  if (shown < 0 || next < 0) throw new Error(`setup: the run lacks call_1's tool_called or call_2's completion: ${JSON.stringify(seen)}`);
  assert.ok(shown < next, `call_1 is shown only after the model completed call_2 (and the response): ${JSON.stringify(seen)}`);
});
