package redact

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// gitleaksTOML is gitleaks' default configuration, as published in
// GitleaksModule (go generate copies it; see generate.go).
//
//go:embed gitleaks.toml
var gitleaksTOML []byte

// glConfig is the part of a gitleaks configuration the detector set uses.
type glConfig struct {
	Allowlist glAllow
	Rules     []glRule
}

type glRule struct {
	ID          string
	Regex       string
	Path        string
	SecretGroup int
	Entropy     float64
	Keywords    []string
	Allowlists  []glAllow
}

type glAllow struct {
	Condition   string
	RegexTarget string
	Regexes     []string
	Stopwords   []string
	Paths       []string
}

// allowlist is a compiled gitleaks allowlist: a finding it matches is not
// a secret. Path and commit lists are left out (a trace has neither).
type allowlist struct {
	and       bool   // condition AND: the regexes and the stopwords must both match
	target    string // what the regexes see: "" the secret, "match", or "line"
	regexes   []*regexp.Regexp
	stopwords []string
}

// allows reports whether the allowlist lets a finding through.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	re, sw := a.matchRegex(target), a.matchStopword(secret)
	if a.and {
		return (len(a.regexes) == 0 || re) && (len(a.stopwords) == 0 || sw) && (len(a.regexes) > 0 || len(a.stopwords) > 0)
	}
	return re || sw
}

func (a *allowlist) matchRegex(s string) bool {
	for _, re := range a.regexes {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

func (a *allowlist) matchStopword(secret string) bool {
	lower := strings.ToLower(secret)
	for _, w := range a.stopwords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// loadGitleaks compiles the embedded gitleaks rules: the rules whose
// secret has a provider's shape first, in file order, then the generic
// ones (whose names say less). Rules that apply only to files of a given
// path, and those without an expression, are left out: a trace has no
// file paths.
func loadGitleaks(data []byte) (specific, generic []rule, err error) {
	var cfg glConfig
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return nil, nil, fmt.Errorf("gitleaks.toml: %w", err)
	}
	global, err := compileAllow(cfg.Allowlist)
	if err != nil {
		return nil, nil, fmt.Errorf("gitleaks.toml: global allowlist: %w", err)
	}
	for _, r := range cfg.Rules {
		if r.Regex == "" || r.Path != "" {
			continue
		}
		ru, err := compileRule(r, global)
		if err != nil {
			return nil, nil, fmt.Errorf("gitleaks.toml: rule %q: %w", r.ID, err)
		}
		if strings.HasPrefix(r.ID, "generic") {
			generic = append(generic, ru)
		} else {
			specific = append(specific, ru)
		}
	}
	return specific, generic, nil
}

// compileRule turns one gitleaks rule into a detector.
func compileRule(r glRule, global *allowlist) (rule, error) {
	re, err := regexp.Compile(r.Regex)
	if err != nil {
		return rule{}, err
	}
	ru := rule{kind: r.ID, re: re, group: r.SecretGroup, firstGroup: r.SecretGroup == 0 && re.NumSubexp() > 0,
		entropy: r.Entropy, digit: strings.HasPrefix(r.ID, "generic"), fold: true, allow: []*allowlist{global}}
	for _, k := range r.Keywords {
		ru.hints = append(ru.hints, strings.ToLower(k))
	}
	if strings.HasPrefix(r.Regex, semiGeneric) && len(ru.hints) > 0 {
		ru.window = true
	}
	for _, a := range r.Allowlists {
		al, err := compileAllow(a)
		if err != nil {
			return rule{}, err
		}
		ru.allow = append(ru.allow, al)
	}
	return ru, nil
}

// semiGeneric starts the expressions of gitleaks' "KEYWORD = value"
// rules: at most 50 name characters, the keyword, then a bounded
// assignment and value. Such a match lies near a keyword, so these rules
// run on windows around the keywords' occurrences (see rule.window)
// instead of on the whole string: on long tool output, the whole-string
// scans were nine tenths of redaction's time.
const semiGeneric = `(?i)[\w.-]{0,50}?(?:`

// The window around a keyword occurrence: what a semi-generic match can
// reach before it (the 50 name characters) and after it (the keyword, 20
// characters to the operator, 3+3+5 around it, a value of up to 150, its
// end), with room to spare.
const (
	windowBefore = 64
	windowAfter  = 320
)

// compileAllow compiles one allowlist.
func compileAllow(a glAllow) (*allowlist, error) {
	al := &allowlist{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget}
	for _, s := range a.Regexes {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		al.regexes = append(al.regexes, re)
	}
	for _, w := range a.Stopwords {
		al.stopwords = append(al.stopwords, strings.ToLower(w))
	}
	return al, nil
}

// entropy is the Shannon entropy of s in bits per byte, as gitleaks
// computes it.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	e := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}
