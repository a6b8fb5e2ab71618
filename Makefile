# toolsim — see README.md. `make` alone lists the targets.
GO       ?= go
FUZZTIME ?= 5s
BENCHTIME ?= 1s

.DEFAULT_GOAL := help

.PHONY: help build test lint bench fuzz golden catalog ci-example real-engines

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-15s %s\n", $$1, $$2}'

build: ## build bin/toolsim (with its VCS revision for toolsim version)
	$(GO) build -buildvcs=auto -o bin/toolsim ./cmd/toolsim

# HEAVY are the tests that skip themselves under -race (package
# internal/race): heavy work that the detector slows tenfold, whose
# concurrency other tests cover under it (TestScenarios: TestCatalog runs
# the same scripts in-process; the 100,000-event view pages: the other
# browser tests).
HEAVY := ^(TestEndlessInput|TestExhaustiveTraces|TestPythonBugsShrinkAtEveryOffset|TestScenarios|TestLargeTrace|TestLargePageInBrowser|TestViolationsUnchanged|TestReorderedStreamReusesSafely|TestReplayed)$$
# INTERPRETED are the CLI scripts bound by a Python or Node engine: they
# skip under -race ([race] in testdata/script) and run after it; engine's
# campaign through the protocol runs shorter under -race, whole after it.
INTERPRETED := engine|header-only|node-engine|partial-engine|python-engine

test: lint ## lint, then every test (unit, property, golden, testscript, examples, API contract) with the race detector; the heavy single-goroutine ones without it
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run '$(HEAVY)' ./cmd/toolsim ./sim ./harness ./view ./rebuild
	$(GO) test -count=1 -run '^TestScripts$$/^($(INTERPRETED))$$' ./cmd/toolsim
	cd examples/go-engine && $(GO) test -count=1 ./...

lint: ## fail if gofmt, go vet (here, and for Windows and macOS) or go mod tidy would change anything
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	$(GO) mod tidy -diff
	cd examples/go-engine && $(GO) vet ./... && $(GO) mod tidy -diff

bench: ## run the benchmarks (events/s, protocol events/s, MB/s, render times, rebuild records/s, import MB/s, campaign scenarios/s, exhaustive, shrinking, HTML page of 100,000 events, the assistant-ui page's events/s and scenarios/s, and the useChat page's scenarios/s, in Chromium: skipped without it or its build)
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./event ./engine ./render ./timeline
	$(GO) test -run '^$$' -bench Pipe -benchmem -benchtime 3x ./engineproto
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./rebuild
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./formats/...
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./harness
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 5x ./shrink ./sim
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2x ./view
	$(GO) test -run '^$$' -bench . -benchtime 20x ./browser ./cmd/toolsim-browser

fuzz: ## run each native fuzz target for FUZZTIME (default 5s; a count such as 3000x avoids golang/go#75804)
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./event
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzEngine$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzSummary$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzUnquote$$' -fuzztime $(FUZZTIME) ./internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzRebuild$$' -fuzztime $(FUZZTIME) ./rebuild
	$(GO) test -run '^$$' -fuzz '^FuzzFirstLine$$' -fuzztime $(FUZZTIME) ./render
	$(GO) test -run '^$$' -fuzz '^FuzzDelegation$$' -fuzztime $(FUZZTIME) ./engine
	$(GO) test -run '^$$' -fuzz '^FuzzPlan$$' -fuzztime $(FUZZTIME) ./harness
	$(GO) test -run '^$$' -fuzz '^FuzzCodec$$' -fuzztime $(FUZZTIME) ./timeline
	$(GO) test -run '^$$' -fuzz '^FuzzServe$$' -fuzztime $(FUZZTIME) ./engineproto
	$(GO) test -run '^$$' -fuzz '^FuzzSanitize$$' -fuzztime $(FUZZTIME) ./render

