package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// rule is what the Ant JUnit schema allows for one element: its
// attributes (required or not, with a check of the value) and the order
// of its children as a regular expression over their names.
type rule struct {
	required map[string]func(string) bool
	optional map[string]func(string) bool
	children *regexp.Regexp // over " name" for each child; nil: text only
}

var (
	anyText   = func(string) bool { return true }
	nonEmpty  = func(s string) bool { return strings.TrimSpace(s) != "" }
	isInt     = func(s string) bool { _, err := strconv.Atoi(s); return err == nil }
	decimalRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	isDecimal = decimalRe.MatchString
	stampRe   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$`)
)

var junitRules = map[string]rule{
	"testsuites": {children: regexp.MustCompile(`^( testsuite)*$`)},
	"testsuite": {
		required: map[string]func(string) bool{
			"name": nonEmpty, "package": anyText, "id": isInt, "timestamp": stampRe.MatchString,
			"hostname": nonEmpty, "tests": isInt, "failures": isInt, "errors": isInt, "time": isDecimal,
		},
		children: regexp.MustCompile(`^ properties( testcase)* system-out system-err$`),
	},
	"properties": {children: regexp.MustCompile(`^( property)*$`)},
	"property":   {required: map[string]func(string) bool{"name": nonEmpty, "value": anyText}, children: regexp.MustCompile(`^$`)},
	"testcase": {
		required: map[string]func(string) bool{"name": anyText, "classname": anyText, "time": isDecimal},
		children: regexp.MustCompile(`^( failure| error)?$`),
	},
	"failure":    {required: map[string]func(string) bool{"type": anyText}, optional: map[string]func(string) bool{"message": anyText}},
	"error":      {required: map[string]func(string) bool{"type": anyText}, optional: map[string]func(string) bool{"message": anyText}},
	"system-out": {},
	"system-err": {},
}

// openElem is an element being read.
type openElem struct {
	name                    string
	kids                    strings.Builder // " name" per child
	cases, failures, errors int             // a testsuite's tally
	attrs                   map[string]string
}

// ValidateJUnit checks a JUnit XML report against the structure of the Ant
// JUnit schema (the one Jenkins, GitLab and the GitHub test reporters
// read): known elements only, in the schema's order, every required
// attribute present and well formed, no unknown attribute, and the
// testsuite counts matching its testcases. The error names the line.
func ValidateJUnit(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var stack []*openElem
	root := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := d.InputPos()
		if err != nil {
			return fmt.Errorf("junit: line %d: %w", line, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := start(&stack, &root, t); err != nil {
				return fmt.Errorf("junit: line %d: %w", line, err)
			}
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if err := checkEnd(top); err != nil {
				return fmt.Errorf("junit: line %d: %w", line, err)
			}
		case xml.CharData:
			if len(stack) > 0 && junitRules[stack[len(stack)-1].name].children != nil && strings.TrimSpace(string(t)) != "" {
				return fmt.Errorf("junit: line %d: <%s> holds no text", line, stack[len(stack)-1].name)
			}
		}
	}
	if !root {
		return errors.New("junit: no <testsuites> element")
	}
	return nil
}

// start checks an element where it opens and pushes it.
func start(stack *[]*openElem, root *bool, t xml.StartElement) error {
	name := t.Name.Local
	r, ok := junitRules[name]
	if !ok || t.Name.Space != "" {
		return fmt.Errorf("element <%s> is not in the schema", name)
	}
	s := *stack
	if len(s) == 0 {
		if *root || name != "testsuites" {
			return fmt.Errorf("the root must be one <testsuites>, got <%s>", name)
		}
		*root = true
	} else {
		parent := s[len(s)-1]
		if junitRules[parent.name].children == nil {
			return fmt.Errorf("<%s> holds text only, not <%s>", parent.name, name)
		}
		parent.kids.WriteString(" " + name)
		switch {
		case name == "testcase":
			parent.cases++
		case name == "failure" && len(s) >= 2:
			s[len(s)-2].failures++
		case name == "error" && len(s) >= 2:
			s[len(s)-2].errors++
		}
	}
	attrs, err := checkAttrs(r, t)
	if err != nil {
		return fmt.Errorf("<%s>: %w", name, err)
	}
	*stack = append(s, &openElem{name: name, attrs: attrs})
	return nil
}

// checkAttrs checks an element's attributes against its rule.
func checkAttrs(r rule, t xml.StartElement) (map[string]string, error) {
	attrs := map[string]string{}
	for _, a := range t.Attr {
		if a.Name.Space != "" {
			return nil, fmt.Errorf("attribute %s:%s is not in the schema", a.Name.Space, a.Name.Local)
		}
		check := r.required[a.Name.Local]
		if check == nil {
			check = r.optional[a.Name.Local]
		}
		if check == nil {
			return nil, fmt.Errorf("attribute %s is not in the schema", a.Name.Local)
		}
		if !check(a.Value) {
			return nil, fmt.Errorf("attribute %s=%q is not well formed", a.Name.Local, a.Value)
		}
		attrs[a.Name.Local] = a.Value
	}
	for name := range r.required {
		if _, ok := attrs[name]; !ok {
			return nil, fmt.Errorf("required attribute %s is missing", name)
		}
	}
	return attrs, nil
}

// checkEnd checks an element's children once it closes, and a
// testsuite's counts.
func checkEnd(e *openElem) error {
	r := junitRules[e.name]
	if r.children != nil && !r.children.MatchString(e.kids.String()) {
		return fmt.Errorf("<%s> children%s do not follow the schema's order %s", e.name, e.kids.String(), r.children)
	}
	if e.name != "testsuite" {
		return nil
	}
	for _, c := range []struct {
		attr string
		n    int
	}{{"tests", e.cases}, {"failures", e.failures}, {"errors", e.errors}} {
		if e.attrs[c.attr] != strconv.Itoa(c.n) {
			return fmt.Errorf("<testsuite> %s=%s but it holds %d", c.attr, e.attrs[c.attr], c.n)
		}
	}
	return nil
}
