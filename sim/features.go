package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// Feature names a part of SPEC §2 an engine may not support. With a
// feature off, the simulator never emits an event that needs it.
type Feature string

// The features, named as on the command line (--features) and in the
// engine protocol's init options.
const (
	FeatureTools       Feature = "tools"       // tool calls (always on)
	FeatureText        Feature = "text"        // assistant text
	FeatureThinking    Feature = "thinking"    // thinking blocks
	FeatureUser        Feature = "user"        // user turns and their items
	FeatureCancel      Feature = "cancel"      // user cancels (Interrupted notice)
	FeatureErrors      Feature = "errors"      // stream error events (error notices)
	FeaturePermissions Feature = "permissions" // permission asked, granted, denied
	FeatureSubagents   Feature = "subagents"   // tool calls with a parent
	FeatureDelegation  Feature = "delegation"  // agent_delegation progress payloads
	FeatureMeta        Feature = "meta"        // meta tools (todo lists, plans)
	FeatureProgress    Feature = "progress"    // tool_progress events
)

// AllFeatures lists every feature, in the order reports show them. Treat
// it as read-only.
var AllFeatures = FeatureList{
	FeatureTools, FeatureText, FeatureThinking, FeatureUser, FeatureCancel, FeatureErrors,
	FeaturePermissions, FeatureSubagents, FeatureDelegation, FeatureMeta, FeatureProgress,
}

// FeatureList is a list of features. In [Options], nil means every
// feature.
type FeatureList []Feature

// String writes the list the way [ParseFeatures] reads it: "all" for nil
// or every feature, else the names joined by commas.
func (l FeatureList) String() string {
	if l == nil || l.set() == allFeatureSet {
		return "all"
	}
	return strings.Join(l.Strings(), ",")
}

// Strings names the features of l, in order; nil (every feature) gives
// nil.
func (l FeatureList) Strings() []string {
	if l == nil {
		return nil
	}
	names := make([]string, len(l))
	for i, f := range l {
		names[i] = string(f)
	}
	return names
}

// Has reports whether f is on: nil has every feature, and tools are
// always on.
func (l FeatureList) Has(f Feature) bool {
	return l == nil || f == FeatureTools || slices.Contains(l, f)
}

// UnknownFeatureError is returned by [ParseFeatures] for a name it does
// not know.
type UnknownFeatureError struct{ Name string }

// Error names the unknown feature and lists the valid ones.
func (e *UnknownFeatureError) Error() string {
	return fmt.Sprintf("unknown feature %q (known: all, none, %s)", e.Name, strings.Join(AllFeatures.Strings(), ", "))
}

// ParseFeatures reads a comma-separated feature list. "" and "all" mean
// every feature. Tools are always on: "none" means tools only, and a list
// that leaves tools out gets them anyway. Duplicates are dropped; the
// result keeps the order of [AllFeatures]. An unknown name gives an
// [*UnknownFeatureError].
func ParseFeatures(s string) (FeatureList, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "all":
		return slices.Clone(AllFeatures), nil
	case "none":
		return FeatureList{FeatureTools}, nil
	}
	want := map[Feature]bool{FeatureTools: true}
	for _, name := range strings.Split(s, ",") {
		f := Feature(strings.TrimSpace(name))
		if !slices.Contains(AllFeatures, f) {
			return nil, &UnknownFeatureError{Name: string(f)}
		}
		want[f] = true
	}
	var out FeatureList
	for _, f := range AllFeatures {
		if want[f] {
			out = append(out, f)
		}
	}
	return out, nil
}

// featureSet is a FeatureList as bits (bit i: AllFeatures[i]).
type featureSet uint32

var allFeatureSet = featureSet(1)<<len(AllFeatures) - 1

func (l FeatureList) set() featureSet {
	if l == nil {
		return allFeatureSet
	}
	var s featureSet = 1 // tools
	for i, f := range AllFeatures {
		if slices.Contains(l, f) {
			s |= 1 << i
		}
	}
	return s
}