golden: ## regenerate golden/ from the scenarios and real traces (read the diff before committing)
	$(GO) test . -run TestGolden -update
	$(GO) test ./formats -run TestSharedTraces -update
	@git --no-pager diff --stat -- golden

catalog: ## run the built-in scenario catalog
	$(GO) run ./cmd/toolsim

CI_EXAMPLE_SEEDS ?= 800

ci-example: build ## run the CI recipe of docs/ci.md locally (the workflow's commands, then ci.sh), small enough for a minute
	$(GO) run ./examples/ci/runlocal -set FUZZ_SEEDS=$(CI_EXAMPLE_SEEDS) -set REGRESSIONS=$(CURDIR)/harness/harnesstest/testdata/traces examples/ci/toolsim.yml
	@tmp=$$(mktemp -d) && PATH="$(CURDIR)/bin:$$PATH" REPORTS=$$tmp FUZZ_SEEDS=$(CI_EXAMPLE_SEEDS) \
	  REGRESSIONS=$(CURDIR)/harness/harnesstest/testdata/traces examples/ci/ci.sh && echo "ci.sh: ok, reports in $$tmp" && ls $$tmp

# The third-party engines under examples/<name>/ (adapter.mjs, package-lock.json),
# each with its regressions and baseline under scenarios/<name>/.
REAL_ENGINES := ai-sdk ai-sdk-streamtext langgraph langgraph-graph openai-agents
REAL_SEEDS ?= 300
# REAL_FLAGS_NAME: extra fuzz flags of one engine's gate. examples/ai-sdk
# writes the UI message chunks itself: it is the AI SDK's robustness
# engine (its real boundary is ai-sdk-streamtext), and its gate explores
# outside the contract too.
REAL_FLAGS_ai-sdk := --robustness

# The React tool-call UIs under examples/<name>/ (a page built with
# esbuild into examples/<name>/dist), driven in headless Chromium by
# toolsim-browser (package browser, docs/browser.md): the same gate and
# regressions as real-engine-%, through ENGINE_CMD_<name>, then each
# planted bug of scenarios/<name>/planted (PLANTED_<name>: bug=signature
# class) caught with its class. Skipped, saying so, without Chromium.
BROWSER_ENGINES := assistant-ui ai-sdk-react
ENGINE_CMD_assistant-ui = bin/toolsim-browser --page examples/assistant-ui/dist
SEEDS_assistant-ui ?= 60
WORKERS_assistant-ui ?= 2
ENGINE_CMD_ai-sdk-react = bin/toolsim-browser --page examples/ai-sdk-react/dist
SEEDS_ai-sdk-react ?= 60
WORKERS_ai-sdk-react ?= 2

.PHONY: real-browser-engines
real-browser-engines: $(addprefix real-browser-engine-,$(BROWSER_ENGINES)) ## the React UIs in headless Chromium (skipped without chromium)

# CHROMIUM_NAMES are the names internal/chromium looks up on PATH when
# $CHROMIUM is not set (the same order).
CHROMIUM_NAMES := chromium chromium-browser google-chrome google-chrome-stable
real-browser-engine-%:
	@found="$$CHROMIUM"; for n in $(CHROMIUM_NAMES); do [ -n "$$found" ] || found=$$(command -v $$n); done; \
	if [ -z "$$found" ]; then \
		echo "real-browser-engine-$*: chromium not installed (apt-get install -y chromium, or set CHROMIUM): skipped"; \
	else $(MAKE) --no-print-directory browser-page-$* real-engine-$* browser-planted-$*; fi

# browser-page-NAME: toolsim-browser, and the page built from its lock.
browser-page-%: build
	$(GO) build -o bin/toolsim-browser ./cmd/toolsim-browser
	@test -d examples/$*/node_modules || npm ci --prefix examples/$* --no-audit --no-fund
	npm run --prefix examples/$* --silent build

