module github.com/toolsim/toolsim/examples/fantasy

go 1.27.3

require (
	charm.land/fantasy v0.48.0
	github.com/toolsim/toolsim v0.0.0
)

require (
	github.com/charmbracelet/x/exp/slice v0.1.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/kaptinlin/jsonpointer v0.4.28 // indirect
	github.com/kaptinlin/jsonschema v0.9.10 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/toolsim/toolsim => ../..
