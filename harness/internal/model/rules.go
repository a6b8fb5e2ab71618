package model

// The interesting states and rules a trace can exercise. Each name is a
// row of a campaign's coverage table; docs/simulator.md explains them.
const (
	StateCancelManyLive    = "cancel while 2+ tools live"
	StateCancelAfterProg   = "cancel between progress and result"
	StateCancelPending     = "cancel while permission pending"
	StateDeniedResult      = "result for a denied tool"
	StateResultAfterCancel = "result after cancel"
	StateResultAfterEnd    = "result after turn end"
	StateResultFirst       = "result before start"
	StateDuplicateResult   = "duplicate result"
	StateProgressAfter     = "progress after result"
	StateLiveIDReused      = "id reused while live"
	StateSubagent          = "sub-agent call"
	StateBigGroup          = "group of 3+ tools"
	StateTurnEndLive       = "turn ended with tools live"

	RuleGroupByRun             = "group: run of starts, no batch ids"
	RuleGroupByBatch           = "group: same batch id, adjacent"
	RuleBatchInterleaved       = "group: batch start after another event"
	RuleAdjacentBatches        = "group: adjacent batches, distinct ids"
	RuleMetaInRun              = "meta tool inside a run"
	RuleUnknownParent          = "parent: unknown id"
	RuleParentEnded            = "parent: already terminal"
	RuleNestedChild            = "parent: nested two deep"
	RuleMissingID              = "diag: missing id"
	RuleIDReusedAfterEnd       = "id reused after it ended"
	RuleUnknownProgress        = "diag: progress for unknown id"
	RuleLateProgress           = "diag: progress after interrupt"
	RuleProgressAfterDenial    = "diag: progress after denial"
	RuleLatePermission         = "diag: permission for no live tool"
	RuleStreamedOutput         = "progress: streamed output"
	RuleKeepStreamed           = "result: empty output keeps streamed"
	RuleReplaceStreamed        = "result: output replaces streamed"
	RuleFailed                 = "status: running → failed"
	RuleDurationGiven          = "duration: result's duration_ms ≠ clock"
	RuleResultWhilePending     = "status: pending → ok/failed"
	RulePermissionAsked        = "status: running → pending"
	RulePermissionGranted      = "status: pending → running"
	RulePermissionDenied       = "status: pending → denied"
	RuleDelegation             = "delegation payload"
	RuleTextWhileLive          = "text while a tool runs"
	RuleErrorNotice            = "error notice"
	RuleUserItem               = "user item"
	RuleNoSeparatorUser        = "turn end: user turn, no separator"
	RuleNoSeparatorCancel      = "turn end: after cancel, no separator"
	RuleUnknownResultAtTurnEnd = "diag: result never started (turn end)"
	RuleUnknownResultAtEnd     = "diag: result never started (end)"
	RuleCancelNothingLive      = "cancel with nothing live"
	RuleCancelMidText          = "cancel while text streams"
	RuleEndWithLive            = "end of stream with tools live"
)

// States lists every state and rule name, in report order.
var States = []string{
	StateCancelManyLive, StateCancelAfterProg, StateCancelPending, StateDeniedResult,
	StateResultAfterCancel, StateResultAfterEnd, StateResultFirst, StateDuplicateResult,
	StateProgressAfter, StateLiveIDReused, StateSubagent, StateBigGroup, StateTurnEndLive,
	RuleGroupByRun, RuleGroupByBatch, RuleBatchInterleaved, RuleAdjacentBatches, RuleMetaInRun,
	RuleUnknownParent, RuleParentEnded, RuleNestedChild, RuleMissingID, RuleIDReusedAfterEnd,
	RuleUnknownProgress, RuleLateProgress, RuleProgressAfterDenial, RuleLatePermission,
	RuleStreamedOutput, RuleKeepStreamed, RuleReplaceStreamed, RuleFailed, RuleDurationGiven,
	RuleResultWhilePending, RulePermissionAsked, RulePermissionGranted, RulePermissionDenied,
	RuleDelegation, RuleTextWhileLive, RuleErrorNotice, RuleUserItem, RuleNoSeparatorUser,
	RuleNoSeparatorCancel, RuleUnknownResultAtTurnEnd, RuleUnknownResultAtEnd,
	RuleCancelNothingLive, RuleCancelMidText, RuleEndWithLive,
}
