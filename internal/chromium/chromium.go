package chromium

import (
	"os"
	"os/exec"
)

// names are the binaries looked up on PATH, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Path returns $CHROMIUM when it is set, else the first of the usual
// Chromium names found on PATH, else "" when there is none.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
