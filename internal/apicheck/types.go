package apicheck

import (
	"go/ast"
	"go/token"
)

func (w *walker) typeSpec(s *ast.TypeSpec) {
	if !s.Name.IsExported() {
		return
	}
	name := s.Name.Name + w.typeParams(s.TypeParams)
	if s.Assign.IsValid() {
		w.add("type %s = %s", name, w.expr(s.Type))
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		w.add("type %s struct", name)
		for _, f := range t.Fields.List {
			w.field(name, "struct", f)
		}
	case *ast.InterfaceType:
		w.add("type %s interface", name)
		for _, f := range t.Methods.List {
			w.field(name, "interface", f)
		}
	default:
		w.add("type %s %s", name, w.expr(s.Type))
	}
}

// field adds one exported struct field, embedded type or interface method.
func (w *walker) field(typ, kind string, f *ast.Field) {
	if len(f.Names) == 0 {
		w.add("type %s %s, embedded %s", typ, kind, w.expr(f.Type))
		return
	}
	for _, n := range f.Names {
		if !n.IsExported() {
			continue
		}
		if ft, ok := f.Type.(*ast.FuncType); ok && kind == "interface" {
			w.add("type %s interface, %s%s", typ, n.Name, w.signature(ft))
			continue
		}
		w.add("type %s %s, %s %s", typ, kind, n.Name, w.expr(f.Type))
	}
}

// valueSpec adds exported consts and vars: their type when written (or
// carried over in a const group), else the type of a composite literal,
// else their value (a var's contents are not its API).
func (w *walker) valueSpec(tok token.Token, s *ast.ValueSpec, typ ast.Expr) {
	for i, n := range s.Names {
		if !n.IsExported() {
			continue
		}
		switch {
		case typ != nil:
			w.add("%s %s %s", tok, n.Name, w.expr(typ))
		case i < len(s.Values) && isLit(s.Values[i]):
			w.add("%s %s %s", tok, n.Name, w.expr(s.Values[i].(*ast.CompositeLit).Type))
		case i < len(s.Values):
			w.add("%s %s = %s", tok, n.Name, w.expr(s.Values[i]))
		default:
			w.add("%s %s", tok, n.Name)
		}
	}
}

func isLit(e ast.Expr) bool {
	c, ok := e.(*ast.CompositeLit)
	return ok && c.Type != nil
}
