// Package jsonscantest checks the importers' fast JSON decoders against
// encoding/json: a fast decoder may decline any input, but what it
// accepts it must decode exactly as json.Unmarshal does.
package jsonscantest
