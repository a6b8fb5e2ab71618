package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/report"
	"gopkg.in/yaml.v3"
)

type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs yaml.Node         `yaml:"jobs"`
}

type job struct {
	Strategy struct {
		Matrix map[string][]string `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []step `yaml:"steps"`
}

type step struct {
	Name string            `yaml:"name"`
	Run  string            `yaml:"run"`
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	With map[string]string `yaml:"with"`
}

type sets map[string]string

func (s sets) String() string { return fmt.Sprint(map[string]string(s)) }
func (s sets) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	s[k] = val
	return nil
}

func main() {
	over := sets{}
	flag.Var(over, "set", "override a workflow env variable (KEY=VALUE; repeatable)")
	out := flag.String("out", "", "directory for the jobs' work and artifacts (default: a new temporary directory)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: runlocal [-set KEY=VALUE]... [-out DIR] WORKFLOW")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), over, *out); err != nil {
		fmt.Fprintln(os.Stderr, "runlocal:", err)
		os.Exit(1)
	}
}

func run(path string, over sets, out string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "ci-example-"); err != nil {
			return err
		}
	}
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	bin := filepath.Join(out, "bin")
	env := os.Environ()
	for k, v := range wf.Env {
		if o, ok := over[k]; ok {
			v = o
		}
		env = append(env, k+"="+v)
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := &runner{repo: repo, out: out, bin: bin, env: env}
	failed := 0
	for i := 0; i+1 < len(wf.Jobs.Content); i += 2 {
		name := wf.Jobs.Content[i].Value
		var j job
		if err := wf.Jobs.Content[i+1].Decode(&j); err != nil {
			return fmt.Errorf("%s: job %s: %w", path, name, err)
		}
		for _, m := range matrix(j) {
			if !r.job(name, j, m) {
				failed++
			}
		}
	}
	if err := validateReports(out); err != nil {
		return err
	}
	fmt.Printf("work and artifacts in %s\n", out)
	if failed > 0 {
		return fmt.Errorf("%d job runs failed", failed)
	}
	return nil
}

// matrix lists the job's matrix combinations (one key at most).
func matrix(j job) []map[string]string {
	if len(j.Strategy.Matrix) == 0 {
		return []map[string]string{nil}
	}
	var out []map[string]string
	for k, vs := range j.Strategy.Matrix {
		for _, v := range vs {
			out = append(out, map[string]string{k: v})
		}
	}
	return out
}

type runner struct {
	repo, out, bin string
	env            []string
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// job runs one job (one matrix combination) and reports whether it passed.
func (r *runner) job(name string, j job, m map[string]string) bool {
	label := name
	for k, v := range m {
		label += fmt.Sprintf(" [%s=%s]", k, v)
	}
	dir := filepath.Join(r.out, strings.NewReplacer(" ", "", "[", "-", "]", "", "=", "-").Replace(label))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Printf("%s: %v\n", label, err)
		return false
	}
	ok := true
	for _, s := range j.Steps {
		s.Name = expr.ReplaceAllStringFunc(s.Name, func(e string) string { return subst(e, m) })
		if !(s.If == "always()" || s.If == "failure()" && !ok || s.If == "" && ok) {
			continue
		}
		err := r.step(dir, s, m)
		status := "ok"
		if err != nil {
			status, ok = "FAILED: "+err.Error(), false
		}
		fmt.Printf("%s: %s: %s\n", label, stepName(s), status)
	}
	return ok
}

func stepName(s step) string {
	if s.Name != "" {
		return s.Name
	}
	return s.Uses
}

func subst(e string, m map[string]string) string {
	inner := strings.TrimSpace(e[3 : len(e)-2])
	if k, ok := strings.CutPrefix(inner, "matrix."); ok {
		return m[k]
	}
	return e
}

// step runs one step in dir.
func (r *runner) step(dir string, s step, m map[string]string) error {
	switch {
	case strings.HasPrefix(s.Uses, "actions/checkout"), strings.HasPrefix(s.Uses, "actions/setup-go"):
		return nil
	case strings.HasPrefix(s.Uses, "actions/upload-artifact"):
		return r.upload(dir, s, m)
	case s.Uses != "":
		return fmt.Errorf("unsupported action %s", s.Uses)
	case strings.Contains(s.Run, "$TOOLSIM_PKG"):
		if _, err := os.Stat(filepath.Join(r.bin, "toolsim")); err == nil {
			return nil // built by an earlier job
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(r.bin, "toolsim"), "./cmd/toolsim")
		cmd.Dir, cmd.Stdout, cmd.Stderr = r.repo, os.Stdout, os.Stderr
		return cmd.Run()
	}
	script := expr.ReplaceAllStringFunc(s.Run, func(e string) string { return subst(e, m) })
	if left := expr.FindString(script); left != "" {
		return fmt.Errorf("cannot evaluate %s locally", left)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, r.env, os.Stdout, os.Stderr
	return cmd.Run()
}

// upload copies the step's paths to OUT/artifacts/NAME.
func (r *runner) upload(dir string, s step, m map[string]string) error {
	name := expr.ReplaceAllStringFunc(s.With["name"], func(e string) string { return subst(e, m) })
	dst := filepath.Join(r.out, "artifacts", name)
	for _, p := range strings.Fields(s.With["path"]) {
		src := filepath.Join(dir, p)
		if _, err := os.Stat(src); err != nil {
			continue // if-no-files-found: ignore
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
	}
	return nil
}

// validateReports checks every JUnit report under the artifacts.
func validateReports(out string) error {
	n := 0
	err := filepath.WalkDir(filepath.Join(out, "artifacts"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".xml" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if err := report.ValidateJUnit(data); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	fmt.Printf("%d JUnit reports validated\n", n)
	return nil
}