# browser-planted-NAME: each scenarios/NAME/planted/BUG.jsonl passes on the
# page, and fails with --bug BUG with the class its first line names.
browser-planted-%:
	@for f in scenarios/$*/planted/*.jsonl; do \
		bug=$$(basename $$f .jsonl); class=$$(head -1 $$f | sed -n 's/.*"planted_class":"\([^"]*\)".*/\1/p'); \
		bin/toolsim check --engine '$(ENGINE_CMD_$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f >/dev/null || { echo "$$f: fails without the planted bug"; exit 1; }; \
		out=$$(bin/toolsim check --engine '$(ENGINE_CMD_$*) --bug '$$bug --timeout $(or $(TIMEOUT_$*),30s) $$f); st=$$?; \
		if [ $$st -ne 1 ] || ! echo "$$out" | grep -qF "$$class"; then echo "$$out"; echo "$$f: --bug $$bug: want exit 1 with class \"$$class\", got exit $$st"; exit 1; fi; \
		echo "planted bug caught  $$bug: $$class"; \
	done

# The Go agent libraries under the executor kit, each in its own module
# examples/<name> (go test ./... there runs its campaign and its
# regressions in scenarios/<name>). One that needs a newer Go than
# toolsim's own module names it in GO_TOOLCHAIN_<name>, exported for its
# module only (the go command fetches it through the module proxy);
# the others use the go command in use.
REAL_GO_ENGINES ?= fantasy adk eino
GO_TOOLCHAIN ?= go1.27.3
GO_TOOLCHAIN_fantasy ?= $(GO_TOOLCHAIN)

# reports: every standalone repro under docs/findings/reports/ that runs
# with one command (a package.json: npm ci && npm test; a go.mod: go test
# ./...) must fail, on an assertion: one that passes means the library
# fixed it, one that fails to set up (a repro's setup checks throw plain
# errors starting "setup:") is a setup problem. A report driven by
# run.sh (a real agent CLI in a terminal) needs that CLI and is listed, not
# run. TestReportsStandalone checks what the reports may hold.
.PHONY: reports
reports: ## run each standalone library repro under docs/findings/reports/ (npm ci && npm test, or go test ./...): each must fail on an assertion
	@for d in docs/findings/reports/*/; do \
		d=$${d%/}; \
		if [ -f $$d/package.json ]; then \
			log=$$(npm ci --prefix $$d --no-audit --no-fund 2>&1) || { echo "$$log"; echo "$$d: npm ci failed (setup problem)"; exit 1; }; \
			out=$$(npm test --prefix $$d 2>&1); st=$$?; \
		elif [ -f $$d/go.mod ]; then \
			out=$$(cd $$d && $(GO) test -count=1 ./... 2>&1); st=$$?; \
		else echo "manual  $$d (run.sh: needs the agent CLI its README pins)"; continue; fi; \
		if [ $$st -eq 0 ]; then echo "$$out"; echo "$$d passes now: the library fixed it; update its findings page and move the report out"; exit 1; fi; \
		if ! echo "$$out" | grep -qE 'ERR_ASSERTION|--- FAIL' || echo "$$out" | grep -q 'setup:'; then echo "$$out"; echo "$$d: failed without a failing assertion, or on a setup check (setup problem)"; exit 1; fi; \
		echo "fails, as reported  $$d"; \
	done

.PHONY: real-go-engines
real-go-engines: $(addprefix real-go-engine-,$(REAL_GO_ENGINES)) ## the Go agent libraries under the executor kit (examples/fantasy with GOTOOLCHAIN=GO_TOOLCHAIN for its module only, examples/adk, examples/eino)

# real-go-engine-NAME: one of them (make real-go-engine-adk): vet, tidy, then its tests.
real-go-engine-%:
	cd examples/$* && $(if $(GO_TOOLCHAIN_$*),export GOTOOLCHAIN=$(GO_TOOLCHAIN_$*) && )$(GO) vet ./... && $(GO) mod tidy -diff && $(GO) test -count=1 ./...

# real-engine-NAME: one of them (make real-engine-langgraph). engine_cmd is
# the engine's command: ENGINE_CMD_<name>, else node examples/<name>/adapter.mjs.
engine_cmd = $(or $(ENGINE_CMD_$(1)),node examples/$(1)/adapter.mjs)
real-engine-%: build
	@test -d examples/$*/node_modules || npm ci --prefix examples/$* --no-audit --no-fund
	bin/toolsim fuzz --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) --seeds $(or $(SEEDS_$*),$(REAL_SEEDS)) $(if $(WORKERS_$*),--workers $(WORKERS_$*)) --out failures/$* \
		--baseline scenarios/$*/baseline.json $(REAL_FLAGS_$*)
	@for f in $$(ls scenarios/$*/*.jsonl 2>/dev/null); do \
		bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f >/dev/null; st=$$?; \
		if [ $$st -eq 0 ]; then echo "$$f passes now: the library fixed it; move it out of scenarios/$* and its class out of docs/findings/$*.md"; exit 1; fi; \
		if [ $$st -ne 1 ]; then echo "$$f: toolsim check exited $$st (setup problem)"; exit 1; fi; \
		echo "still fails  $$f"; \
	done
	@for f in $$(ls scenarios/$*/robustness/*.jsonl 2>/dev/null); do \
		out=$$(bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f); st=$$?; \
		if [ $$st -ne 0 ] || ! echo "$$out" | grep -q '^outside the contract'; then echo "$$out"; echo "$$f: want it set apart as outside the contract (exit 0), got exit $$st"; exit 1; fi; \
		bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) --robustness $$f >/dev/null; st=$$?; \
		if [ $$st -ne 1 ]; then echo "$$f: with --robustness toolsim check exited $$st, want 1 (the library fixed it, or a setup problem)"; exit 1; fi; \
		echo "robustness, still fails  $$f"; \
	done
	@for f in $$(ls scenarios/$*/documented/*.jsonl 2>/dev/null); do \
		out=$$(bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f); st=$$?; \
		if [ $$st -ne 0 ] || ! echo "$$out" | grep -q '^documented'; then echo "$$out"; echo "$$f: want it set apart as documented behaviour (exit 0), got exit $$st"; exit 1; fi; \
		echo "documented, still shown  $$f"; \
	done
	@for f in $$(ls scenarios/$*/by-design/*.jsonl 2>/dev/null); do \
		out=$$(bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f); st=$$?; \
		if [ $$st -ne 0 ] || ! echo "$$out" | grep -q '^by design'; then echo "$$out"; echo "$$f: want it set apart as behaviour by design, undocumented (exit 0), got exit $$st"; exit 1; fi; \
		echo "by design, still shown  $$f"; \
	done
	@for f in $$(ls scenarios/$*/recipe/*.jsonl 2>/dev/null); do \
		bin/toolsim check --engine '$(call engine_cmd,$*)' --timeout $(or $(TIMEOUT_$*),30s) $$f >/dev/null; st=$$?; \
		if [ $$st -ne 0 ]; then echo "$$f: the library's documented recipe, wired in the adapter, no longer removes this finding (exit $$st, want 0): see docs/findings/$*.md, \"Before the recipe was wired\""; exit 1; fi; \
		echo "recipe, still passes  $$f"; \
	done

# The real agent apps under examples/<name>/ (package.json, package-lock.json:
# npm ci installs the pinned app), driven black-box by toolsim-agent
# (package agent, docs/agents.md): toolsim serves each its model API and its
# MCP tools and reads its terminal. Each gate is real-engine-% through
# ENGINE_CMD_<name>, without shrinking (a real app checks a scenario in three
# to ten seconds; its baseline was written the same way), with the longer
# per-reply timeout a real app needs, and --racy: a real app races, so a new
# finding counts only if its trace fails the same way again on a fresh app.
REAL_AGENTS := claude codex gemini opencode
AGENT_SEEDS ?= 20
define agent_gate
ENGINE_CMD_$(1) = bin/toolsim-agent --agent $(1)
SEEDS_$(1) ?= $$(AGENT_SEEDS)
WORKERS_$(1) ?= 2
TIMEOUT_$(1) ?= 90s
REAL_FLAGS_$(1) ?= --no-shrink --racy
endef
$(foreach a,$(REAL_AGENTS),$(eval $(call agent_gate,$(a))))

.PHONY: real-agents
real-agents: $(addprefix real-agent-,$(REAL_AGENTS)) ## the real agent apps (Claude Code, Codex CLI, Gemini CLI, opencode) driven black-box by toolsim-agent: npm ci once each, then each gate (only its known findings) and its regressions

# real-agent-NAME: one of them (make real-agent-claude): its gate, then
# the resume oracle's (real-agent-resume-NAME).
real-agent-%: build
	$(GO) build -o bin/toolsim-agent ./cmd/toolsim-agent
	@$(MAKE) --no-print-directory real-engine-$* real-agent-resume-$*

# real-agent-resume-NAME: the resume oracle (toolsim-agent --resume,
# docs/agents.md, After resume): at each scenario's end the app is quit
# with its own quit command and resumed; RESUME_SEEDS seeds of the faults
# whose end a screen shows (RESUME_FAULTS: results in any order, cancels,
# and a crash mid-turn, then a resume: docs/agents.md, After a crash; the
# log faults change only toolsim's own persisted log) against
# scenarios/NAME/resume/baseline.json (the live findings and the resume
# ones), with the gate's flags.
RESUME_SEEDS ?= 6
RESUME_FAULTS ?= order,cancel,crash
real-agent-resume-%: build
	$(GO) build -o bin/toolsim-agent ./cmd/toolsim-agent
	bin/toolsim fuzz --engine 'bin/toolsim-agent --agent $* --resume --session-log' --timeout $(TIMEOUT_$*) --seeds $(RESUME_SEEDS) --faults $(RESUME_FAULTS) \
		--workers $(WORKERS_$*) $(REAL_FLAGS_$*) --out failures/$*-resume --baseline scenarios/$*/resume/baseline.json
	@for f in $$(ls scenarios/$*/resume/*.jsonl 2>/dev/null); do \
		out=$$(bin/toolsim check --engine 'bin/toolsim-agent --agent $* --resume --session-log' --timeout $(TIMEOUT_$*) $$f); st=$$?; \
		if [ $$st -ne 1 ] || ! echo "$$out" | grep -q 'resume oracle'; then echo "$$out"; echo "$$f: want it to fail the resume oracle (exit 1), got exit $$st"; exit 1; fi; \
		echo "resume, still fails  $$f"; \
	done

# real-agent-logs-NAME: the session-log oracle's campaign (docs/agents.md,
# The app's own session log): LOG_SEEDS seeds of LOG_FAULTS with
# toolsim-agent --session-log, each scenario's own log kept beside the
# events sent under failures/NAME-logs/kept, against
# scenarios/NAME/logs/baseline.json. Not part of real-agents (100 seeds
# of four apps take about 50 minutes); the resume gate holds the same
# oracle on its 6 seeds.
LOG_SEEDS ?= 100
LOG_FAULTS ?= order,cancel
real-agent-logs-%: build
	$(GO) build -o bin/toolsim-agent ./cmd/toolsim-agent
	bin/toolsim fuzz --engine 'bin/toolsim-agent --agent $* --session-log --keep-logs failures/$*-logs/kept' --timeout $(TIMEOUT_$*) \
		--seeds $(LOG_SEEDS) --faults $(LOG_FAULTS) --workers $(WORKERS_$*) $(REAL_FLAGS_$*) --out failures/$*-logs \
		--baseline scenarios/$*/logs/baseline.json

# real-engines comes after every list it names: make expands a rule's
# prerequisites when it reads the rule, so a list defined below it would be empty.
real-engines: build $(addprefix real-engine-,$(REAL_ENGINES)) $(addprefix real-browser-engine-,$(BROWSER_ENGINES)) $(addprefix real-go-engine-,$(REAL_GO_ENGINES)) vitest-example ## every third-party engine (npm ci once each; Go ones with GO_TOOLCHAIN; React UIs in Chromium, skipped without it): its gate (only its known findings), and each regression in scenarios/<name> still failing; then the vitest example

# npm: the toolsim package and its platform packages (docs/npm.md), and the
# vitest helper's example project.
NPM_DIST ?= dist/npm
NPM_FLAGS ?=
VITEST_EXAMPLE := examples/vitest
# NPM_TS pins the TypeScript (and @types/node) that npm-test compiles
# README's adapter with, as a new user's npm install -D would give them.
NPM_TS := npm/build/testdata/typescript
VITEST_BUG ?= spinner
VITEST_SIGNATURE ?= cancel: tool status interrupted → running

.PHONY: npm npm-test vitest-example

npm: ## build the npm tarballs into dist/npm (toolsim and its platform packages) at the version of toolsim version; NPM_FLAGS=-release refuses a modified tree; publishes nothing
	$(GO) run ./npm/build -go $(GO) -out $(NPM_DIST) $(NPM_FLAGS)

npm-test: build npm ## the toolsim/vitest helper's tests, then install the tarballs offline into a fresh project: npx toolsim version as bin/toolsim's, fuzz, toolsim/engine, toolsim/vitest, README's adapter compiled by tsc --strict (pinned in NPM_TS; npm ci when its lock changes)
	TOOLSIM_BINARY=$(CURDIR)/bin/toolsim node --test npm/toolsim/test/vitest.test.mjs
	@lock=$(NPM_TS)/node_modules/.package-lock.json; \
	if [ ! -f $$lock ] || [ $(NPM_TS)/package-lock.json -nt $$lock ]; then \
		npm ci --prefix $(NPM_TS) --no-audit --no-fund || \
		echo "npm-test: npm ci --prefix $(NPM_TS) failed (is the npm registry reachable?): the TypeScript check will skip"; \
	fi
	TOOLSIM_NPM_DIST=$(abspath $(NPM_DIST)) TOOLSIM_GO_BINARY=$(CURDIR)/bin/toolsim \
		$(GO) test -count=1 -v -run '^TestInstallOffline$$' ./npm/build

vitest-example: build ## examples/vitest (npm ci once): on a planted bug (VITEST_BUG, default spinner) vitest must fail naming the finding and its reproduce command; on the correct engine it must pass
	@test -d $(VITEST_EXAMPLE)/node_modules/vitest || npm ci --prefix $(VITEST_EXAMPLE) --no-audit --no-fund
	@log=$$(mktemp) && trap 'rm -f $$log' EXIT; \
	if (cd $(VITEST_EXAMPLE) && TOOLSIM_BINARY=$(CURDIR)/bin/toolsim TOOLSIM_ENGINE_BUG=$(VITEST_BUG) node_modules/.bin/vitest run) >$$log 2>&1; then \
		cat $$log; echo "vitest-example: vitest passed on --bug $(VITEST_BUG); it must fail"; exit 1; fi; \
	for want in 'FAIL' '$(VITEST_SIGNATURE)' 'reproduce: toolsim check --engine'; do \
		grep -qF -- "$$want" $$log || { cat $$log; echo "vitest-example: the failing run's output lacks: $$want"; exit 1; }; \
	done; \
	sed -n '/^ FAIL /,/⎯⎯/p' $$log; \
	echo "vitest-example: --bug $(VITEST_BUG) fails naming its findings, as it must; now the correct engine:"
	cd $(VITEST_EXAMPLE) && TOOLSIM_BINARY=$(CURDIR)/bin/toolsim node_modules/.bin/vitest run --reporter=verbose