func (s featureSet) has(f Feature) bool { return s&(1<<slices.Index(AllFeatures, f)) != 0 }

// faultNeeds lists, for the faults that need them, the feature sets of
// which one must be on in full for the fault to land: cancel-before-result
// needs cancels and progress; late-result needs cancels or permissions.
var faultNeeds = map[fault.Fault][][]Feature{
	fault.Cancel:              {{FeatureCancel}},
	fault.CancelBeforeResult:  {{FeatureCancel, FeatureProgress}},
	fault.ProgressAfterResult: {{FeatureProgress}},
	fault.ProgressBurst:       {{FeatureProgress}},
	fault.LateResult:          {{FeatureCancel}, {FeaturePermissions}},
	fault.LateText:            {{FeatureText}},
	fault.SubagentBlock:       {{FeatureSubagents}},
}

// Usable reports whether fault f can land in a scenario with features l.
func (l FeatureList) Usable(f fault.Fault) bool {
	alts, ok := faultNeeds[f]
	if !ok {
		return true
	}
	return slices.ContainsFunc(alts, func(all []Feature) bool {
		return !slices.ContainsFunc(all, func(x Feature) bool { return !l.Has(x) })
	})
}

// UsableFaults returns the faults of fs that can land with features l and
// the other faults of fs, in order: a campaign expects only these to be
// injected.
func (l FeatureList) UsableFaults(fs fault.List) fault.List {
	var out fault.List
	for _, f := range fs {
		if l.UsableWith(f, fs) {
			out = append(out, f)
		}
	}
	return out
}

// UsableWith reports whether fault f can land with features l when the
// faults fs are on: Usable, and a late result also needs something to be
// late for: a denial (permissions) or a cancel (the cancel feature, and
// the cancel or cancel-before-result fault).
func (l FeatureList) UsableWith(f fault.Fault, fs fault.List) bool {
	if !l.Usable(f) {
		return false
	}
	if f != fault.LateResult || l.Has(FeaturePermissions) {
		return true
	}
	return fs.Has(fault.Cancel) || fs.Has(fault.CancelBeforeResult) && l.Usable(fault.CancelBeforeResult)
}

// Needs says what fault f needs that features l and faults fs lack, for a
// campaign that leaves it out ("" when it can land).
func (l FeatureList) Needs(f fault.Fault, fs fault.List) string {
	if l.UsableWith(f, fs) {
		return ""
	}
	if f == fault.LateResult && l.Usable(f) {
		return "a denial or a cancel to be late for: the permissions feature, or the cancel or cancel-before-result fault"
	}
	var alts []string
	for _, all := range faultNeeds[f] {
		names := make([]string, len(all))
		for i, x := range all {
			names[i] = string(x)
		}
		alts = append(alts, strings.Join(names, "+"))
	}
	return "the feature " + strings.Join(alts, " or ") + ", which the engine does not support"
}

// FeatureOf returns the feature an event needs, or FeatureTools for events
// every engine takes (turns, tool starts and results). Tests use it to
// check that a scenario holds nothing of a feature that is off; meta tools
// are told by name, which the event alone does not settle.
func FeatureOf(ev *event.Event) Feature {
	switch ev.Kind {
	case event.KindUser:
		return FeatureUser
	case event.KindTurnStart:
		if ev.Role == event.RoleUser {
			return FeatureUser
		}
	case event.KindText:
		return FeatureText
	case event.KindThinking:
		return FeatureThinking
	case event.KindCancel:
		return FeatureCancel
	case event.KindError:
		return FeatureErrors
	case event.KindPermission:
		return FeaturePermissions
	case event.KindToolStart:
		if ev.Parent != "" {
			return FeatureSubagents
		}
	case event.KindToolProgress:
		if len(ev.Details) > 0 {
			return FeatureDelegation
		}
		return FeatureProgress
	}
	return FeatureTools
}
