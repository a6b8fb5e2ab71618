// Command runlocal runs the commands of a GitHub Actions workflow on this
// machine, the way `make ci-example` runs examples/ci/toolsim.yml: every
// job (job-level if: conditions are ignored, as for a manual dispatch),
// every matrix value, every run: step with bash -eo pipefail in a fresh
// directory per job, honouring if: always() and if: failure(). Of the
// uses: steps, checkout and setup-go are skipped (this checkout and its Go
// are used) and upload-artifact copies its paths under the output
// directory. The step that installs toolsim builds it from this checkout
// instead. At the end every JUnit report written is validated.
//
//	go run ./examples/ci/runlocal [-set KEY=VALUE]... [-out DIR] WORKFLOW
package main
