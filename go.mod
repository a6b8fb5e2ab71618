module github.com/toolsim/toolsim

go 1.26

require github.com/rivo/uniseg v0.4.7

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.26.0 // indirect
)
