module github.com/toolsim/toolsim/examples/go-engine

go 1.26.0

require github.com/toolsim/toolsim v0.0.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)

replace github.com/toolsim/toolsim => ../..
