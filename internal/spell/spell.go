package spell

import "strings"

// Nearest returns the name that word most likely misspells: the one at
// the smallest Distance from word (ignoring case), when that distance is
// at most 2 and less than half the name's length; the first such name
// on a tie (a name differing from word only in case is at distance 0).
// It reports false when no name is that near.
func Nearest(word string, names []string) (string, bool) {
	best, bestDist := "", 3
	lower := strings.ToLower(word)
	for _, name := range names {
		d := Distance(lower, strings.ToLower(name))
		if d < bestDist && 2*d < len(name) {
			best, bestDist = name, d
		}
	}
	return best, best != ""
}

// Distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, by byte.
func Distance(a, b string) int {
	// rows[i%3] is row i of the table: the distances of a[:i] to b[:j].
	var rows [3][]int
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur, prev, prev2 := rows[i%3], rows[(i-1)%3], rows[(i+1)%3]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
	}
	return rows[len(a)%3][len(b)]
}
