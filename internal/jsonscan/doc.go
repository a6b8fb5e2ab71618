// Package jsonscan is the hand-written JSON scanner shared by toolsim's
// line decoders (the trace reader and the persisted-log reader): a one-pass
// validating checker that also splits a top-level object into members, and
// a string unescaper (the one copy: the importers' own scanners use it
// too). It allocates nothing but the strings it returns and uses only the
// standard library.
//
// Invariants: Check agrees with encoding/json's Valid on every input that
// is valid UTF-8 and rejects invalid UTF-8; Unquote agrees with
// encoding/json on every string encoding/json accepts, invalid UTF-8
// included (FuzzCheck, FuzzUnquote).
package jsonscan
