package sim

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// BytesSource is a rand.Source that replays bytes, eight per value, so a
// fuzzer's input decides a plan's choices. Once the bytes run out it goes
// on with a PCG seeded from them (a source stuck at one value would make
// rand's rejection sampling loop forever).
type BytesSource struct {
	data []byte
	rest *rand.PCG
}

// NewBytesSource returns a source replaying data.
func NewBytesSource(data []byte) *BytesSource {
	h := fnv.New64a()
	h.Write(data)
	return &BytesSource{data: data, rest: rand.NewPCG(h.Sum64(), uint64(len(data)))}
}

// Uint64 returns the next eight bytes as a value, then PCG values.
func (s *BytesSource) Uint64() uint64 {
	if len(s.data) < 8 {
		return s.rest.Uint64()
	}
	v := binary.LittleEndian.Uint64(s.data)
	s.data = s.data[8:]
	return v
}
