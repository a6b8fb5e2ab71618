package campaign

import (
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// PlantGenerate makes the campaign generate its seeds with gen: a test
// plants a nondeterministic simulator, toolsim's own fault.
func PlantGenerate(c *Campaign, gen func(uint64, sim.Options) *sim.Scenario) { c.gen = gen }

// PlantRender makes the campaign render with draw: a test plants a
// nondeterministic renderer, toolsim's own fault.
func PlantRender(c *Campaign, draw func(*timeline.Timeline, render.Options) string) { c.render = draw }

// Median is median, for its table test.
var Median = median
