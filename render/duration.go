package render

import "strconv"

// Duration formats milliseconds the way tool rows show them: 45ms, 2s 300ms,
// 2s, 1m 5s, 1m, 1h 2m.
func Duration(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	switch {
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 60_000:
		return pair(ms/1000, "s", ms%1000, "ms")
	case ms < 3_600_000:
		return pair(ms/60_000, "m", ms%60_000/1000, "s")
	default:
		return pair(ms/3_600_000, "h", ms%3_600_000/60_000, "m")
	}
}

func pair(a int64, ua string, b int64, ub string) string {
	s := strconv.FormatInt(a, 10) + ua
	if b > 0 {
		s += " " + strconv.FormatInt(b, 10) + ub
	}
	return s
}
