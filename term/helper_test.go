//go:build linux || darwin

package term

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/creack/pty"
)

// helperEnv names the helper mode when the test binary runs as a program
// under test (see TestMain).
const helperEnv = "TOOLSIM_TERM_HELPER"

// TestMain runs the test binary as a helper program when helperEnv is set:
// the tests drive these programs instead of depending on tools.
func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helpers are the helper programs, by mode.
var helpers = map[string]func(args []string) int{
	"screen":   helpScreen,
	"query":    helpQuery,
	"keys":     helpKeys,
	"deaf":     helpDeaf,
	"echo":     helpEcho,
	"exit":     helpExit,
	"flood":    helpFlood,
	"size":     helpSize,
	"blink":    helpBlink,
	"tree":     helpTree,
	"parent":   helpParent,
	"orphan":   helpOrphan,
	"orphaner": helpOrphaner,
	"leaver":   helpLeaver,
	"sleeper":  helpSleeper,
}

func runHelper(mode string, args []string) int {
	h, ok := helpers[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "no helper %q\n", mode)
		return 2
	}
	return h(args)
}

// start runs helper mode in a Term closed at the test's end.
func start(t *testing.T, mode string, o Options) *Term {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o.Path = exe
	o.Env = append(os.Environ(), helperEnv+"="+mode)
	term, err := Start(o)
	if err != nil {
		t.Fatalf("Start(%s): %v", mode, err)
	}
	t.Cleanup(func() {
		if err := term.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return term
}

// waitText is WaitText that fails the test.
func waitText(t *testing.T, term *Term, re string) Snapshot {
	t.Helper()
	s, err := term.WaitText(regexp.MustCompile(re), testWait)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// raw turns off line editing and echo on stdin, as a terminal app does.
func raw() {
	var tio syscall.Termios
	fd := os.Stdin.Fd()
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, getTermios, uintptr(unsafe.Pointer(&tio))); e != 0 {
		panic(e)
	}
	tio.Lflag &^= syscall.ICANON | syscall.ECHO
	tio.Iflag &^= syscall.ICRNL
	tio.Cc[syscall.VMIN], tio.Cc[syscall.VTIME] = 1, 0
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, setTermios, uintptr(unsafe.Pointer(&tio))); e != 0 {
		panic(e)
	}
}

// block never returns: it reads a pipe nobody writes.
func block() int {
	r, w, _ := os.Pipe()
	defer w.Close()
	r.Read(make([]byte, 1))
	return 1
}

// readUntil reads stdin up to and including the byte end.
func readUntil(in *bufio.Reader, end byte) string {
	s, _ := in.ReadString(end)
	return s
}

func helpScreen([]string) int {
	fmt.Print("hello world\r\nline two\r\n")
	fmt.Print("\x1b[1;7HWORLD")
	fmt.Print("\x1b[2;1H\x1b[2Kreplaced")
	fmt.Print("\x1b[3;1H\x1b[31mred\x1b[0m done")
	return block()
}

// helpQuery asks for the cursor position and the device attributes, and
// shows the replies; it blocks until they come.
func helpQuery([]string) int {
	raw()
	in := bufio.NewReader(os.Stdin)
	fmt.Print("\x1b[2;5H\x1b[6n")
	cpr := readUntil(in, 'R')
	fmt.Print("\x1b[c")
	da := readUntil(in, 'c')
	fmt.Printf("\x1b[4;1Hcpr %q\r\nda %q\r\n", cpr, da)
	return block()
}

// helpKeys swallows the first byte it reads and shows the others.
func helpKeys([]string) int {
	raw()
	fmt.Print("ready\r\n")
	buf := make([]byte, 1)
	for n := 0; ; n++ {
		if _, err := os.Stdin.Read(buf); err != nil {
			return 1
		}
		if n > 0 {
			fmt.Printf("got %q after %d\r\n", buf, n)
		}
	}
}

// helpDeaf counts the bytes it reads and takes none into account.
func helpDeaf([]string) int {
	raw()
	fmt.Print("ready\r\n")
	buf := make([]byte, 64)
	seen := 0
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		seen += n
		fmt.Printf("\rseen %d", seen)
	}
}

