package store

import "time"

// msPerDay is the length of a UTC day in ms (Go's time has no leap
// seconds).
const msPerDay = 24 * 60 * 60 * 1000

// dayStamp formats log timestamps as FormatTime does, keeping the date
// part of the last day stamped: a log's records mostly fall on one day,
// and formatting a whole time per record was a tenth of persisting.
type dayStamp struct {
	start  int64  // the day's first ms since the epoch
	prefix string // its date as FormatTime writes it: "2006-01-02T"
	valid  bool
}

// stamp returns FormatTime of the time ms milliseconds after the epoch.
func (d *dayStamp) stamp(ms int64) string {
	if !d.valid || ms < d.start || ms-d.start >= msPerDay {
		start := ms - ms%msPerDay
		if ms%msPerDay < 0 {
			start -= msPerDay
		}
		s := FormatTime(time.UnixMilli(start))
		d.start, d.prefix, d.valid = start, s[:len(s)-len("00:00:00.000Z")], true
	}
	in := ms - d.start
	var b [len("00:00:00.000Z")]byte
	two := func(at int, n int64) { b[at], b[at+1] = byte('0'+n/10), byte('0'+n%10) }
	two(0, in/3600000)
	b[2] = ':'
	two(3, in/60000%60)
	b[5] = ':'
	two(6, in/1000%60)
	b[8] = '.'
	b[9], b[10], b[11] = byte('0'+in/100%10), byte('0'+in/10%10), byte('0'+in%10)
	b[12] = 'Z'
	return d.prefix + string(b[:])
}
