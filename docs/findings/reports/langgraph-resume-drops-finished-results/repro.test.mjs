// A parallel step of two tool calls: `ask` interrupts for approval, `read`
// returns at once. The first run ends on the interrupt; its last `values`
// event already holds `read`'s ToolMessage, which a UI on the stream shows
// done. The user approves and the app resumes with Command({ resume }).
// The resumed run's first `values` event is the checkpoint from before the
// step: `read`'s ToolMessage is gone, and a UI on the stream shows `read`
// running again until the step completes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, END, MemorySaver, MessagesAnnotation, Send, START, StateGraph, interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

// A chat model that calls both tools, then answers.
class ScriptedModel extends BaseChatModel {
  calls = 0;
  _llmType() { return 'scripted'; }
  async _generate() {
    const message = this.calls++ === 0
      ? new AIMessage({ id: 'ai1', content: '', tool_calls: [
        { id: 'call_ask', name: 'ask', args: {}, type: 'tool_call' },
        { id: 'call_read', name: 'read', args: {}, type: 'tool_call' },
      ] })
      : new AIMessage({ id: 'ai2', content: 'done' });
    return { generations: [{ message, text: String(message.content) }] };
  }
}

function build() {
  const model = new ScriptedModel({});
  const ask = tool(() => (interrupt({ question: 'Run ask?' })?.approved ? 'asked' : 'denied'),
    { name: 'ask', description: 'needs approval', schema: z.object({}) });
  const read = tool(() => 'read done', { name: 'read', description: 'returns at once', schema: z.object({}) });
  // One ToolNode task per call (Send), as createReactAgent v2 and createAgent dispatch them.
  const route = (state) => {
    const last = state.messages.at(-1);
    return last?.tool_calls?.length ? last.tool_calls.map((call) => new Send('tools', { ...state, lg_tool_call: call })) : END;
  };
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode('tools', new ToolNode([ask, read]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', route, ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer: new MemorySaver() });
}

async function valuesOf(stream) {
  const out = [];
  for await (const values of stream) out.push(values);
  return out;
}

const toolMessageIds = (values) => (values.messages ?? []).filter((m) => m.getType() === 'tool').map((m) => m.tool_call_id);

test('a resumed run does not take back a result its interrupted step already streamed', async () => {
  const graph = build();
  const config = { configurable: { thread_id: 't1' }, streamMode: 'values' };

  const first = await valuesOf(await graph.stream({ messages: [{ role: 'user', content: 'go' }] }, config));
  const shown = toolMessageIds(first.at(-1));
  // A precondition, not the finding: a plain Error, so that it cannot pass for it.
  if (!shown.includes('call_read')) throw new Error(`setup: the first run's last values event lacks read's result (tool messages: ${JSON.stringify(shown)})`);

  const resumed = await valuesOf(await graph.stream(new Command({ resume: { approved: true } }), config));
  const back = toolMessageIds(resumed[0]);
  assert.ok(back.includes('call_read'),
    `the resumed run's first values event lacks read's result, which the first run had streamed: tool messages ${JSON.stringify(back)}, was ${JSON.stringify(shown)}`);
});
