package vcr_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/vcr"
	"github.com/toolsim/toolsim/importer"
)

// chat builds a one-chunk OpenAI chat stream answering text.
func chat(id, text string) string {
	return "data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n"
}

func TestConversations(t *testing.T) {
	title := `{"model":"small","messages":[{"role":"system","content":"You write a short title for a conversation."},{"role":"user","content":"Generate a concise title for: Fix it"}]}`
	main1 := `{"model":"big","messages":[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"Fix it"}]}`
	main2 := `{"model":"big","messages":[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"Fix it"},{"role":"assistant","content":"Which file?"},{"role":"user","content":"main.go"}]}`
	tests := []struct {
		name     string
		in       string
		want     []string
		problems []string
		meta     string
	}{
		{
			name: "a title request before the prompt: the prompt is kept, the title request is a side conversation",
			in: cassette(interaction{req: title, resp: chat("cc_t", "Fixing it")},
				interaction{req: main1, resp: chat("cc_1", "Which file?")},
				interaction{req: main2, resp: chat("cc_2", "Done.")}),
			want: []string{turnSU, userText, turnE, turnSA, `{"kind":"text","text":"Which file?"}`, turnE,
				turnSU, `{"kind":"user","text":"main.go"}`, turnE, turnSA, `{"kind":"text","text":"Done."}`, turnE},
			meta: `{"cassette_version":2,"ignored":{"[DONE]":2,"side conversation request":1,"system message":2},"interactions":3}`,
		},
		{
			name: "a title request between two requests of the conversation changes nothing",
			in: cassette(interaction{req: main1, resp: chat("cc_1", "Which file?")},
				interaction{req: title, resp: chat("cc_t", "Fixing it")},
				interaction{req: main2, resp: chat("cc_2", "Done.")}),
			want: []string{turnSU, userText, turnE, turnSA, `{"kind":"text","text":"Which file?"}`, turnE,
				turnSU, `{"kind":"user","text":"main.go"}`, turnE, turnSA, `{"kind":"text","text":"Done."}`, turnE},
		},
		{
			name: "new messages by content: a request with the same count but a different last prompt",
			in: cassette(interaction{req: `{"messages":[{"role":"user","content":"one"}]}`, resp: chat("cc_1", "1")},
				interaction{req: `{"messages":[{"role":"user","content":"one"},{"role":"assistant","content":"1"},{"role":"user","content":"two"}]}`, resp: chat("cc_2", "2")},
				interaction{req: `{"messages":[{"role":"user","content":"one"},{"role":"assistant","content":"1"},{"role":"user","content":"three"}]}`, resp: chat("cc_3", "3")}),
			want: []string{turnSU, `{"kind":"user","text":"one"}`, turnE, turnSA, `{"kind":"text","text":"1"}`, turnE,
				turnSU, `{"kind":"user","text":"two"}`, turnE, turnSA, `{"kind":"text","text":"2"}`, turnE,
				turnSU, `{"kind":"user","text":"three"}`, turnE, turnSA, `{"kind":"text","text":"3"}`, turnE},
			problems: []string{`line 30: interaction 2: the request rewrites the conversation from message 3 on (the previous one held 3): taking those after the last assistant message as new`},
		},
		{
			name: "formatting differences (cache_control, string vs blocks) are the same message",
			in: cassette(interaction{req: `{"messages":[{"role":"user","content":[{"type":"text","text":"Fix it","cache_control":{"type":"ephemeral"}}]}]}`, resp: anth("msg_1", "Which file?")},
				interaction{req: `{"messages":[{"role":"user","content":"Fix it"},{"role":"assistant","content":"Which file?"},{"role":"user","content":[{"type":"text","text":"main.go","cache_control":{"type":"ephemeral"}}]}]}`, resp: anth("msg_2", "Done.")}),
			want: []string{turnSU, userText, turnE, turnSA, `{"kind":"text","text":"Which file?"}`, turnE,
				turnSU, `{"kind":"user","text":"main.go"}`, turnE, turnSA, `{"kind":"text","text":"Done."}`, turnE},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, problems, meta := run(t, tt.in, false)
			if diff := cmp.Diff(tt.want, evs); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.meta != "" && meta != tt.meta {
				t.Errorf("meta = %s, want %s", meta, tt.meta)
			}
		})
	}
}

func TestSideConversationsWithAll(t *testing.T) {
	title := `{"model":"small","messages":[{"role":"system","content":"Title it."},{"role":"user","content":"Generate a concise title for: Fix it"}]}`
	main1 := `{"model":"big","messages":[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"Fix it"}]}`
	in := cassette(interaction{req: title, resp: chat("cc_t", "Fixing it")}, interaction{req: main1, resp: chat("cc_1", "Done.")})
	res, err := vcr.Importer{}.Import(strings.NewReader(in), importer.Options{Name: "t.yaml", All: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range res.Events {
		got = append(got, string(event.AppendEvent(nil, &res.Events[i])))
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		`"kind":"user","text":"Fix it"`,
		`"kind":"user","text":"[side conversation 0] Generate a concise title for: Fix it","side_conversation":0`,
		`"kind":"text","text":"Fixing it","side_conversation":0`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in\n%s", want, joined)
		}
	}
	if strings.Index(joined, "Fix it\"") > strings.Index(joined, "[side conversation") {
		t.Errorf("the side conversation comes before the main one:\n%s", joined)
	}
}
