package apicheck

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// Module is the import path of the main module.
const Module = "github.com/toolsim/toolsim"

// skipDir reports whether a directory holds no public package.
func skipDir(rel, name string) bool {
	switch {
	case rel == ".":
		return false
	case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
		return true
	case name == "internal" || name == "testdata" || name == "node_modules":
		return true
	}
	return rel == "cmd" || rel == "examples"
}

// API returns the sorted API lines of every public package under root,
// the module's root directory.
func API(root string) ([]string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if skipDir(filepath.ToSlash(rel), d.Name()) {
			return filepath.SkipDir
		}
		pkg, err := packageLines(path, importPath(rel))
		lines = append(lines, pkg...)
		return err
	})
	slices.Sort(lines)
	return slices.Compact(lines), err
}

func importPath(rel string) string {
	if rel == "." {
		return Module
	}
	return Module + "/" + filepath.ToSlash(rel)
}

// packageLines parses the non-test files of one directory that the
// default build context would compile.
func packageLines(dir, path string) ([]string, error) {
	entries, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range entries {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, base); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("apicheck: %w", err)
		}
		if f.Name.Name == "main" {
			return nil, nil
		}
		files = append(files, f)
	}
	w := &walker{fset: fset, prefix: "pkg " + path + ", "}
	for _, f := range files {
		for _, d := range f.Decls {
			w.decl(d)
		}
	}
	return w.lines, nil
}

type walker struct {
	fset   *token.FileSet
	prefix string
	lines  []string
}

func (w *walker) add(format string, args ...any) {
	w.lines = append(w.lines, w.prefix+fmt.Sprintf(format, args...))
}

// expr prints a type or value expression on one line.
func (w *walker) expr(e ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, w.fset, e); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func (w *walker) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		w.funcDecl(d)
	case *ast.GenDecl:
		var typ ast.Expr // a const group's type carries over (iota)
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				w.typeSpec(s)
			case *ast.ValueSpec:
				if s.Type != nil || len(s.Values) > 0 {
					typ = s.Type
				}
				w.valueSpec(d.Tok, s, typ)
			}
		}
	}
}

func (w *walker) funcDecl(d *ast.FuncDecl) {
	if !d.Name.IsExported() {
		return
	}
	sig := w.signature(d.Type)
	if d.Recv == nil {
		w.add("func %s%s%s", d.Name.Name, w.typeParams(d.Type.TypeParams), sig)
		return
	}
	recv := d.Recv.List[0].Type
	base := recv
	if star, ok := base.(*ast.StarExpr); ok {
		base = star.X
	}
	if ix, ok := base.(*ast.IndexExpr); ok {
		base = ix.X
	} else if ix, ok := base.(*ast.IndexListExpr); ok {
		base = ix.X
	}
	if id, ok := base.(*ast.Ident); ok && !id.IsExported() {
		return
	}
	w.add("method (%s) %s%s", w.expr(recv), d.Name.Name, sig)
}

// signature prints a function type without parameter names.
func (w *walker) signature(f *ast.FuncType) string {
	s := "(" + w.fieldTypes(f.Params) + ")"
	if f.Results == nil {
		return s
	}
	res := w.fieldTypes(f.Results)
	if len(f.Results.List) == 1 && len(f.Results.List[0].Names) <= 1 {
		return s + " " + res
	}
	return s + " (" + res + ")"
}

func (w *walker) fieldTypes(fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		t := w.expr(f.Type)
		for range max(len(f.Names), 1) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, ", ")
}

func (w *walker) typeParams(fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	return "[" + w.expr(fl) + "]"
}
