// A chat on useStream's core (CustomStreamOrchestrator, what useStream
// runs) over a LangGraph graph streamed as a LangGraph server streams it.
// The user asks; the model streams "Let me check " and the user presses
// Stop. The client shows the cut answer. The user asks again: the new
// run's first `values` event is the thread's checkpoint, to which the
// stopped model node wrote nothing, and the client's messages are
// replaced by it: the answer the user read is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { CustomStreamOrchestrator, FetchStreamTransport } from '@langchain/langgraph-sdk/ui';

// A chat model that streams its first answer's first words, then waits
// (a slow provider) until it is aborted; its second answer is whole.
class SlowModel extends BaseChatModel {
  calls = 0;
  _llmType() { return 'slow'; }
  async _generate() { throw new Error('streamed only'); }
  async *_streamResponseChunks(_messages, options, runManager) {
    const n = ++this.calls;
    const say = (id, text) => {
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk({ id, content: text }), text });
      runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
      return chunk;
    };
    if (n > 1) { yield say('answer2', 'The build fails.'); return; }
    yield say('answer1', 'Let me check ');
    await new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(options.signal.reason), { once: true }));
  }
}

const model = new SlowModel({});
const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
  .addEdge(START, 'agent')
  .addEdge('agent', END)
  .compile({ checkpointer: new MemorySaver() });

// The app's route: graph.stream as a LangGraph server streams a run.
async function route(_url, init) {
  const body = JSON.parse(init.body);
  const stream = await graph.stream(body.input, {
    configurable: body.config?.configurable,
    streamMode: ['values', 'messages', 'updates'],
    encoding: 'text/event-stream',
    signal: init.signal,
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
}

const until = async (what, ok) => {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setImmediate(r));
  if (!ok()) throw new Error(`setup: gave up waiting for ${what}`); // not the finding: a plain Error
};
const texts = (o) => { o.messageManager?.flush?.(); return o.messages.map((m) => `${m.type ?? m.getType()}: ${m.text}`); };

test('an answer the user stopped stays when the next run starts', async () => {
  const options = {
    transport: new FetchStreamTransport({ apiUrl: 'http://app.local/api/stream', fetch: route }),
    onThreadId: (id) => { options.threadId = id; },
    onError: () => {},
  };
  const o = new CustomStreamOrchestrator(options);

  const first = o.submit({ messages: [{ type: 'human', content: 'why is CI red?' }] });
  await until('the first words of the answer', () => texts(o).includes('ai: Let me check '));
  o.stop();
  await first.catch(() => {});
  const seen = texts(o);
  if (!seen.includes('ai: Let me check ')) throw new Error(`setup: the cut answer is not shown after the stop: ${JSON.stringify(seen)}`);

  await o.submit({ messages: [{ type: 'human', content: 'why is CI red?' }] });
  const after = texts(o);
  assert.ok(after.includes('ai: Let me check '),
    `the answer the user stopped is gone once the next run starts: messages ${JSON.stringify(after)}, were ${JSON.stringify(seen)}`);
});
