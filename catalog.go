package toolsim

import "embed"

// Scenarios holds scenarios/*.txtar: one testscript script per scenario,
// each carrying its trace and comparing `toolsim replay` with a golden.
//
//go:embed scenarios/*.txtar
var Scenarios embed.FS

// Golden holds golden/*.golden: the expected renders, named
// SCENARIO.wWIDTH.golden.
//
//go:embed golden/*.golden
var Golden embed.FS