// helpEcho shows every byte it has read, in order.
func helpEcho([]string) int {
	raw()
	fmt.Print("ready\r\n")
	var all []byte
	buf := make([]byte, 64)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		all = append(all, buf[:n]...)
		fmt.Printf("\recho %q", all)
	}
}

func helpExit([]string) int {
	fmt.Print("bye\r\n")
	return 3
}

// helpFlood changes the screen without end.
func helpFlood([]string) int {
	out := bufio.NewWriterSize(os.Stdout, 256)
	for i := 0; ; i++ {
		fmt.Fprintf(out, "\r%d", i)
		if i%16 == 0 {
			if out.Flush() != nil {
				return 1
			}
		}
	}
}

// helpSize shows the window size, and again after every key.
func helpSize([]string) int {
	raw()
	buf := make([]byte, 1)
	for {
		ws, err := pty.GetsizeFull(os.Stdin)
		if err != nil {
			return 1
		}
		fmt.Printf("size %dx%d\r\n", ws.Cols, ws.Rows)
		if _, err := os.Stdin.Read(buf); err != nil {
			return 1
		}
	}
}

// helpBlink shows "busy" until a key, then clears the screen for "idle".
func helpBlink([]string) int {
	raw()
	fmt.Print("busy\r\n")
	os.Stdin.Read(make([]byte, 1))
	fmt.Print("\x1b[2J\x1b[Hidle")
	return block()
}

// spawn starts helper mode as a child, in its own session when setsid,
// and returns once the child is ready (see ready).
func spawn(mode string, setsid bool) *exec.Cmd {
	exe, _ := os.Executable()
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	defer r.Close()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	err = cmd.Start()
	w.Close()
	if err != nil {
		panic(err)
	}
	if _, err := r.Read(make([]byte, 1)); err != nil {
		panic(fmt.Sprintf("helper %s did not get ready: %v", mode, err))
	}
	return cmd
}

// ready tells the parent that spawned this helper that it is ready, by a
// byte on descriptor 3.
func ready() {
	f := os.NewFile(3, "ready")
	f.Write([]byte{1})
	f.Close()
}

// ignoreTerm makes the process survive SIGTERM and SIGHUP (which the
// kernel sends when the session's leader exits), as a stubborn child does.
func ignoreTerm() { signal.Ignore(syscall.SIGTERM, syscall.SIGHUP) }

// helpTree: the leader starts a parent, which starts a child in the same
// group and one that calls setsid; all but the leader ignore SIGTERM (the
// leader too with the argument "stubborn"). The parent prints the pids.
func helpTree(args []string) int {
	if len(args) > 0 && args[0] == "stubborn" {
		ignoreTerm()
	}
	spawn("parent", false)
	return block()
}

func helpParent([]string) int {
	ignoreTerm()
	ready()
	c := spawn("sleeper", false)
	b := spawn("sleeper", true)
	fmt.Printf("pids: %d %d %d end\r\n", os.Getpid(), c.Process.Pid, b.Process.Pid)
	return block()
}

// helpOrphan: the leader starts a process that starts a setsid child and
// exits, so that the child is reparented away and holds only the pty.
func helpOrphan([]string) int {
	if err := spawn("orphaner", false).Wait(); err != nil {
		return 1
	}
	fmt.Print("reaped end\r\n")
	return block()
}

func helpOrphaner([]string) int {
	ready()
	b := spawn("sleeper", true)
	fmt.Printf("pids: %d\r\n", b.Process.Pid)
	return 0
}

// helpLeaver starts a child in its group, prints its pid and exits.
func helpLeaver([]string) int {
	c := spawn("sleeper", false)
	fmt.Printf("pids: %d end\r\n", c.Process.Pid)
	return 0
}

func helpSleeper([]string) int {
	ignoreTerm()
	ready()
	return block()
}

// pids reads the numbers after "pids:" on the screen.
func pids(t *testing.T, s Snapshot) []int {
	t.Helper()
	_, rest, ok := strings.Cut(s.String(), "pids:")
	if !ok {
		t.Fatalf("no pids on the screen:\n%s", s)
	}
	var out []int
	for _, f := range strings.Fields(rest) {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err != nil {
			break
		}
		out = append(out, pid)
	}
	return out
}
