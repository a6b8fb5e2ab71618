//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestFuzzInterrupted: Ctrl-C stops a campaign, which prints what it
// found so far and that it was interrupted, never "ok", and exits 130.
func TestFuzzInterrupted(t *testing.T) {
	pr, pw := io.Pipe()
	var out bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: pw, open: osCLI().open}
	code := make(chan int, 1)
	go func() {
		code <- c.run([]string{"fuzz", "--seeds", "5000", "--out", t.TempDir()})
		pw.Close()
	}()
	br := bufio.NewReader(pr)
	// The first progress line: the campaign runs, its Ctrl-C handler is set.
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "progress: ") {
		t.Fatalf("first stderr line %q, %v", line, err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(br)
	if got := <-code; got != exitInterrupted {
		t.Errorf("exit %d, want %d", got, exitInterrupted)
	}
	if strings.Contains(out.String(), "ok: every oracle held") {
		t.Errorf("an interrupted campaign says ok:\n%s", out.String())
	}
	for _, want := range []string{"stopped early", "no failure in the "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(string(rest), "toolsim fuzz: interrupted") {
		t.Errorf("stderr lacks the interrupt:\n%s", rest)
	}
}
