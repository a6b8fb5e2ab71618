module github.com/toolsim/toolsim

go 1.26

require (
	github.com/coder/acp-go-sdk v0.13.0
	github.com/google/go-cmp v0.7.0
	github.com/rivo/uniseg v0.4.7
	github.com/sebdah/goldie/v2 v2.8.0
	gopkg.in/yaml.v3 v3.0.1
	pgregory.net/rapid v1.3.0
)

require (
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	golang.org/x/sys v0.26.0 // indirect
)

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.26.0 // indirect
)
