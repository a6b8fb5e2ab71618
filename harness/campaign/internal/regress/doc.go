// Package regress writes a failure found by toolsim where a person can
// pick it up: the failing trace, its shrunk form, a ready-to-commit
// testscript scenario and the scenario's golden render. campaign.Fuzz,
// toolsim fuzz and toolsim shrink all save failures through it, so the
// files look the same whichever found them.
package regress
